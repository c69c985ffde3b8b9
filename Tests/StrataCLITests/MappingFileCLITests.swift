import Foundation
import Testing

/// Mapping files checked before anything runs (SPEC §11.3 "Errors"; issue 15 item 1): `lint`, `diff` and
/// `migrate` read them; bad names and types are exit 2 located in the file, a TODO is exit 4, and the
/// store is untouched.
@Suite struct MappingFileCLITests {
    func expectRejected(_ text: String, status: Int32, location: String, message: String) throws {
        let (dir, store) = try MappingProject.make(["v2.yaml": text])
        let before = E2E.storeHashes(store)
        for args in [["lint"], ["diff", "1", "2"], ["migrate", "--store", "app.sqlite"]] {
            let r = try CLI.run(args, in: dir)
            #expect(r.status == status, "\(args): \(r.stderr)")
            #expect(r.stderr.contains("migrations/v2.yaml:\(location): error: \(message)"), "\(args): \(r.stderr)")
        }
        #expect(E2E.storeHashes(store) == before)
        #expect(try MappingProject.version(store) == "1")
    }

    @Test func unknownDestinationEntity() throws {
        try expectRejected(MappingProject.mapping.replacingOccurrences(of: "  Order:\n", with: "  Ordr:\n"),
                           status: 2, location: "3:3", message: "v2 has no entity 'Ordr'")
    }

    @Test func unknownSourceEntity() throws {
        try expectRejected(MappingProject.mapping.replacingOccurrences(of: "{ source: Author, filter: \"kind == 'person'\" }",
                                                                       with: "{ source: Autor }"),
                           status: 2, location: "8:22", message: "v1 has no entity 'Autor'")
    }

    @Test func unknownDestinationAttribute() throws {
        try expectRejected(MappingProject.mapping.replacingOccurrences(of: "rating: \"int16", with: "ratin: \"int16"),
                           status: 2, location: "6:7", message: "Order has no attribute 'ratin' in v2")
    }

    @Test func unknownSourceAttributeInAnExpressionIsLocatedAtItsColumn() throws {
        try expectRejected(MappingProject.mapping.replacingOccurrences(of: "decimal(total)", with: "decimal(totl)"),
                           status: 2, location: "7:23", message: "Order has no attribute 'totl'")
    }

    @Test func anExpressionOfTheWrongTypeSaysWhichCast() throws {
        let text = MappingProject.mapping.replacingOccurrences(of: "\"int16(rating)\"", with: "\"rating\"")
        try expectRejected(text, status: 2, location: "6:16", message: "Order.rating is int16, but rating is string")
        let (dir, _) = try MappingProject.make(["v2.yaml": text])
        #expect(try CLI.run(["lint"], in: dir).stderr.contains("hint: wrap in int16(): int16(rating)"))
    }

    @Test func aFilterOverUnknownNames() throws {
        try expectRejected(MappingProject.mapping.replacingOccurrences(of: "deleted == NO", with: "removed == NO"),
                           status: 2, location: "4:14", message: "Order has no attribute 'removed'")
    }

    @Test func versionsThatAreNotAdjacent() throws {
        try expectRejected(MappingProject.mapping.replacingOccurrences(of: "from: 1, to: 2", with: "from: 2, to: 2"),
                           status: 2, location: "1:10", message: "mapping from v2 to v2: the versions are not adjacent")
    }

    @Test func twoFilesForOneStepPointAtTheSecond() throws {
        let (dir, store) = try MappingProject.make(["v2.yaml": MappingProject.mapping, "v2b.yaml": MappingProject.mapping])
        let before = E2E.storeHashes(store)
        for args in [["lint"], ["diff", "1", "2"], ["migrate", "--store", "app.sqlite"]] {
            let r = try CLI.run(args, in: dir)
            #expect(r.status == 2, "\(args): \(r.stderr)")
            #expect(r.stderr.contains("migrations/v2b.yaml:1:10: error: a second mapping file for v1 → v2 (the first is migrations/v2.yaml)"),
                    "\(r.stderr)")
        }
        #expect(E2E.storeHashes(store) == before)
    }

    @Test func aTodoLeftInTheFileIsExit4NamingIt() throws {
        try expectRejected(MappingProject.mapping.replacingOccurrences(of: "\"decimal(total)\"", with: "TODO"),
                           status: 4, location: "7:14", message: "v1 → v2: Order.total: a TODO is left in the mapping file")
    }

    @Test func aRefusedChangeTheFileDoesNotCoverIsExit4() throws {
        let text = MappingProject.mapping.replacingOccurrences(of: "      total: \"decimal(total)\"\n", with: "")
        let (dir, store) = try MappingProject.make(["v2.yaml": text])
        let before = E2E.storeHashes(store)
        for args in [["lint"], ["diff", "1", "2"], ["migrate", "--store", "app.sqlite"]] {
            let r = try CLI.run(args, in: dir)
            #expect(r.status == 4, "\(args): \(r.stderr)")
            #expect(r.stderr.contains("models/2.yaml:10:7: error: v1 → v2: Order.total: type changes from int64 to decimal"), "\(r.stderr)")
            #expect(r.stderr.contains("or cover it in migrations/v2.yaml"), "\(r.stderr)")
        }
        #expect(E2E.storeHashes(store) == before)
    }

    @Test func withoutAFileTheRefusalPointsAtTheSkeleton() throws {
        let (dir, _) = try MappingProject.make([:])
        let r = try CLI.run(["lint"], in: dir)
        #expect(r.status == 4)
        #expect(r.stderr.contains("or write a mapping file: `strata mapping 1 2` prints a skeleton"), "\(r.stderr)")
    }

    @Test func aValidFileLintsCleanAndHooksBesideItStillLoad() throws {
        let hook = "id: touch\nafter: 2\nsteps:\n  - batchUpdate: { entity: Person, propertiesToUpdate: { name: { expression: \"name\" } } }\n"
        let (dir, _) = try MappingProject.make(["v2.yaml": MappingProject.mapping, "touch.yaml": hook])
        let r = try CLI.run(["lint"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("migrations: 1 hook(s), 0 error(s)"), "\(r.stdout)")
        #expect(r.stderr.contains("migrations/v2.yaml:8:3: warning: v1 → v2: Person is mapped from Author (migrations/v2.yaml), filter: kind == 'person' (other rows dropped)"),
                "\(r.stderr)")
        let diff = try CLI.run(["diff", "1", "2"], in: dir)
        #expect(diff.status == 0)
        #expect(diff.stdout.contains("~ mapAttribute Order.rating: mapped: int16(rating)"), "\(diff.stdout)")
        #expect(diff.stdout.contains("! mapEntity Person: mapped from Author (migrations/v2.yaml), filter: kind == 'person' (other rows dropped)"))
    }
}
