import Foundation
import StrataCore
@testable import StrataPostgres
import Testing

/// A mapping file's step rendered for PostgreSQL, without a server: exact statements, and the refusals.
@Suite struct PostgresMappingPlannerTests {
    /// The v1 → v2 step with the history's mapping file.
    static func plan(_ history: ModelHistory, _ from: Int, _ to: Int) throws -> PostgresStepPlan {
        let source = history.models.first { $0.version == from }!
        let layout = try PostgresLayout.adapted(LayoutBuilder.layout(for: source))
        let step = try MappingInference.plan(models: history.models, from: from, to: to, sourceLayout: layout, mappings: history.mappings)[0]
        return try PostgresStepPlanner.plan(step, source: source, destination: history.models.first { $0.version == to }!)
    }

    @Test func expressionsFilterAndRenameAreDoneInPlace() throws {
        let plan = try Self.plan(PostgresMappingFixture.history(), 1, 2)
        // New values first (reading every source row), then the filtered rows and the links to them (their deferred
        // foreign-key checks settled), then the retype in place (`USING`, no bound value), drops and renames.
        #expect(PostgresStepPlannerTests.statements(plan) == [
            #"ALTER TABLE "Book" ADD COLUMN "strata_map1" text"#,
            #"ALTER TABLE "Book" ADD COLUMN "strata_map2" bigint"#,
            #"ALTER TABLE "Book" ADD COLUMN "label" text"#,
            #"UPDATE "Book" AS "strata_target" SET "strata_map1" = strata_row."strata_value" FROM (SELECT strata_old."_pk" AS "strata_key0", ((strata_old."title" || $1) || COALESCE((SELECT a1."name" FROM "Author" AS a1 WHERE a1."_pk" = strata_old."author"), $2)) AS "strata_value" FROM "Book" AS "strata_old") AS "strata_row" WHERE strata_target."_pk" = strata_row."strata_key0""#,
            #"UPDATE "Book" AS "strata_target" SET "strata_map2" = strata_row."strata_value" FROM (SELECT strata_old."_pk" AS "strata_key0", CAST(trunc((COALESCE(strata_old."pages", $1) + $2)) AS bigint) AS "strata_value" FROM "Book" AS "strata_old") AS "strata_row" WHERE strata_target."_pk" = strata_row."strata_key0""#,
            #"UPDATE "Book" AS "strata_target" SET "label" = strata_row."strata_value" FROM (SELECT strata_old."_pk" AS "strata_key0", strata_old."title" AS "strata_value" FROM "Book" AS "strata_old") AS "strata_row" WHERE strata_target."_pk" = strata_row."strata_key0""#,
            #"DELETE FROM "Book" AS "strata_old" WHERE ((CAST(strata_old."deleted" AS integer) = $1)) IS NOT TRUE"#,
            #"UPDATE "Book" SET "author" = NULL WHERE "author" IN (SELECT strata_old."_pk" FROM "Author" AS "strata_old" WHERE ((strata_old."kind" = $1)) IS NOT TRUE)"#,
            #"DELETE FROM "Author" AS "strata_old" WHERE ((strata_old."kind" = $1)) IS NOT TRUE"#,
            #"SET CONSTRAINTS ALL IMMEDIATE"#,
            #"SET CONSTRAINTS ALL DEFERRED"#,
            #"ALTER TABLE "Author" ALTER COLUMN "name" TYPE text USING upper("name")"#,
            #"ALTER TABLE "Book" DROP COLUMN "title""#,
            #"ALTER TABLE "Book" DROP COLUMN "pages""#,
            #"ALTER TABLE "Author" DROP COLUMN "kind""#,
            #"ALTER TABLE "Book" RENAME COLUMN "strata_map1" TO "title""#,
            #"ALTER TABLE "Book" RENAME COLUMN "strata_map2" TO "pages""#,
            #"ALTER TABLE "Author" RENAME TO "Writer""#,
        ])
        #expect(PostgresStepPlannerTests.dependents(plan) == ["Book.title", "Book.pages", "Author.name", "Author.kind"])
        guard case .execute(let delete) = plan.operations[7] else { Issue.record("not the filter's DELETE"); return }
        #expect(delete.rendered(for: .postgresql).arguments == [.integer(0)])
    }

    @Test(arguments: [
        ("Writer: { source: [Author, Book] }", "filling table Writer from several source tables"),
    ])
    func whatCannotBeDoneInPlaceIsRefusedBeforeAnyWrite(entities: String, message: String) throws {
        let history = try PostgresMappingFixture.history(mapping: "mapping: { from: 1, to: 2 }\nentities:\n  " + entities + "\n")
        do {
            _ = try Self.plan(history, 1, 2)
            Issue.record("planned")
        } catch let error as PostgresStoreError {
            #expect(error.exitCode == .invalidInput)
            #expect("\(error)".contains(message), "\(error)")
        }
    }

    @Test func aSplitCopiesTheRowsOfTheTableThatDoesNotKeepTheSourceTable() throws {
        let v2 = PostgresMappingFixture.v2 + "\n  Company:\n    attributes:\n      name: { type: string }\n"
        let mapping = """
            mapping: { from: 1, to: 2 }
            entities:
              Writer: { source: Author, filter: "kind == 'person'" }
              Company: { source: Author, filter: "kind == 'company'" }
            """
        let statements = PostgresStepPlannerTests.statements(try Self.plan(PostgresMappingFixture.history(mapping: mapping, v2: v2), 1, 2))
        // Company (first by name) keeps Author's table; Writer is created and filled first, keeping the keys, so
        // Book.author follows its rows (its foreign key moves to Writer; links to no Writer are cleared).
        #expect(statements == [
            #"ALTER TABLE "Book" DROP CONSTRAINT "strata_fkey_Book_author""#,
            #"CREATE TABLE "Writer" ("_pk" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, "name" text)"#,
            #"INSERT INTO "Writer" ("_pk", "name") OVERRIDING SYSTEM VALUE SELECT "strata_old"."_pk", "strata_old"."name" FROM "Author" AS "strata_old" WHERE ((strata_old."kind" = $1)) IS TRUE ORDER BY strata_old."_pk""#,
            #"SELECT setval(pg_get_serial_sequence($1, '_pk'), coalesce((SELECT max("_pk") FROM "Writer"), 1), (SELECT max("_pk") FROM "Writer") IS NOT NULL)"#,
            #"ALTER TABLE "Book" ADD COLUMN "label" text"#,
            #"DELETE FROM "Author" AS "strata_old" WHERE ((strata_old."kind" = $1)) IS NOT TRUE"#,
            #"SET CONSTRAINTS ALL IMMEDIATE"#,
            #"SET CONSTRAINTS ALL DEFERRED"#,
            #"ALTER TABLE "Book" ALTER COLUMN "pages" TYPE bigint USING CAST("pages" AS bigint)"#,
            #"ALTER TABLE "Author" DROP COLUMN "kind""#,
            #"ALTER TABLE "Author" RENAME TO "Company""#,
            #"UPDATE "Book" SET "author" = NULL WHERE "author" IS NOT NULL AND "author" NOT IN (SELECT "_pk" FROM "Writer")"#,
            #"ALTER TABLE "Book" ADD CONSTRAINT "strata_fkey_Book_author" FOREIGN KEY ("author") REFERENCES "Writer" ("_pk") ON DELETE SET NULL DEFERRABLE INITIALLY IMMEDIATE"#,
        ])
    }
}
