import Foundation
import StrataCore
@testable import StrataPostgres
import StrataTestSupport
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
            #"UPDATE "Book" AS "strata_target" SET "strata_map2" = strata_row."strata_value" FROM (SELECT strata_old."_pk" AS "strata_key0", CASE WHEN (CAST(COALESCE(strata_old."pages", $1) AS numeric) + CAST($2 AS numeric)) BETWEEN -9223372036854775808 AND 9223372036854775807 THEN CAST(trunc((CAST(COALESCE(strata_old."pages", $3) AS numeric) + CAST($4 AS numeric))) AS bigint) END AS "strata_value" FROM "Book" AS "strata_old") AS "strata_row" WHERE strata_target."_pk" = strata_row."strata_key0""#,
            #"UPDATE "Book" AS "strata_target" SET "label" = strata_row."strata_value" FROM (SELECT strata_old."_pk" AS "strata_key0", strata_old."title" AS "strata_value" FROM "Book" AS "strata_old") AS "strata_row" WHERE strata_target."_pk" = strata_row."strata_key0""#,
            #"DELETE FROM "Book" AS "strata_old" WHERE ((CAST(strata_old."deleted" AS integer) = $1)) IS NOT TRUE"#,
            #"UPDATE "Book" SET "author" = NULL WHERE "author" IN (SELECT strata_old."_pk" FROM "Author" AS "strata_old" WHERE ((strata_old."kind" = $1)) IS NOT TRUE)"#,
            #"DELETE FROM "Author" AS "strata_old" WHERE ((strata_old."kind" = $1)) IS NOT TRUE"#,
            #"SET CONSTRAINTS ALL IMMEDIATE"#,
            #"SET CONSTRAINTS ALL DEFERRED"#,
            #"ALTER TABLE "Author" ALTER COLUMN "name" TYPE text USING upper("name" COLLATE "und-x-icu")"#,
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

    @Test func aMergeNumbersNewIDsInTheTranslationTableAndReLinksEveryLink() throws {
        let v1 = """
            version: 1
            entities:
              Photo:
                attributes: { name: { type: string } }
                relationships: { tags: { destination: Tag, toMany: true, inverse: photo } }
              Video:
                attributes: { name: { type: string } }
              Tag:
                attributes: { label: { type: string } }
                relationships: { photo: { destination: Photo, inverse: tags } }
            """
        let v2 = """
            version: 2
            entities:
              Media:
                attributes: { name: { type: string } }
                relationships: { tags: { destination: Tag, toMany: true, inverse: media } }
              Tag:
                attributes: { label: { type: string } }
                relationships: { media: { destination: Media, inverse: tags, renamedFrom: photo } }
            """
        var history = try ModelHistory.load(yaml: ["1.yaml": v1, "2.yaml": v2])
        history.mappings[2] = try MappingFileLoader.load(yaml: "mapping: { from: 1, to: 2 }\nentities:\n  Media: { source: [Photo, Video] }\n",
                                                         file: "migrations/2.mapping.yaml")
        let plan = try Self.plan(history, 1, 2)
        // The translation table numbers Photo's rows then Video's above every `_pk` used (rows and key sequences);
        // Media is created and filled part by part with the new keys, its key sequence moved past them; Tag.photo
        // becomes Tag.media through the translation table before the old tables go.
        #expect(PostgresStepPlannerTests.statements(plan) == [
            #"DROP INDEX "strata_fk_Tag_photo""#,
            #"DROP TABLE IF EXISTS pg_temp."strata_remap""#,
            #"CREATE TEMP TABLE "strata_remap" ("source" text NOT NULL, "old" bigint NOT NULL, "entity" text NOT NULL, "kind" text NOT NULL, "new" bigint NOT NULL, PRIMARY KEY ("source", "old", "kind")) ON COMMIT DROP"#,
            #"INSERT INTO pg_temp."strata_remap" ("source", "old", "entity", "kind", "new") SELECT "source", "old", "entity", "kind", (SELECT coalesce(max("m"), 0) FROM (SELECT max("_pk") AS "m" FROM "Photo" UNION ALL SELECT pg_sequence_last_value(CAST(pg_get_serial_sequence($1, '_pk') AS regclass)) UNION ALL SELECT max("_pk") AS "m" FROM "Video" UNION ALL SELECT pg_sequence_last_value(CAST(pg_get_serial_sequence($2, '_pk') AS regclass))) AS "strata_used") + row_number() OVER (ORDER BY "part", "old") FROM (SELECT CAST($3 AS bigint) AS "part", CAST($4 AS text) AS "source", "strata_old"."_pk" AS "old", CAST($5 AS text) AS "entity", CAST($6 AS text) AS "kind" FROM "Photo" AS "strata_old" UNION ALL SELECT CAST($7 AS bigint) AS "part", CAST($8 AS text) AS "source", "strata_old"."_pk" AS "old", CAST($9 AS text) AS "entity", CAST($10 AS text) AS "kind" FROM "Video" AS "strata_old") AS "strata_parts""#,
            #"CREATE TABLE "Media" ("_pk" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, "name" text)"#,
            #"INSERT INTO "Media" ("_pk", "name") OVERRIDING SYSTEM VALUE SELECT (SELECT strata_r."new" FROM "strata_remap" AS strata_r WHERE strata_r."source" = $1 AND strata_r."old" = "strata_old"."_pk" AND strata_r."kind" IN ($2) ORDER BY 1 LIMIT 1), "strata_old"."name" FROM "Photo" AS "strata_old" ORDER BY strata_old."_pk""#,
            #"INSERT INTO "Media" ("_pk", "name") OVERRIDING SYSTEM VALUE SELECT (SELECT strata_r."new" FROM "strata_remap" AS strata_r WHERE strata_r."source" = $1 AND strata_r."old" = "strata_old"."_pk" AND strata_r."kind" IN ($2) ORDER BY 1 LIMIT 1), "strata_old"."name" FROM "Video" AS "strata_old" ORDER BY strata_old."_pk""#,
            #"SELECT setval(pg_get_serial_sequence($1, '_pk'), greatest(strata_h."h", 1), strata_h."h" > 0) FROM (SELECT greatest((SELECT coalesce(max("m"), 0) FROM (SELECT max("_pk") AS "m" FROM "Photo" UNION ALL SELECT pg_sequence_last_value(CAST(pg_get_serial_sequence($2, '_pk') AS regclass)) UNION ALL SELECT max("_pk") AS "m" FROM "Video" UNION ALL SELECT pg_sequence_last_value(CAST(pg_get_serial_sequence($3, '_pk') AS regclass))) AS "strata_used"), coalesce(max("_pk"), 0)) AS "h" FROM "Media") AS "strata_h""#,
            #"ALTER TABLE "Tag" ADD COLUMN "media" bigint"#,
            #"UPDATE "Tag" AS "strata_target" SET "media" = strata_row."strata_value" FROM (SELECT strata_old."_pk" AS "strata_key0", (SELECT strata_r."new" FROM "strata_remap" AS strata_r WHERE strata_r."source" = $1 AND strata_r."old" = "strata_old"."photo" AND strata_r."kind" IN ($2) ORDER BY 1 LIMIT 1) AS "strata_value" FROM "Tag" AS "strata_old") AS "strata_row" WHERE strata_target."_pk" = strata_row."strata_key0""#,
            "SET CONSTRAINTS ALL IMMEDIATE",
            "SET CONSTRAINTS ALL DEFERRED",
            #"ALTER TABLE "Tag" DROP COLUMN "photo""#,
            "-- objects with new IDs (old → new, for the change set)\n"
                + #"SELECT "entity", "old", "kind", "new" FROM pg_temp."strata_remap" ORDER BY "kind", "new""#,
            #"DROP TABLE pg_temp."strata_remap""#,
            #"DROP TABLE "Photo", "Video""#,
            #"ALTER TABLE "Tag" ADD CONSTRAINT "strata_fkey_Tag_media" FOREIGN KEY ("media") REFERENCES "Media" ("_pk") ON DELETE SET NULL DEFERRABLE INITIALLY IMMEDIATE"#,
            #"CREATE INDEX "strata_fk_Tag_media" ON "Tag" ("media")"#,
        ])
        guard case .execute(let remap) = plan.operations[4] else { Issue.record("not the translation table's INSERT"); return }
        #expect(remap.rendered(for: .postgresql).arguments == [.text(#""Photo""#), .text(#""Video""#), .integer(0), .text("Photo"), .text("Photo"),
                                                                 .text("Media"), .integer(1), .text("Video"), .text("Video"), .text("Media")])
    }

    @Test func aJoinTableOfAMergedEntityIsCopiedWithBothEndsReLinked() throws {
        var history = try ModelHistory.load(yaml: ["1.yaml": AlbumMergeFixture.v1, "2.yaml": AlbumMergeFixture.v2])
        history.mappings[2] = try MappingFileLoader.load(yaml: AlbumMergeFixture.mapping, file: "migrations/2.mapping.yaml")
        let statements = PostgresStepPlannerTests.statements(try Self.plan(history, 1, 2))
        // The join table's keys change: it is created under a temporary name and filled from the old one, its photo
        // end through the translation table (links to objects no mapping carries left out), then takes its name back.
        #expect(statements.filter { $0.contains("_Album_photos") } == [
            #"CREATE TABLE "strata_rename__Album_photos" ("source" bigint NOT NULL, "target" bigint NOT NULL, PRIMARY KEY ("source", "target"))"#,
            #"INSERT INTO "strata_rename__Album_photos" ("source", "target") SELECT "strata_old"."source", (SELECT strata_r."new" FROM "strata_remap" AS strata_r WHERE strata_r."source" = $1 AND strata_r."old" = "strata_old"."target" AND strata_r."kind" IN ($2) ORDER BY 1 LIMIT 1) FROM "_Album_photos" AS "strata_old" WHERE (((SELECT strata_r."new" FROM "strata_remap" AS strata_r WHERE strata_r."source" = $3 AND strata_r."old" = "strata_old"."target" AND strata_r."kind" IN ($4) ORDER BY 1 LIMIT 1)) IS NOT NULL) IS TRUE"#,
            #"DROP TABLE "_Album_photos", "Photo", "Video""#,
            #"ALTER TABLE "strata_rename__Album_photos" RENAME TO "_Album_photos""#,
            #"ALTER TABLE "_Album_photos" ADD CONSTRAINT "strata_fkey__Album_photos_source" FOREIGN KEY ("source") REFERENCES "Album" ("_pk") ON DELETE CASCADE DEFERRABLE INITIALLY IMMEDIATE"#,
            #"ALTER TABLE "_Album_photos" ADD CONSTRAINT "strata_fkey__Album_photos_target" FOREIGN KEY ("target") REFERENCES "Media" ("_pk") ON DELETE CASCADE DEFERRABLE INITIALLY IMMEDIATE"#,
            #"CREATE INDEX "strata_fk__Album_photos_target" ON "_Album_photos" ("target")"#,
        ])
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
