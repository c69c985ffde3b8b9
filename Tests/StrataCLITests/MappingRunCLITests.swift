import Foundation
import GRDB
import StrataTestSupport
import Testing

/// Mapping files run inside their step (SPEC §11.3; issue 15 item 3): type changes, filters, splits and
/// `$source` companions, one `INSERT … SELECT` per table, IDs kept, links to dropped rows dropped, failed
/// casts audited, exactly once, the file's checksum recorded (drift when edited).
@Suite struct MappingRunCLITests {
    static let itemRows = #"SELECT "_pk", "_entity", "name", "rating", "total", typeof("total"), "deleted", "author" FROM "Item" ORDER BY "_pk""#

    @Test func aFailedCastIntoANonOptionalAttributeIsExit3AndWritesNothing() throws {
        let (dir, store) = try MappingProject.make(["v2.yaml": MappingProject.mapping])
        let before = E2E.storeHashes(store)
        for audit in ["touched", "none"] {
            let r = try CLI.run(["migrate", "--store", "app.sqlite", "--audit", audit], in: dir)
            #expect(r.status == 3, "\(r.stderr)")
            #expect(r.stderr.contains("error: v1 → v2: Order.rating is not nil (non-optional; its mapped value failed to cast or was nil): 1 object (code 1570)"), "\(r.stderr)")
            #expect(r.stderr.contains("/Order/p3\n"), "\(r.stderr)")
            #expect(E2E.storeHashes(store) == before)
        }
        #expect(try MappingProject.version(store) == "1")
        #expect(try E2E.rows(store, #"SELECT "rating" FROM "Item" WHERE "_pk" = 3"#) == ["x"])
    }

