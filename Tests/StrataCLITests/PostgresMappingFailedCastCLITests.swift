import Foundation
import StrataTestSupport
import Testing

/// A mapping file's failed casts in the step report, on SQLite and PostgreSQL: the count and the first samples,
/// each an object ID with its source values, in text and JSON (Docs/mapping.md). PostgreSQL counted them
/// without samples (`1 failed cast (nil)`, `"samples": []`).
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresMappingFailedCastCLITests {
    static let v2 = """
        entities:
          Item:
            attributes:
              code: { type: string }
        """
    static let v3 = v2.replacingOccurrences(of: "code: { type: string }", with: "code: { type: int64 }")
    static let files = [
        "seed.yaml": """
            id: seed
            after: 2
            steps:
              - batchInsert:
                  entity: Item
                  objects: [ { code: "42" }, { code: x }, { code: ~ }, { code: "1.5e3x" } ]
            """,
        "v3-mapping.yaml": """
            mapping: { from: 2, to: 3 }
            entities:
              Item:
                attributes:
                  code: "int64(code)"
            """,
    ]

    @Test func failedCastsListTheirSamplesAsOnSQLite() throws {
        let run = try EngineParity.run(v2: Self.v2, v3: Self.v3, files: Self.files, arguments: ["--dry-run"])
        #expect(run.sqlite.status == 0 && run.postgres.status == 0, "\(run.sqlite.stderr)\n\(run.postgres.stderr)")
        let line = #"    Item.code = int64(code): 2 failed casts (nil): x-strata://UUID/Item/p2 (code = "x"), x-strata://UUID/Item/p4 (code = "1.5e3x")"#
        for stdout in [run.sqlite.stdout, run.postgres.stdout] {
            #expect(Self.plain(stdout).contains(line), "\(stdout)")
        }
        #expect(run.samePostgresOutput == run.sameSQLiteOutput)
    }

    @Test func theJSONReportHasTheSamplesAsOnSQLite() throws {
        let run = try EngineParity.run(v2: Self.v2, v3: Self.v3, files: Self.files, arguments: ["--dry-run", "--format", "json"])
        #expect(run.sqlite.status == 0 && run.postgres.status == 0, "\(run.sqlite.stderr)\n\(run.postgres.stderr)")
        let sqlite = try Self.failedCasts(Self.plain(run.sqlite.stdout)), postgres = try Self.failedCasts(Self.plain(run.postgres.stdout))
        #expect(sqlite.count == 1 && sqlite == postgres, "\(sqlite)\n\(postgres)")
        let samples = sqlite.first?["samples"] as? [[String: Any]] ?? []
        #expect(samples.map { $0["objectID"] as? String } == ["x-strata://UUID/Item/p2", "x-strata://UUID/Item/p4"])
        #expect(samples.map { $0["values"] as? [String: String] } == [["code": #""x""#], ["code": #""1.5e3x""#]])
    }

    static func plain(_ text: String) -> String {
        text.replacingOccurrences(of: #"x-strata://[0-9a-f-]{36}/"#, with: "x-strata://UUID/", options: .regularExpression)
    }

    /// Every `failedCasts` entry of the JSON report, as JSON objects compared by their serialization.
    static func failedCasts(_ json: String) throws -> [NSDictionary] {
        var found: [NSDictionary] = []
        func walk(_ value: Any) {
            if let object = value as? [String: Any] {
                for (key, inner) in object {
                    if key == "failedCasts", let list = inner as? [[String: Any]] { found += list.map { $0 as NSDictionary } } else { walk(inner) }
                }
            } else if let list = value as? [Any] {
                list.forEach(walk)
            }
        }
        walk(try JSONSerialization.jsonObject(with: Data(json.utf8)))
        return found
    }
}
