import Foundation
import GRDB
import StrataTestSupport
import Testing

/// `strata audit --store postgres://…` on the real binary: the same rows in a SQLite store and a PostgreSQL
/// store give byte-identical reports in every format, and the same exit code.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresAuditCLITests {
    /// Duplicate emails need the uniqueness index gone (as in a store filled before the constraint existed).
    static let rows = """
        DROP INDEX %index;
        INSERT INTO %Recipe ("name", "rating", "favorite") VALUES ('', 9, %false), ('Soup', 3, %false), ('Stew', 4, %true);
        INSERT INTO %Chef ("name", "email") VALUES ('Ann', 'ann@x.io'), ('Bob', 'ann@x.io'), ('Cy', 'bad'), ('Dé', 'dé@x.io');
        """

    @Test func auditJSONAndEveryFormatMatchSQLite() throws {
        let project = try CLI.exampleProject()
        try FileManager.default.removeItem(atPath: project + "/migrations")
        let url = PostgresTestServer.url()
        let schema = String(url.split(separator: "=").last!)
        let sqlitePath = project + "/audit.sqlite"
        for store in [url, sqlitePath] {
            let created = try CLI.run(["migrate", "--create", "--store", store], in: project)
            #expect(created.status == 0, "\(created.stderr)")
        }
        _ = try PostgresTestServer.psql(Self.rows.replacingOccurrences(of: "%false", with: "false").replacingOccurrences(of: "%true", with: "true")
            .replacingOccurrences(of: "%Recipe", with: "\"\(schema)\".\"Recipe\"").replacingOccurrences(of: "%Chef", with: "\"\(schema)\".\"Chef\"")
            .replacingOccurrences(of: "%index", with: "\"\(schema)\".\"strata_uniq_Chef_email\""))
        let queue = try DatabaseQueue(path: sqlitePath)
        let sqliteUUID = try queue.write { db in
            try db.execute(sql: Self.rows.replacingOccurrences(of: "%false", with: "0").replacingOccurrences(of: "%true", with: "1")
                .replacingOccurrences(of: "%Recipe", with: "\"Recipe\"").replacingOccurrences(of: "%Chef", with: "\"Chef\"")
                .replacingOccurrences(of: "%index", with: "\"strata_uniq_Chef_email\""))
            return try String.fetchOne(db, sql: "SELECT value FROM strata_metadata WHERE key = 'strata.uuid'")!
        }
        let uuid = try PostgresTestServer.psql("SELECT value FROM \"\(schema)\".strata_metadata WHERE key = 'strata.uuid'")

        let json = try CLI.run(["audit", "--store", url, "--format", "json"], in: project)
        #expect(json.status == 3, "\(json.stderr)")
        #expect(json.stdout.replacingOccurrences(of: uuid, with: "UUID") == Self.expectedJSON + "\n")
        let sqliteJSON = try CLI.run(["audit", "--store", sqlitePath, "--format", "json"], in: project)
        #expect(sqliteJSON.status == 3)
        #expect(json.stdout == sqliteJSON.stdout.replacingOccurrences(of: sqliteUUID, with: uuid))

        for format in ["text", "json", "junit", "markdown", "html"] {
            let postgres = try CLI.run(["audit", "--store", url, "--report-format", format], in: project)
            let sqlite = try CLI.run(["audit", "--store", sqlitePath, "--report-format", format], in: project)
            #expect(postgres.status == 3 && sqlite.status == 3, "\(format): \(postgres.stderr)")
            // JUnit carries each rule's timing.
            let untimed = { (text: String) in text.replacingOccurrences(of: #" time="[0-9.]+""#, with: "", options: .regularExpression) }
            #expect(untimed(postgres.stdout) == untimed(sqlite.stdout.replacingOccurrences(of: sqliteUUID, with: uuid)), "\(format)")
        }
        let clean = try CLI.run(["audit", "--store", url, "--entity", "Ingredient"], in: project)
        #expect(clean.status == 0, "\(clean.stderr)")
        let unknown = try CLI.run(["audit", "--store", url, "--entity", "Recipes"], in: project)
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("Recipes"))
        let warnOnly = try CLI.run(["audit", "--store", url, "--fail-on", "1700"], in: project)
        #expect(warnOnly.status == 0, "\(warnOnly.stderr)")

        // A pattern only ICU reads is exit 2 on PostgreSQL, before any rule runs (rules are not hashed: no drift).
        let model = project + "/models/4.yaml"
        let yaml = try String(contentsOfFile: model, encoding: .utf8)
        try yaml.replacingOccurrences(of: #"pattern: "[^@ ]+@[^@ ]+""#, with: #"pattern: "\\bx""#)
            .write(toFile: model, atomically: true, encoding: .utf8)
        let icu = try CLI.run(["audit", "--store", url], in: project)
        #expect(icu.status == 2)
        #expect(icu.stderr.contains("word boundary"), "\(icu.stderr)")
    }

    /// The whole `--format json` document, the store's UUID written `UUID`.
    static let expectedJSON = #"""
        {
          "audit" : {
            "entities" : [

            ],
            "failingRules" : 4,
            "maxSamples" : 20,
            "modelVersion" : 4,
            "rules" : [
              {
                "code" : 1570,
                "constraint" : "not optional",
                "count" : 0,
                "entity" : "Chef",
                "failing" : false,
                "property" : "name",
                "rule" : "optional",
                "samples" : [

                ]
              },
              {
                "code" : 1680,
                "constraint" : "matches \"[^@ ]+@[^@ ]+\"",
                "count" : 1,
                "entity" : "Chef",
                "failing" : true,
                "property" : "email",
                "rule" : "pattern",
                "samples" : [
                  {
                    "objectID" : "x-strata://UUID/Chef/p3",
                    "related" : [

                    ],
                    "value" : "bad"
                  }
                ]
              },
              {
                "code" : 1551,
                "constraint" : "unique (email)",
                "count" : 1,
                "entity" : "Chef",
                "failing" : true,
                "property" : "email",
                "rule" : "uniqueness",
                "samples" : [
                  {
                    "objectID" : "x-strata://UUID/Chef/p1",
                    "related" : [
                      "x-strata://UUID/Chef/p2"
                    ],
                    "value" : "ann@x.io"
                  }
                ]
              },
              {
                "code" : 1570,
                "constraint" : "not optional",
                "count" : 0,
                "entity" : "Ingredient",
                "failing" : false,
                "property" : "name",
                "rule" : "optional",
                "samples" : [

                ]
              },
              {
                "code" : 1670,
                "constraint" : "minLength 1",
                "count" : 0,
                "entity" : "Ingredient",
                "failing" : false,
                "property" : "name",
                "rule" : "minLength",
                "samples" : [

                ]
              },
              {
                "code" : 1570,
                "constraint" : "not optional",
                "count" : 0,
                "entity" : "Recipe",
                "failing" : false,
                "property" : "name",
                "rule" : "optional",
                "samples" : [

                ]
              },
              {
                "code" : 1660,
                "constraint" : "maxLength 200",
                "count" : 0,
                "entity" : "Recipe",
                "failing" : false,
                "property" : "name",
                "rule" : "maxLength",
                "samples" : [

                ]
              },
              {
                "code" : 1670,
                "constraint" : "minLength 1",
                "count" : 1,
                "entity" : "Recipe",
                "failing" : true,
                "property" : "name",
                "rule" : "minLength",
                "samples" : [
                  {
                    "objectID" : "x-strata://UUID/Recipe/p1",
                    "related" : [

                    ],
                    "value" : ""
                  }
                ]
              },
              {
                "code" : 1610,
                "constraint" : "max 100",
                "count" : 0,
                "entity" : "Recipe",
                "failing" : false,
                "property" : "portions",
                "rule" : "max",
                "samples" : [

                ]
              },
              {
                "code" : 1620,
                "constraint" : "min 1",
                "count" : 0,
                "entity" : "Recipe",
                "failing" : false,
                "property" : "portions",
                "rule" : "min",
                "samples" : [

                ]
              },
              {
                "code" : 1570,
                "constraint" : "not optional",
                "count" : 0,
                "entity" : "Recipe",
                "failing" : false,
                "property" : "rating",
                "rule" : "optional",
                "samples" : [

                ]
              },
              {
                "code" : 1610,
                "constraint" : "max 5",
                "count" : 1,
                "entity" : "Recipe",
                "failing" : true,
                "property" : "rating",
                "rule" : "max",
                "samples" : [
                  {
                    "objectID" : "x-strata://UUID/Recipe/p1",
                    "related" : [

                    ],
                    "value" : "9"
                  }
                ]
              },
              {
                "code" : 1620,
                "constraint" : "min 0",
                "count" : 0,
                "entity" : "Recipe",
                "failing" : false,
                "property" : "rating",
                "rule" : "min",
                "samples" : [

                ]
              },
              {
                "code" : 1660,
                "constraint" : "maxLength 2000",
                "count" : 0,
                "entity" : "Recipe",
                "failing" : false,
                "property" : "notes",
                "rule" : "maxLength",
                "samples" : [

                ]
              },
              {
                "code" : 1570,
                "constraint" : "not optional",
                "count" : 0,
                "entity" : "Recipe",
                "failing" : false,
                "property" : "favorite",
                "rule" : "optional",
                "samples" : [

                ]
              }
            ],
            "rulesChecked" : 15,
            "scope" : "full",
            "storeUUID" : "UUID",
            "totalViolations" : 4,
            "violatedRules" : 4
          },
          "passed" : false,
          "schemaVersion" : 1,
          "title" : "Strata audit"
        }
        """#
}