    @Test func typeChangesAFilterAndASplitKeepIDsAndDropLinksToDroppedRows() throws {
        let (dir, store) = try MappingProject.make(["v2.yaml": MappingProject.mapping], badRating: false)
        let r = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try MappingProject.version(store) == "2")
        let items = ["1|Item|plain|NULL|NULL|null|NULL|NULL", "2|Order|o2|4|10|text|0|1", "3|Order|o3|3|20|text|0|NULL", "5|Order|o5|2|NULL|null|0|3"]
        let people = ["1|Ann", "3|Bob"]
        #expect(try E2E.rows(store, Self.itemRows) == items)
        #expect(try E2E.rows(store, #"SELECT "_pk", "name" FROM "Person" ORDER BY "_pk""#) == people)
        #expect(try E2E.rows(store, #"SELECT "_pk", "name" FROM "Company" ORDER BY "_pk""#) == ["2|Acme"])
        #expect(try E2E.rows(store, #"SELECT name FROM sqlite_master WHERE name = 'Author'"#).isEmpty)
        #expect(try E2E.rows(store, "PRAGMA foreign_key_check").isEmpty)
        // Exactly once: reruns find nothing to do and change nothing.
        for _ in 0..<2 {
            let again = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
            #expect(again.status == 0, "\(again.stderr)")
            #expect(try E2E.rows(store, Self.itemRows) == items)
        }
        #expect(try E2E.rows(store, #"SELECT count(*) FROM "strata_history" WHERE "kind" = 'migrate'"#) == ["1"])
        // New objects never reuse a carried ID.
        #expect(try E2E.rows(store, #"SELECT "seq" FROM "sqlite_sequence" WHERE "name" = 'Item'"#) == ["5"])
    }

    static let blog1 = """
        version: 1
        entities:
          Blog:
            attributes:
              title: { type: string }
              theme: { type: string }
              group: { type: int64 }
        """
    static let blog2 = """
        version: 2
        entities:
          Blog:
            attributes:
              title: { type: string }
            relationships:
              settings: { destination: BlogSettings, inverse: blog, deleteRule: cascade }
          BlogSettings:
            attributes:
              theme: { type: string, optional: false }
              group: { type: int64 }
            relationships:
              blog: { destination: Blog, inverse: settings, optional: false, deleteRule: nullify }
        """
    static let companion = """
        mapping: { from: 1, to: 2 }
        entities:
          BlogSettings:
            source: Blog
            attributes: { theme: "coalesce(theme, 'light')" }
            relationships: { blog: "$source" }
        """

    @Test func aCompanionEntityIsLinkedToTheObjectFromTheSameRow() throws {
        let dir = Temporary.directory("companion")
        try FileManager.default.createDirectory(atPath: dir + "/models", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/migrations", withIntermediateDirectories: true)
        try Self.blog1.write(toFile: dir + "/models/1.yaml", atomically: true, encoding: .utf8)
        try Self.blog2.write(toFile: dir + "/models/2.yaml", atomically: true, encoding: .utf8)
        #expect(try CLI.run(["migrate", "--create", "--to", "1", "--store", "app.sqlite"], in: dir).status == 0)
        let store = dir + "/app.sqlite"
        let queue = try DatabaseQueue(path: store)
        try queue.write { try $0.execute(sql: #"INSERT INTO "Blog" ("_pk", "title", "theme", "group") VALUES (1, 'a', 'dark', 5), (2, 'b', NULL, 6), (4, 'c', 'x', 7)"#) }
        try queue.close()
        // Without the file the step is inferred: BlogSettings is a new, empty entity (a dry run passes).
        let without = try CLI.run(["migrate", "--store", "app.sqlite", "--dry-run"], in: dir)
        #expect(without.status == 0, "\(without.stderr)")
        try Self.companion.write(toFile: dir + "/migrations/v2.yaml", atomically: true, encoding: .utf8)
        let lint = try CLI.run(["lint"], in: dir)
        #expect(lint.status == 0, "\(lint.stderr)")
        let r = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try E2E.rows(store, #"SELECT "_pk", "title", "settings" FROM "Blog" ORDER BY "_pk""#) == ["1|a|1", "2|b|2", "4|c|4"])
        #expect(try E2E.rows(store, #"SELECT "_pk", "theme", "group" FROM "BlogSettings" ORDER BY "_pk""#) == ["1|dark|5", "2|light|6", "4|x|7"])
        #expect(try E2E.rows(store, "PRAGMA foreign_key_check").isEmpty)
    }

    @Test func aCompanionLinkToAnEntityThatDoesNotCarryTheSourceIsExit2() throws {
        let dir = Temporary.directory("companion")
        try FileManager.default.createDirectory(atPath: dir + "/models", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/migrations", withIntermediateDirectories: true)
        try Self.blog1.write(toFile: dir + "/models/1.yaml", atomically: true, encoding: .utf8)
        try Self.blog2.write(toFile: dir + "/models/2.yaml", atomically: true, encoding: .utf8)
        try Self.companion.replacingOccurrences(of: "\"$source\"", with: "\"$blog\"")
            .write(toFile: dir + "/migrations/v2.yaml", atomically: true, encoding: .utf8)
        let r = try CLI.run(["lint"], in: dir)
        #expect(r.status == 2)
        #expect(r.stderr.contains("migrations/v2.yaml:6:29: error: a relationship is mapped with \"$source\" only"), "\(r.stderr)")
    }

    @Test func editingTheFileAfterTheStepIsDriftUntilRepaired() throws {
        let (dir, store) = try MappingProject.make(["v2.yaml": MappingProject.mapping], badRating: false)
        #expect(try CLI.run(["migrate", "--store", "app.sqlite"], in: dir).status == 0)
        let sha = E2E.hash(dir + "/migrations/v2.yaml")!
        #expect(try E2E.rows(store, #"SELECT "details" FROM "strata_history" WHERE "kind" = 'migrate'"#).first?.hasSuffix("; mapping migrations/v2.yaml sha256 \(sha)") == true)
        #expect(try CLI.run(["status", "--store", "app.sqlite"], in: dir).status == 0)
        try (MappingProject.mapping + "\n# reviewed\n").write(toFile: dir + "/migrations/v2.yaml", atomically: true, encoding: .utf8)
        let status = try CLI.run(["status", "--store", "app.sqlite"], in: dir)
        #expect(status.status == 6)
        #expect(status.stdout.contains("drift: mapping migrations/v2.yaml: editedMapping: expected sha256 \(sha)"), "\(status.stdout)")
        let migrate = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(migrate.status == 6)
        #expect(migrate.stderr.contains("hint: restore the mapping file, or review the edit and run `strata repair` to accept it"), "\(migrate.stderr)")
        let repair = try CLI.run(["repair", "--store", "app.sqlite"], in: dir)
        #expect(repair.status == 0)
        #expect(repair.stdout.contains("re-recorded mapping file migrations/v2.yaml"))
        #expect(try CLI.run(["status", "--store", "app.sqlite"], in: dir).status == 0)
        #expect(try CLI.run(["migrate", "--store", "app.sqlite"], in: dir).status == 0)
    }

    @Test func valuesOutsideTheNewRangesRollTheStepBackUnlessOnViolationWarn() throws {
        let plusTwo = MappingProject.mapping.replacingOccurrences(of: "\"int16(rating)\"", with: "\"int16(rating) + 2\"")
        let (dir, store) = try MappingProject.make(["v2.yaml": plusTwo], badRating: false)
        let uuid = try #require(try ExampleData.query(store, #"SELECT "value" FROM "strata_metadata" WHERE "key" = 'strata.uuid'"#) as String?)
        let before = E2E.storeHashes(store)
        let r = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(r.status == 3, "\(r.stderr)")
        #expect(r.stderr.contains("migrations/v2.yaml:1:1: error: v1 → v2: the mapping broke v2's rules (1 violation(s)); the step was rolled back\n"
                                  + "  - 1610 Order.rating max: 1\n      x-strata://\(uuid)/Order/p2 = 6"), "\(r.stderr)")
        #expect(E2E.storeHashes(store) == before)
        #expect(try MappingProject.version(store) == "1")
        // onViolation: warn commits and reports.
        try (plusTwo + "\nonViolation: warn\n").write(toFile: dir + "/migrations/v2.yaml", atomically: true, encoding: .utf8)
        let warned = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(warned.status == 0, "\(warned.stderr)")
        #expect(warned.stdout.contains("  audit of the mapped entities (v2): 1 violation\n    1610 Order.rating max: 1 (x-strata://\(uuid)/Order/p2)\n"), "\(warned.stdout)")
        #expect(try E2E.rows(store, #"SELECT "_pk", "rating" FROM "Item" WHERE "_entity" = 'Order' ORDER BY "_pk""#) == ["2|6", "3|5", "5|4"])
    }

    @Test func auditNoneSkipsTheRangeAuditButNotTheNilCheck() throws {
        let plusTwo = MappingProject.mapping.replacingOccurrences(of: "\"int16(rating)\"", with: "\"int16(rating) + 2\"")
        let (dir, store) = try MappingProject.make(["v2.yaml": plusTwo], badRating: false)
        let r = try CLI.run(["migrate", "--store", "app.sqlite", "--audit", "none"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try MappingProject.version(store) == "2")
    }

    @Test func aSigkillInsideTheMappingStepLeavesTheOldVersionAndTheRerunCompletes() throws {
        let (dir, store) = try MappingProject.make(["v2.yaml": MappingProject.mapping], badRating: false)
        let rows = 150_000
        let queue = try DatabaseQueue(path: store)
        try queue.write { db in
            try db.execute(sql: """
                WITH RECURSIVE n(i) AS (SELECT 10 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
                INSERT INTO "Item" ("_pk", "_entity", "name", "rating", "total", "deleted", "author")
                SELECT i, 'Order', 'o' || i, CAST(i % 6 AS TEXT), i, i % 2, 1 + i % 3 FROM n
                """, arguments: [rows + 9])
        }
        try queue.close()
        // Kill once the step's transaction has written a good part of its journal.
        MappingProject.kill(try E2E.Child(["migrate", "--store", "app.sqlite", "--no-progress"], in: dir), whenJournalOf: store)
        #expect(try E2E.rows(store, "PRAGMA integrity_check") == ["ok"])
        let status = try CLI.run(["status", "--store", "app.sqlite"], in: dir)
        #expect(status.status == 0, "\(status.stderr)")
        // The kill landed inside the step: nothing of it is left.
        #expect(try MappingProject.version(store) == "1")
        #expect(try E2E.rows(store, #"SELECT count(*) FROM "Item""#) == ["\(rows + 5)"])
        #expect(try E2E.rows(store, #"SELECT count(*) FROM "Author""#) == ["3"])
        let rerun = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(try MappingProject.version(store) == "2")
        // Every order not deleted is carried once, with its ID: o2, o3, o5 and the odd-numbered half of the rest.
        let kept = (10..<(rows + 10)).filter { $0 % 2 == 0 }.count
        #expect(try E2E.rows(store, #"SELECT count(*) FROM "Item" WHERE "_entity" = 'Order'"#) == ["\(kept + 3)"])
        #expect(try E2E.rows(store, #"SELECT count(*) FROM "Item" WHERE "_entity" = 'Order' AND "_pk" >= 10 AND "_pk" % 2 = 1"#) == ["0"])
        #expect(try E2E.rows(store, #"SELECT count(*) FROM "strata_history" WHERE "kind" = 'migrate'"#) == ["1"])
        #expect(try E2E.rows(store, "PRAGMA foreign_key_check").isEmpty)
    }

    @Test func aFilteredCompanionLinksOnlyTheObjectsItCarried() throws {
        let dir = Temporary.directory("companion")
        try FileManager.default.createDirectory(atPath: dir + "/models", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/migrations", withIntermediateDirectories: true)
        try Self.blog1.write(toFile: dir + "/models/1.yaml", atomically: true, encoding: .utf8)
        try Self.blog2.write(toFile: dir + "/models/2.yaml", atomically: true, encoding: .utf8)
        #expect(try CLI.run(["migrate", "--create", "--to", "1", "--store", "app.sqlite"], in: dir).status == 0)
        let store = dir + "/app.sqlite"
        let queue = try DatabaseQueue(path: store)
        try queue.write { try $0.execute(sql: #"INSERT INTO "Blog" ("_pk", "title", "theme", "group") VALUES (1, 'a', 'dark', 5), (2, 'b', NULL, 6), (4, 'c', 'x', 7)"#) }
        try queue.close()
        try Self.companion.replacingOccurrences(of: "    source: Blog\n", with: "    source: Blog\n    filter: \"theme != nil\"\n")
            .write(toFile: dir + "/migrations/v2.yaml", atomically: true, encoding: .utf8)
        let r = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("  mapped BlogSettings from Blog: 2 carried, 1 dropped by filter\n"), "\(r.stdout)")
        #expect(try E2E.rows(store, #"SELECT "_pk", "title", "settings" FROM "Blog" ORDER BY "_pk""#) == ["1|a|1", "2|b|NULL", "4|c|4"])
        #expect(try E2E.rows(store, #"SELECT "_pk", "theme", "group" FROM "BlogSettings" ORDER BY "_pk""#) == ["1|dark|5", "4|x|7"])
        #expect(try E2E.rows(store, "PRAGMA foreign_key_check").isEmpty)
    }
}
