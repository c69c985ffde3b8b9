import Foundation
import GRDB
import StrataTestSupport
import Testing

/// int64's range is audited like int16's and int32's (SPEC §2: "range-checked on write and audit"): on SQLite
/// a statement can leave a REAL past it in an int64 column (`9223372036854775807 + 1` is 9.2233720368547758e18),
/// which the audit passed, so a `sql:` hook overflowing a value committed with "0 violations".
@Suite struct Int64RangeAuditCLITests {
    static let v1 = "version: 1\nentities:\n  Item:\n    attributes: { big: { type: int64 } }\n"
    static let v2 = "version: 2\nentities:\n  Item:\n    attributes: { big: { type: int64 }, note: { type: string } }\n"
    static let hook = "id: h\nafter: 2\nsteps:\n  - sql: UPDATE {{Item}} SET {{Item.big}} = {{Item.big}} + 1\n"

    static func project(_ big: Int64) throws -> (dir: String, store: String) {
        let (dir, store) = try MappingProject.project(v1: v1, v2: v2, files: ["h.yaml": hook], name: "int64-range")
        let queue = try DatabaseQueue(path: store)
        try queue.write { try $0.execute(sql: #"INSERT INTO "Item" ("_pk", "big") VALUES (1, ?), (2, 7)"#, arguments: [big]) }
        try queue.close()
        return (dir, store)
    }

    @Test func aSQLHookThatOverflowsAnInt64IsAViolationAndRollsBack() throws {
        let (dir, store) = try Self.project(Int64.max)
        let before = E2E.storeHashes(store)
        let r = try CLI.run(["migrate", "--store", "app.sqlite", "--now", "2024-01-01T00:00:00Z"], in: dir)
        #expect(r.status == 3, "\(r.stderr)")
        #expect(r.stdout.contains("1610"), "\(r.stdout)")
        #expect(r.stdout.contains("int64 max 9223372036854775807"), "\(r.stdout)")
        #expect(E2E.storeHashes(store) == before)
        #expect(try ExampleData.query(store, #"SELECT "big" || ' ' || typeof("big") FROM "Item" WHERE "_pk" = 1"#)
                == "9223372036854775807 integer")
    }

    @Test func theHookRunsWhenEveryValueStaysInRange() throws {
        let (dir, store) = try Self.project(Int64.max - 1)
        let r = try CLI.run(["migrate", "--store", "app.sqlite", "--now", "2024-01-01T00:00:00Z"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try E2E.rows(store, #"SELECT "big" || ' ' || typeof("big") FROM "Item" ORDER BY "_pk""#)
                == ["9223372036854775807 integer", "8 integer"])
    }

    @Test func theAuditFindsARealPastEitherEnd() throws {
        let (dir, store) = try Self.project(1)
        try E2E.execute(store, #"UPDATE "Item" SET "big" = CASE "_pk" WHEN 1 THEN 9223372036854775807 + 1 ELSE -9223372036854775808 - 4096 END"#)
        let r = try CLI.run(["audit", "--store", "app.sqlite", "--format", "json"], in: dir)
        #expect(r.status == 3, "\(r.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        let rules = (json?["audit"] as? [String: Any])?["rules"] as? [[String: Any]] ?? []
        let failing = rules.filter { ($0["count"] as? Int ?? 0) > 0 }.map { "\($0["code"]!) \($0["constraint"]!) \($0["count"]!)" }
        #expect(failing == ["1610 int64 max 9223372036854775807 1", "1620 int64 min -9223372036854775808 1"], "\(r.stdout)")
    }
}
