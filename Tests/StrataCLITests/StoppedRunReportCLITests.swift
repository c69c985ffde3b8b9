import Foundation
import GRDB
import Testing

/// A `strata migrate` stopped by a version step's data condition (exit 3): its JSON document is the run's
/// report with `passed` false and the `error` the error document would carry; its JUnit report fails the
/// rolled-back step with the diagnostics as the failure's body. The real binary.
@Suite struct StoppedRunReportCLITests {
    /// A store at v1 with two `B` objects sharing `title` "x"; v2 makes `title` unique.
    static func project() throws -> String {
        let dir = try CLI.project("stopped", models: [
            "1.yaml": "version: 1\nentities:\n  B:\n    attributes:\n      title: { type: string }\n",
            "2.yaml": "version: 2\nentities:\n  B:\n    attributes:\n      title: { type: string }\n    uniqueness: [[title]]\n",
        ])
        #expect(try CLI.run(["migrate", "--create", "--to", "1", "--store", "s.sqlite"], in: dir).status == 0)
        let queue = try DatabaseQueue(path: dir + "/s.sqlite")
        try queue.write { try $0.execute(sql: #"INSERT INTO "B" ("title") VALUES ('x'), ('y'), ('x')"#) }
        try queue.close()
        return dir
    }

    static func uuid(_ dir: String) throws -> String {
        try E2E.rows(dir + "/s.sqlite", #"SELECT "value" FROM "strata_metadata" WHERE "key" = 'strata.uuid'"#)[0]
    }

    @Test func theJSONDocumentHasTheErrorAndDoesNotPass() throws {
        let dir = try Self.project()
        let uuid = try Self.uuid(dir)
        let r = try CLI.run(["migrate", "--store", "s.sqlite", "--format", "json"], in: dir)
        #expect(r.status == 3)
        let doc = try CLI.json(r.stdout)
        #expect(doc["passed"] as? Bool == false)
        let error = doc["error"] as? [String: Any]
        #expect(error?["exitCode"] as? Int == 3)
        let diagnostics = error?["diagnostics"] as? [[String: String]]
        #expect(diagnostics == [[
            "severity": "error",
            "message": "v1 → v2: no duplicates of B.title (new uniqueness constraint): 2 objects (code 1551)\n"
                + "  \"x\": x-strata://\(uuid)/B/p1 x-strata://\(uuid)/B/p3",
            "hint": "remove the duplicates in a hook of an earlier version, then add the uniqueness constraint; the store was not changed",
        ]])
        let steps = (doc["migration"] as? [String: Any])?["steps"] as? [[String: Any]]
        #expect(steps?.map { $0["committed"] as? Bool } == [false])
        // The same diagnostic on stderr, once.
        #expect(r.stderr.components(separatedBy: "(code 1551)").count == 2)
        #expect(try E2E.rows(dir + "/s.sqlite", #"SELECT "value" FROM "strata_metadata" WHERE "key" = 'strata.version'"#) == ["1"])
    }

    @Test func theJUnitReportFailsTheStepWithTheDiagnostics() throws {
        let dir = try Self.project()
        let uuid = try Self.uuid(dir)
        let r = try CLI.run(["migrate", "--store", "s.sqlite", "--report", "r.xml", "--report-format", "junit"], in: dir)
        #expect(r.status == 3)
        let xml = try String(contentsOfFile: dir + "/r.xml", encoding: .utf8)
        #expect(xml.contains("""
                  <failure message="v1 → v2 was rolled back" type="migration">error: v1 → v2: no duplicates of B.title \
            (new uniqueness constraint): 2 objects (code 1551)
              &quot;x&quot;: x-strata://\(uuid)/B/p1 x-strata://\(uuid)/B/p3
            hint: remove the duplicates in a hook of an earlier version, then add the uniqueness constraint; the store was not changed</failure>
            """))
    }

    /// A run that succeeds has no `error` and passes.
    @Test func aRunThatSucceedsHasNoError() throws {
        let dir = try Self.project()
        let queue = try DatabaseQueue(path: dir + "/s.sqlite")
        try queue.write { try $0.execute(sql: #"UPDATE "B" SET "title" = 'z' WHERE "_pk" = 3"#) }
        try queue.close()
        let r = try CLI.run(["migrate", "--store", "s.sqlite", "--format", "json"], in: dir)
        #expect(r.status == 0)
        let doc = try CLI.json(r.stdout)
        #expect(doc["passed"] as? Bool == true)
        #expect(doc["error"] == nil)
    }
}
