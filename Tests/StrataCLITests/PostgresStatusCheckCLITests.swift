import Foundation
import StrataTestSupport
import Testing

/// `status --check` on a PostgreSQL store reports the first that applies as on SQLite (SPEC §8): 6, then 4, then
/// 7. Before, a pending step that cannot be inferred was 7 on PostgreSQL (4 on SQLite and in `migrate`), with
/// no message, for one store and in a fleet's row.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresStatusCheckCLITests {
    static let refusal = "models/2.yaml:5:7: error: v1 → v2: Item.code: type changes from string to int16, which Strata cannot infer"

    @Test func aPendingStepThatCannotBeInferredIsExit4AsOnSQLite() throws {
        let directory = Temporary.directory("pgstatuscheck")
        try FileManager.default.createDirectory(atPath: directory + "/models", withIntermediateDirectories: true)
        let v1 = "version: 1\nentities:\n  Item:\n    attributes:\n      code: { type: string }\n"
        try v1.write(toFile: directory + "/models/1.yaml", atomically: true, encoding: .utf8)
        let url = PostgresTestServer.url()
        let path = directory + "/app.sqlite"
        for store in [path, url] { #expect(try CLI.run(["migrate", "--create", "--store", store], in: directory).status == 0) }
        try v1.replacingOccurrences(of: "version: 1", with: "version: 2").replacingOccurrences(of: "string", with: "int16")
            .write(toFile: directory + "/models/2.yaml", atomically: true, encoding: .utf8)

        for store in [path, url] {
            let check = try CLI.run(["status", "--check", "--store", store], in: directory)
            #expect(check.status == 4, "\(store): \(check.stderr)")
            #expect(check.stderr.hasPrefix(Self.refusal + "\n"), "\(check.stderr)")
            // Without --check, pending work is 0.
            #expect(try CLI.run(["status", "--store", store], in: directory).status == 0)
            #expect(try CLI.run(["migrate", "--store", store], in: directory).status == 4)
        }
        let list = directory + "/stores.txt"
        try (path + "\n" + url + "\n").write(toFile: list, atomically: true, encoding: .utf8)
        let fleet = try CLI.run(["status", "--check", "--stores-from", list, "--continue-on-error", "--format", "json"], in: directory)
        #expect(fleet.status == 4, "\(fleet.stderr)")
        let document = try JSONSerialization.jsonObject(with: Data(fleet.stdout.utf8)) as? [String: Any]
        let rows = ((document?["fleet"] as? [String: Any])?["stores"] as? [[String: Any]]) ?? []
        #expect(rows.map { $0["exitCode"] as? Int } == [4, 4])
        #expect(rows.map { $0["outcome"] as? String } == ["pending", "pending"])
        #expect(rows.map { $0["message"] as? String } == Array(repeating: "v1 → v2: Item.code: type changes from string to int16, which Strata cannot infer", count: 2))
    }

    /// `status --format json` has SQLite's keys on PostgreSQL too (`path`, `userMetadata` were missing), plus
    /// `store` and `hashMatches`, which only PostgreSQL's document has.
    @Test func theStatusDocumentHasSQLitesKeys() throws {
        let directory = Temporary.directory("pgstatusjson")
        try FileManager.default.createDirectory(atPath: directory + "/models", withIntermediateDirectories: true)
        try "version: 1\nentities:\n  Item:\n    attributes:\n      code: { type: string }\n"
            .write(toFile: directory + "/models/1.yaml", atomically: true, encoding: .utf8)
        let url = PostgresTestServer.url()
        var documents: [[String: Any]] = []
        for store in [directory + "/app.sqlite", url] {
            #expect(try CLI.run(["migrate", "--create", "--store", store], in: directory).status == 0)
            #expect(try CLI.run(["meta", "set", "owner", "ops team", "--store", store], in: directory).status == 0)
            let status = try CLI.run(["status", "--store", store, "--format", "json"], in: directory)
            #expect(status.status == 0, "\(status.stderr)")
            documents.append(try CLI.json(status.stdout))
        }
        let (sqlite, postgres) = (documents[0], documents[1])
        #expect(Set(postgres.keys).subtracting(sqlite.keys) == ["store", "hashMatches"])
        #expect(Set(sqlite.keys).subtracting(postgres.keys) == [])
        #expect(postgres["path"] as? String == url)
        #expect(postgres["store"] as? String == url)
        #expect(postgres["userMetadata"] as? [String: String] == ["owner": "ops team"])
        #expect(sqlite["userMetadata"] as? [String: String] == ["owner": "ops team"])
        #expect(postgres["hashMatches"] as? Bool == true)
    }
}
