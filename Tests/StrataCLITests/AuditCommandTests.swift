import Foundation
import GRDB
import Strata
import Testing

/// End-to-end: `strata audit` on the example project's models.
@Suite struct AuditCommandTests {
    /// An example project with a v4 store; `sql` runs on it (with the email UNIQUE index dropped).
    static func project(_ sql: String = "") throws -> (dir: String, uuid: String) {
        let dir = try CLI.exampleProject()
        let created = try CLI.run(["migrate", "--create", "--store", "app.sqlite"], in: dir)
        #expect(created.status == 0)
        let store = try Store.open(path: dir + "/app.sqlite")
        try store.write { db in
            try db.execute(sql: #"DROP INDEX "strata_uniq_Chef_email""#)
            if !sql.isEmpty { try db.execute(sql: sql) }
        }
        return (dir, try store.metadata().storeUUID)
    }

    static let violations = """
        INSERT INTO "Chef" ("name", "email") VALUES ('Ann', 'ann@x.org'), ('Bob', 'bob at x'), ('Cy', 'ann@x.org');
        INSERT INTO "Recipe" ("name", "rating", "favorite", "portions", "author") VALUES
            ('Soup', 7, 0, 0, 1), ('', 3, 1, 5, 2), ('Stew', 9, 0, 101, NULL);
        """

    @Test func cleanStoreExits0() throws {
        let (dir, uuid) = try Self.project()
        let r = try CLI.run(["audit", "--store", "app.sqlite"], in: dir)
        #expect(r.status == 0)
        #expect(r.stderr == "")
        #expect(r.stdout == "Audit: 15 rules checked, 0 violated, 0 violations (scope full, store \(uuid), model version 4)\nNo violations.\n")
    }

    @Test func violationsExit3WithTheTextReport() throws {
        let (dir, uuid) = try Self.project(Self.violations)
        let r = try CLI.run(["audit", "--store", "app.sqlite", "--max-samples", "1"], in: dir)
        #expect(r.status == 3)
        let id = { (entity: String, pk: Int) in "x-strata://\(uuid)/\(entity)/p\(pk)" }
        #expect(r.stdout == """
            Audit: 15 rules checked, 6 violated, 7 violations (scope full, store \(uuid), model version 4)

            Chef
              email matches "[^@ ]+@[^@ ]+": 1 violation [1680 string does not match pattern]
                \(id("Chef", 2)) = "bob at x"
              unique (email): 1 duplicate group [1551 duplicate values]
                \(id("Chef", 1)) = "ann@x.org"

            Recipe
              name minLength 1: 1 violation [1670 string too short]
                \(id("Recipe", 2)) = ""
              portions max 100: 1 violation [1610 number too large]
                \(id("Recipe", 3)) = "101"
              portions min 1: 1 violation [1620 number too small]
                \(id("Recipe", 1)) = "0"
              rating max 5: 2 violations [1610 number too large]
                \(id("Recipe", 1)) = "7"
                … and 1 more

            """)
    }

    @Test func failOnSelectsFailingCodes() throws {
        let (dir, _) = try Self.project(#"INSERT INTO "Chef" ("name", "email") VALUES ('Bob', 'bob at x')"#)
        #expect(try CLI.run(["audit", "--store", "app.sqlite", "--fail-on", "1551,1570"], in: dir).status == 0)
        #expect(try CLI.run(["audit", "--store", "app.sqlite", "--fail-on", "1680"], in: dir).status == 3)
        #expect(try CLI.run(["audit", "--store", "app.sqlite", "--fail-on", "all"], in: dir).status == 3)
        let bad = try CLI.run(["audit", "--store", "app.sqlite", "--fail-on", "1234"], in: dir)
        #expect(bad.status == 2)
        #expect(bad.stderr.hasPrefix("error: --fail-on: '1234' is not an audit code (codes: 1550, 1551, "))
    }

    @Test func reportFileTakesItsFormatFromTheExtension() throws {
        let (dir, uuid) = try Self.project(Self.violations)
        let r = try CLI.run(["audit", "--store", "app.sqlite", "--report", "audit.xml"], in: dir)
        #expect(r.status == 3)
        #expect(r.stdout.hasPrefix("Audit: 15 rules checked, 6 violated, 7 violations (scope full, store \(uuid), model version 4)\n"))
        #expect(r.stderr == "report written to audit.xml (junit)\n")
        let xml = try String(contentsOfFile: dir + "/audit.xml", encoding: .utf8)
        #expect(xml.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"Strata audit\" tests=\"15\" failures=\"6\""))
        let html = try CLI.run(["audit", "--store", "app.sqlite", "--report", "out.txt", "--report-format", "html", "--quiet"], in: dir)
        #expect(html.status == 3)
        #expect(html.stdout == "")
        #expect(try String(contentsOfFile: dir + "/out.txt", encoding: .utf8).contains("<svg "))
    }

    @Test func reportFormatOnStdout() throws {
        let (dir, _) = try Self.project(Self.violations)
        let md = try CLI.run(["audit", "--store", "app.sqlite", "--report-format", "markdown", "--entity", "Recipe"], in: dir)
        #expect(md.status == 3)
        let rows = md.stdout.split(separator: "\n").filter { $0.hasPrefix("| Recipe |") }
        #expect(rows.count == 4)
    }

    @Test func jsonFormatPrintsOneDocument() throws {
        let (dir, uuid) = try Self.project(Self.violations)
        let r = try CLI.run(["audit", "--store", "app.sqlite", "--format", "json", "--entity", "Chef"], in: dir)
        #expect(r.status == 3)
        let doc = try CLI.json(r.stdout)
        #expect(doc["schemaVersion"] as? Int == 1)
        #expect(doc["passed"] as? Bool == false)
        let audit = try #require(doc["audit"] as? [String: Any])
        #expect(audit["storeUUID"] as? String == uuid)
        #expect(audit["scope"] as? String == "entities")
        #expect(audit["entities"] as? [String] == ["Chef"])
        #expect(audit["rulesChecked"] as? Int == 3)
        #expect(audit["totalViolations"] as? Int == 2)
    }

    @Test func unknownEntityIsExit2WithAHint() throws {
        let (dir, _) = try Self.project()
        let r = try CLI.run(["audit", "--store", "app.sqlite", "--entity", "Chf"], in: dir)
        #expect(r.status == 2)
        #expect(r.stdout == "")
        #expect(r.stderr == "error: unknown entity 'Chf'\nhint: did you mean 'Chef'?\n")
    }

    @Test func withoutModelsDirectoryTheRecordedModelIsUsed() throws {
        let (dir, _) = try Self.project(Self.violations)
        let r = try CLI.run(["audit", "--store", "app.sqlite", "--models", "nowhere"], in: dir)
        #expect(r.status == 3)
        #expect(r.stdout.hasPrefix("Audit: 15 rules checked, 6 violated, 7 violations"))
    }
}
