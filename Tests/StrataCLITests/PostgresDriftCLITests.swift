import Foundation
import StrataTestSupport
import Testing

/// Drift on a PostgreSQL store, through the real `strata` binary: the live catalog (`pg_catalog`) against the
/// recorded layout, checked by `migrate` before anything is written (exit 6, the SQLite message) and shown by
/// `status`; user tables and indexes are not drift.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresDriftCLITests {
    static func store() throws -> (project: String, url: String, schema: String) {
        let project = try CLI.exampleProject()
        let url = PostgresTestServer.url()
        let schema = String(url.split(separator: "=").last!)
        #expect(try CLI.run(["migrate", "--create", "--to", "1", "--store", url], in: project).status == 0)
        return (project, url, schema)
    }

    @Test func aStoreStrataMigratedHasNoDriftAndUserObjectsAreNotDrift() throws {
        let (project, url, schema) = try Self.store()
        _ = try PostgresTestServer.psql("""
            SET search_path TO "\(schema)";
            CREATE TABLE "audit_log" ("id" serial PRIMARY KEY, "note" text);
            CREATE INDEX "recipe_name_lower" ON "Recipe" (lower("name"));
            """)
        let migrated = try CLI.run(["migrate", "--store", url, "--now", PostgresHooksCLITests.now], in: project)
        #expect(migrated.status == 0, "\(migrated.stderr)")
        let status = try CLI.run(["status", "--check", "--store", url], in: project)
        #expect(status.status == 0, "\(status.stdout)")
        #expect(status.stdout.contains("drift:    none\n"))
    }

    @Test func aManagedTableChangedByHandStopsMigrateAndShowsInStatus() throws {
        let (project, url, schema) = try Self.store()
        _ = try PostgresTestServer.psql("""
            SET search_path TO "\(schema)";
            ALTER TABLE "Recipe" ALTER COLUMN "rating" TYPE integer;
            ALTER TABLE "Recipe" ALTER COLUMN "servings" SET NOT NULL;
            ALTER TABLE "Ingredient" ADD COLUMN "unit" text;
            DROP INDEX "strata_fk_Ingredient_recipe";
            CREATE UNIQUE INDEX "strata_idx_Recipe_name" ON "Recipe" ("name");
            """)
        let differences = [
            "Recipe.rating: columnType: expected smallint, found integer",
            "Recipe.servings: columnConstraint: expected nullable, found NOT NULL",
            #"Recipe.strata_idx_Recipe_name: extraIndex: expected no index, found UNIQUE ("name")"#,
            "Ingredient.unit: extraColumn: expected no column, found text",
            #"Ingredient.strata_fk_Ingredient_recipe: missingIndex: expected ("recipe"), found no index"#,
        ]
        let migrate = try CLI.run(["migrate", "--store", url], in: project)
        #expect(migrate.status == 6)
        #expect(migrate.stderr.hasPrefix("error: the store is in drift from version 1 (5 differences):\n"), "\(migrate.stderr)")
        for item in differences { #expect(migrate.stderr.contains("\n  \(item)\n"), "\(item) in \(migrate.stderr)") }
        #expect(migrate.stderr.contains("hint: restore the schema or the model file of version 1; Strata never migrates a drifted store"))
        #expect(migrate.stdout.isEmpty)
        #expect(try PostgresTestServer.psql(#"SELECT "value" FROM "\#(schema)"."strata_metadata" WHERE "key" = 'strata.version'"#) == "1")
        #expect(try PostgresTestServer.psql(#"SELECT count(*) FROM "\#(schema)"."strata_history" WHERE "kind" = 'migrate'"#) == "0")

        let dry = try CLI.run(["migrate", "--dry-run", "--store", url], in: project)
        #expect(dry.status == 6)
        let status = try CLI.run(["status", "--store", url], in: project)
        #expect(status.status == 6)
        #expect(status.stdout.contains("drift:    5 item(s)\n"))
        for item in differences { #expect(status.stdout.contains("\n  drift: \(item)\n"), "\(item) in \(status.stdout)") }
        let json = try CLI.run(["status", "--store", url, "--format", "json"], in: project)
        let drift = try CLI.json(json.stdout)["drift"] as? [[String: Any]]
        #expect(drift?.map { "\($0["kind"] ?? "") \($0["table"] ?? "") \($0["column"] ?? "")" }.sorted() == [
            "columnConstraint Recipe servings", "columnType Recipe rating", "extraColumn Ingredient unit",
            "extraIndex Recipe strata_idx_Recipe_name", "missingIndex Ingredient strata_fk_Ingredient_recipe",
        ])
    }

    @Test func anEditedModelFileOfTheStoresVersionIsDrift() throws {
        let (project, url, _) = try Self.store()
        let file = project + "/models/1.yaml"
        try (try String(contentsOfFile: file, encoding: .utf8)).replacingOccurrences(of: "quantity: { type: string }", with: "quantity: { type: int32 }")
            .write(toFile: file, atomically: true, encoding: .utf8)
        let migrate = try CLI.run(["migrate", "--store", url], in: project)
        #expect(migrate.status == 6)
        #expect(migrate.stderr.hasPrefix("error: the store is in drift from version 1 (2 differences):\n  Ingredient: entityHash: expected recorded hash "),
                "\(migrate.stderr)")
        #expect(migrate.stderr.contains("\n  Ingredient.quantity: columnType: expected integer, found text\n"), "\(migrate.stderr)")
    }
}
