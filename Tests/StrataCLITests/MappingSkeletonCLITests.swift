import Foundation
import GRDB
import Testing

/// `strata mapping FROM TO` (SPEC §11.3; issue 15 item 2): the skeleton of a step, its TODOs exit 4 until
/// edited, and the edited file runs.
@Suite struct MappingSkeletonCLITests {
    static let skeleton = """
        # Mapping of the step v1 → v2, written by `strata mapping 1 2`.
        # Every choice inference makes is written out; edit the TODOs (each is exit 4 until edited),
        # and remove what you do not change if you prefer: what this file leaves out is inferred.
        mapping: { from: 1, to: 2 }
        entities:
          # Company: new in v2, starts empty (or add `source: ENTITY` to fill it from v1)
          Item:
            source: Item
            attributes:
              name: "name"
          Order:
            source: Order
            attributes:
              rating: TODO   # type changes from string to int16, e.g. "int16(rating)"
              total: TODO   # type changes from int64 to decimal, e.g. "decimal(total)"
              deleted: "deleted"
          # Person: new in v2, starts empty (or add `source: ENTITY` to fill it from v1)
          # Author (v1): nothing carries it, its objects are dropped (name it as a source to keep them)

        """

    @Test func theSkeletonWritesOutInferenceAndTodosWithReasons() throws {
        let (dir, _) = try MappingProject.make([:])
        let r = try CLI.run(["mapping", "1", "2"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == Self.skeleton)
        let json = try CLI.json(try CLI.run(["mapping", "1", "2", "--format", "json"], in: dir).stdout)
        #expect(json["todos"] as? Int == 2)
        #expect(json["yaml"] as? String == Self.skeleton)
    }

    /// A type change of an attribute a sub-entity inherits is a TODO under the sub-entity too: the parent's
    /// expression covers the parent's own objects only. Filled with the suggested conversions, the step runs and
    /// converts both kinds' objects (before, a sub-entity's objects got the inferred CAST: a uuid became 6.0).
    @Test func anInheritedTypeChangeIsATodoUnderTheSubEntityToo() throws {
        let dir = try CLI.project("skeleton", models: [
            "1.yaml": "version: 1\nentities:\n  A:\n    attributes:\n      code: { type: string }\n  C:\n    parent: A\n    attributes:\n      c: { type: string }\n",
            "2.yaml": "version: 2\nentities:\n  A:\n    attributes:\n      code: { type: int64 }\n  C:\n    parent: A\n    attributes:\n      c: { type: string }\n",
        ])
        let r = try CLI.run(["mapping", "1", "2"], in: dir)
        #expect(r.stdout.hasSuffix("""
              A:
                source: A
                attributes:
                  code: TODO   # type changes from string to int64, e.g. "int64(code)"
              C:
                source: C
                attributes:
                  c: "c"
                  code: TODO   # type changes from string to int64, inherited from A, e.g. "int64(code)"

            """), "\(r.stdout)")
        let filled = r.stdout.replacingOccurrences(of: #"TODO   # type changes from string to int64, e.g. "int64(code)""#, with: #""int64(code)""#)
            .replacingOccurrences(of: #"TODO   # type changes from string to int64, inherited from A, e.g. "int64(code)""#, with: #""int64(code)""#)
        try filled.write(toFile: dir + "/migrations/2.mapping.yaml", atomically: true, encoding: .utf8)
        #expect(try CLI.run(["migrate", "--create", "--to", "1", "--store", "s.sqlite"], in: dir).status == 0)
        let queue = try DatabaseQueue(path: dir + "/s.sqlite")
        try queue.write { try $0.execute(sql: #"INSERT INTO "A" ("_entity", "code") VALUES ('A', '12'), ('C', '34'), ('C', 'x')"#) }
        try queue.close()
        let run = try CLI.run(["migrate", "--store", "s.sqlite"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try E2E.rows(dir + "/s.sqlite", #"SELECT "_entity" || '|' || coalesce("code", '-') FROM "A" ORDER BY "_pk""#) == ["A|12", "C|34", "C|-"])
    }

    @Test func itsTodosAreExit4UntilEditedThenTheStepRuns() throws {
        let (dir, store) = try MappingProject.make([:], badRating: false)
        try Self.skeleton.write(toFile: dir + "/migrations/v2-mapping.yaml", atomically: true, encoding: .utf8)
        let before = E2E.storeHashes(store)
        let lint = try CLI.run(["lint"], in: dir)
        #expect(lint.status == 4, "\(lint.stderr)")
        #expect(lint.stderr.contains("migrations/v2-mapping.yaml:14:15: error: v1 → v2: Order.rating: a TODO is left in the mapping file"), "\(lint.stderr)")
        #expect(lint.stderr.contains("migrations/v2-mapping.yaml:15:14: error: v1 → v2: Order.total: a TODO is left in the mapping file"))
        let migrate = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(migrate.status == 4)
        #expect(E2E.storeHashes(store) == before)
        let edited = Self.skeleton.replacingOccurrences(of: "rating: TODO", with: "rating: \"int16(rating)\"")
            .replacingOccurrences(of: "total: TODO", with: "total: \"decimal(total)\"")
        try edited.write(toFile: dir + "/migrations/v2-mapping.yaml", atomically: true, encoding: .utf8)
        #expect(try CLI.run(["lint"], in: dir).status == 0)
        let run = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try E2E.rows(store, #"SELECT "_pk", "_entity", "name", "rating", "total", "deleted", "author" FROM "Item" ORDER BY "_pk""#)
                == ["1|Item|plain|NULL|NULL|NULL|NULL", "2|Order|o2|4|10|0|NULL", "3|Order|o3|3|20|0|NULL",
                    "4|Order|o4|5|30|1|NULL", "5|Order|o5|2|NULL|0|NULL"])
        #expect(try E2E.rows(store, #"SELECT count(*) FROM "Person""#) == ["0"])
    }

    @Test func versionsThatAreNotOneStepAreExit2() throws {
        let dir = try CLI.exampleProject()
        let r = try CLI.run(["mapping", "1", "3"], in: dir)
        #expect(r.status == 2)
        #expect(r.stderr.contains("error: v1 → v3 is not one step"), "\(r.stderr)")
        #expect(try CLI.run(["mapping", "4", "9"], in: dir).status == 2)
    }

    @Test func anInferableStepsSkeletonNamesRenamesAndRunsLikeInference() throws {
        let dir = try CLI.exampleProject()
        let r = try CLI.run(["mapping", "2", "3"], in: dir)
        #expect(r.status == 0)
        #expect(r.stdout.contains("      portions: \"servings\"   # renamed from servings\n"), "\(r.stdout)")
        #expect(r.stdout.contains("      # notes: new, nil\n"))
        try r.stdout.write(toFile: dir + "/migrations/v3-mapping.yaml", atomically: true, encoding: .utf8)
        let lint = try CLI.run(["lint"], in: dir)
        #expect(lint.status == 0, "\(lint.stderr)")
    }
}
