import Foundation
import StrataCore
import Strata
@testable import StrataPostgres
import StrataTestSupport
import Testing

/// The validation audit on PostgreSQL against the throwaway server: the same rows in a SQLite store and a
/// PostgreSQL store give the same findings (rules, counts, object IDs, values), lengths counted in
/// Characters on both. Skipped (and said so on stderr) without PostgreSQL.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresAuditTests {
    typealias F = PostgresAuditFixture
    static let uuid = "00000000-0000-4000-8000-000000000001"
    static let now = 1_716_249_600.0

    /// Both stores filled with the fixture, and the results of auditing them with `maxSamples`, durations zeroed.
    static func audits(maxSamples: Int, scope: AuditScope = .full) async throws -> (sqlite: AuditResult, postgres: AuditResult) {
        let (_, history) = try F.models()
        let path = Temporary.directory("pgaudit") + "/store.sqlite"
        let sqliteStore = try StoreCreator.create(at: path, model: history.models[0])
        try F.sqlite3(path, F.inserts(.sqlite))
        var sqliteAuditor = try Auditor(store: sqliteStore, history: history)
        sqliteAuditor.storeUUID = uuid
        sqliteAuditor.now = now
        let sqliteResult = try sqliteAuditor.run(on: sqliteStore, scope: scope, maxSamples: maxSamples)

        let (url, schema) = try await PostgresMigrationTests.create(history, at: 1)
        _ = try PostgresStoreTests.psql(F.inserts(.postgresql, schema: schema))
        let store = try await PostgresStore.open(url)
        let postgresResult: AuditResult
        do {
            var auditor = try await Auditor(store: store, history: history)
            auditor.storeUUID = uuid
            auditor.now = now
            postgresResult = try await auditor.run(on: store, scope: scope, maxSamples: maxSamples)
            await store.close()
        } catch {
            await store.close()
            throw error
        }
        return (zeroed(sqliteResult), zeroed(postgresResult))
    }

    static func zeroed(_ result: AuditResult) -> AuditResult {
        var result = result
        for i in result.rules.indices { result.rules[i].duration = 0 }
        return result
    }

    static func id(_ entity: String, _ pk: Int) -> String { "x-strata://\(uuid)/\(entity)/p\(pk)" }

    static func summary(_ result: AuditResult) -> [String] {
        result.violated.map { rule in
            "\(rule.subject) \(rule.rule) \(rule.code.rawValue) \(rule.count): "
                + rule.samples.map { sample in
                    sample.objectID.replacingOccurrences(of: "x-strata://\(uuid)/", with: "") + "=" + (sample.value ?? "nil")
                        + (sample.related.isEmpty ? "" : "+" + sample.related.map { $0.replacingOccurrences(of: "x-strata://\(uuid)/", with: "") }.joined(separator: "+"))
                }.joined(separator: " ")
        }
    }

    @Test func findingsAreIdenticalToSQLitesWithCharacterLengths() async throws {
        let (sqlite, postgres) = try await Self.audits(maxSamples: 20)
        #expect(postgres == sqlite)
        #expect(Self.summary(postgres) == [
            "Item.code maxLength 1660 5: Item/p3=abcd Item/p7=ab\r\nc Item/p8=éééé Item/p11=a\u{301}b\u{301}c\u{301}d Item/p12=éééé",
            "Item.code minLength 1670 3: Item/p2=a Item/p4=e\u{301} Item/p6=\r\n",
            "Item.label pattern 1680 2: Item/p2=apple Item/p3=Bé",
            "Item.size max 1610 1: Item/p2=11",
            "Item.size min 1620 1: Item/p9=0",
            "Item.price min 1620 1: Item/p2=0.25",
            "Item.done optional 1570 1: Item/p2=nil",
            "Item.seen optional 1570 1: Item/p2=nil",
            "Item.parts maxCount 1590 1: Item/p1=3",
            "Item.code uniqueness 1551 2: Item/p1=ab+Item/p9 Item/p8=éééé+Item/p12",
            "Item predicate 1550 1: Item/p3=nil",
            "Part.name optional 1570 1: Part/p4=nil",
        ])
    }

    @Test func cappedSamplesMergeSQLAndSwiftInKeyOrderWithExactCounts() async throws {
        let (sqlite, postgres) = try await Self.audits(maxSamples: 2)
        #expect(postgres == sqlite)
        let maxLength = try #require(postgres.rules.first { $0.subject == "Item.code" && $0.rule == "maxLength" })
        #expect(maxLength.count == 5)
        #expect(maxLength.samples.map(\.objectID) == [Self.id("Item", 3), Self.id("Item", 7)])
        let minLength = try #require(postgres.rules.first { $0.subject == "Item.code" && $0.rule == "minLength" })
        #expect(minLength.count == 3)
        #expect(minLength.samples.map(\.objectID) == [Self.id("Item", 2), Self.id("Item", 4)])
    }

    @Test func entityScopeAndNoSamplesMatchSQLite() async throws {
        let (sqlite, postgres) = try await Self.audits(maxSamples: 0, scope: .entities(["Part"]))
        #expect(postgres == sqlite)
        #expect(postgres.rules.map { "\($0.subject) \($0.rule) \($0.count)" } == ["Part.name optional 1"])
    }

    static let hierarchyYAML = """
        version: 1
        entities:
          Thing:
            abstract: true
            attributes:
              at:  { type: date, min: "2020-01-01", max: "2030-01-01" }
              tag: { type: uuid, optional: false }
              ok:  { type: bool }
            uniqueness: [[ok, at]]
          Gadget:
            parent: Thing
            attributes:
              weight: { type: double, max: 2.5 }
              note:   { type: string, maxLength: 2 }
        """

    /// Rows of a sub-entity in its root's table, with dates (one with a fraction), uuids, bools and doubles:
    /// values display the same, object IDs name the sub-entity, duplicate keys mix a bool and a date.
    static func hierarchyRows(_ engine: F.Engine, schema: String? = nil) -> String {
        let table = schema.map { "\"\($0)\".\"Thing\"" } ?? "\"Thing\""
        let index = schema.map { "\"\($0)\".\"strata_uniq_Thing_ok_at\"" } ?? "\"strata_uniq_Thing_ok_at\""
        let rows: [(at: Double, tag: String?, ok: Bool, weight: Double, note: String)] = [
            (1_559_347_200, "6f1c0000-0000-4000-8000-000000000001", true, 3, "e\u{301}\u{301}x"),
            (1_924_992_000, nil, true, 1, "abc"),
            (1_559_347_200, "6f1c0000-0000-4000-8000-000000000003", true, 2.5, "👨‍👩‍👧"),
            (1_559_347_200.25, "6f1c0000-0000-4000-8000-000000000004", false, 0, "\r\n\r\n"),
            (1_700_000_000, "6f1c0000-0000-4000-8000-000000000005", false, 0, "ab\r\n"),
        ]
        var sql = "DROP INDEX \(index);\n"
        for row in rows {
            let at = engine == .sqlite ? String(row.at) : "to_timestamp(\(row.at))"
            let ok = engine == .sqlite ? (row.ok ? "1" : "0") : (row.ok ? "true" : "false")
            sql += "INSERT INTO \(table) (\"_entity\", \"at\", \"tag\", \"ok\", \"weight\", \"note\") VALUES ('Gadget', \(at), "
                + "\(F.literal(row.tag, engine)), \(ok), \(row.weight), \(F.literal(row.note, engine)));\n"
        }
        return sql
    }

    @Test func hierarchyDatesUUIDsAndBoolsMatchSQLite() async throws {
        let directory = Temporary.directory("pgaudit-hierarchy")
        try Self.hierarchyYAML.write(toFile: directory + "/1.yaml", atomically: true, encoding: .utf8)
        let history = try ModelHistory.load(directory: directory)
        let path = directory + "/store.sqlite"
        let sqliteStore = try StoreCreator.create(at: path, model: history.models[0])
        try F.sqlite3(path, Self.hierarchyRows(.sqlite))
        var sqliteAuditor = try Auditor(store: sqliteStore, history: history)
        sqliteAuditor.storeUUID = Self.uuid
        let sqlite = Self.zeroed(try sqliteAuditor.run(on: sqliteStore, scope: .entities(["Gadget"])))

        let (url, schema) = try await PostgresMigrationTests.create(history, at: 1)
        _ = try PostgresStoreTests.psql(Self.hierarchyRows(.postgresql, schema: schema))
        let store = try await PostgresStore.open(url)
        let postgres: AuditResult
        do {
            var auditor = try await Auditor(store: store, history: history)
            auditor.storeUUID = Self.uuid
            postgres = Self.zeroed(try await auditor.run(on: store, scope: .entities(["Gadget"])))
            await store.close()
        } catch {
            await store.close()
            throw error
        }
        #expect(postgres == sqlite)
        #expect(Self.summary(postgres) == [
            "Gadget.at max 1630 1: Gadget/p2=2031-01-01T00:00:00Z",
            "Gadget.at min 1640 3: Gadget/p1=2019-06-01T00:00:00Z Gadget/p3=2019-06-01T00:00:00Z Gadget/p4=2019-06-01T00:00:00.250Z",
            "Gadget.tag optional 1570 1: Gadget/p2=nil",
            "Gadget.ok, at uniqueness 1551 1: Gadget/p1=true, 2019-06-01T00:00:00Z+Gadget/p3",
            "Gadget.weight max 1610 1: Gadget/p1=3.0",
            "Gadget.note maxLength 1660 2: Gadget/p2=abc Gadget/p5=ab\r\n",
        ])
    }
}
