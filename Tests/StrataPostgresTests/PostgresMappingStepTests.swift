import Foundation
import Strata
import StrataCore
@testable import StrataPostgres
import StrataTestSupport
import Testing

/// A mapping file's step on a PostgreSQL store with data: filters, expressions and an entity rename done in
/// place, with the rows and object IDs SQLite's step gives (`StrataCLITests.PostgresMappingCLITests`
/// compares both engines through the `strata` binary). Skipped (and said so on stderr) without PostgreSQL.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresMappingStepTests {
    static func psql(_ sql: String) throws -> [String] { try PostgresStoreTests.psql(sql) }

    /// A v1 store with the fixture's rows (IDs 1, 2, … in insertion order).
    static func store() async throws -> (url: PostgresStoreURL, schema: String) {
        let (url, schema) = try await PostgresMigrationTests.create(PostgresMappingFixture.history(), at: 1)
        _ = try psql("""
            SET search_path TO "\(schema)";
            INSERT INTO "Author" ("name", "kind") VALUES ('Ann', 'person'), ('Acme', 'company'), ('Bob', 'person');
            INSERT INTO "Book" ("title", "pages", "deleted", "author") VALUES
              ('b1', 10, false, 1), ('b2', NULL, false, 2), ('b3', 30, true, 3), ('b4', 40, false, NULL);
            """)
        return (url, schema)
    }

    @Test func filtersExpressionsAndARenameKeepRowsAndIDs() async throws {
        let (url, schema) = try await Self.store()
        let report = try await PostgresMigration.run(url, models: PostgresMappingFixture.history(), hooks: HookSet(hooks: []),
                                                     options: .init())
        #expect(report.toVersion == 2 && report.steps.count == 1)
        #expect(try Self.psql(#"SELECT concat_ws(' ', "_pk", "name") FROM "\#(schema)"."Writer" ORDER BY "_pk""#) == ["1 ANN", "3 BOB"])
        #expect(try Self.psql(#"""
            SELECT concat_ws('|', "_pk", "title", "pages", pg_typeof("pages"), "label", "deleted", coalesce("author"::text, '-'))
            FROM "\#(schema)"."Book" ORDER BY "_pk"
            """#) == ["1|b1 by Ann|11|bigint|b1|f|1", "2|b2 by Acme|1|bigint|b2|f|-", "4|b4 by ?|41|bigint|b4|f|-"])
        #expect(try Self.psql("""
            SELECT table_name || '.' || column_name FROM information_schema.columns WHERE table_schema = '\(schema)'
              AND table_name IN ('Author', 'Writer', 'Book') ORDER BY table_name, column_name
            """) == ["Book._pk", "Book.author", "Book.deleted", "Book.label", "Book.pages", "Book.title", "Writer._pk", "Writer.name"])
        #expect(try Self.psql("""
            SELECT conname || ' ' || confrelid::regclass::text FROM pg_constraint WHERE contype = 'f' AND connamespace = '\(schema)'::regnamespace
            """) == [#"strata_fkey_Book_author \#(schema)."Writer""#])
    }

    /// An entity becoming a sub-entity of one that links to it (`B.best` → `A`, then `A: { parent: B }`): both
    /// tables are copied into the merged one with new IDs and dropped together (dropped one by one, `A` could
    /// not go while `B`'s foreign key named it: exit 1). The link follows `A`'s object to its new ID, as on SQLite.
    @Test func aMergeOfTablesThatReferenceEachOtherDropsThemTogether() async throws {
        var history = try ModelHistory.load(yaml: [
            "1.yaml": "version: 1\nentities:\n  A:\n    attributes: { x: { type: string } }\n  B:\n    attributes: { y: { type: string } }\n    relationships: { best: { destination: A } }\n",
            "2.yaml": "version: 2\nentities:\n  A:\n    parent: B\n    attributes: { x: { type: string } }\n  B:\n    attributes: { y: { type: string } }\n    relationships: { best: { destination: A } }\n",
        ])
        history.mappings[2] = try MappingFileLoader.load(yaml: "mapping: { from: 1, to: 2 }\nentities:\n  A: { source: A }\n  B: { source: B }\n",
                                                         file: "migrations/2.mapping.yaml")
        let (url, schema) = try await PostgresMigrationTests.create(history, at: 1)
        _ = try Self.psql(#"INSERT INTO "\#(schema)"."A" ("x") VALUES ('a1'); INSERT INTO "\#(schema)"."B" ("y", "best") VALUES ('b1', 1)"#)
        _ = try await PostgresMigration.run(url, models: history, hooks: HookSet(hooks: []), options: .init())
        #expect(try Self.psql(#"SELECT concat_ws('|', "_pk", "_entity", coalesce("y", '-'), coalesce("best"::text, '-'), coalesce("x", '-')) FROM "\#(schema)"."B" ORDER BY "_pk""#)
                == ["2|B|b1|3|-", "3|A|-|-|a1"])
        #expect(try Self.psql("SELECT count(*) FROM information_schema.tables WHERE table_schema = '\(schema)' AND table_name = 'A'") == ["0"])
    }

    /// A `LIKE` whose pattern is not a constant has no PostgreSQL form (this test once used `int64(title)`, and
    /// passed because the server refused the subquery the conversion was rendered as inside `USING`; that
    /// conversion now runs, below).
    /// Conversions in a mapping expression (rendered with a subquery, which `ALTER COLUMN … USING` refuses) go
    /// through a temporary column, and a bool or date result is stored in the column's native type (the
    /// expression computes 0/1 and seconds). Found by a SQLite/PostgreSQL differential of mapping files.
    @Test func conversionsAndNativeTypesFillTheColumns() async throws {
        let (url, schema) = try await Self.store()
        let v2 = PostgresMappingFixture.v2.replacingOccurrences(of: "label: { type: string }", with: "label: { type: bool }\n      seen: { type: date }")
        let history = try PostgresMappingFixture.history(mapping: """
            mapping: { from: 1, to: 2 }
            entities:
              Writer: { source: Author }
              Book:
                attributes:
                  pages: "int64(string(pages)) * 2"
                  label: "bool(TERNARY(pages > 15, 1, 0))"
                  seen: "date(coalesce(pages, 0) * 86400)"
            """, v2: v2)
        _ = try await PostgresMigration.run(url, models: history, hooks: HookSet(hooks: []), options: .init())
        #expect(try Self.psql(#"""
            SELECT concat_ws('|', "_pk", coalesce("pages"::text, '-'), pg_typeof("pages"), coalesce("label"::text, '-'), to_char("seen" AT TIME ZONE 'UTC', 'YYYY-MM-DD'))
            FROM "\#(schema)"."Book" ORDER BY "_pk"
            """#) == ["1|20|bigint|false|1970-01-11", "2|-|bigint|false|1970-01-01", "3|60|bigint|true|1970-01-31", "4|80|bigint|true|1970-02-10"])
    }

    @Test func aMappingExpressionPostgresCannotRunIsExit2BeforeAnyWrite() async throws {
        let (url, schema) = try await Self.store()
        let history = try PostgresMappingFixture.history(mapping: "mapping: { from: 1, to: 2 }\nentities:\n  Writer: { source: Author }\n"
                                                         + "  Book:\n    attributes: { pages: \"TERNARY(title LIKE title, 1, 2)\" }\n")
        await #expect {
            try await PostgresMigration.run(url, models: history, hooks: HookSet(hooks: []), options: .init())
        } throws: { error in
            guard case PostgresStoreError.notYetSupported = error else { return false }
            return (error as? StrataError)?.exitCode == .invalidInput
        }
        #expect(try Self.psql("SELECT value FROM \"\(schema)\".strata_metadata WHERE key = 'strata.version'") == ["1"])
        #expect(try Self.psql(#"SELECT count(*) FROM "\#(schema)"."Author""#) == ["3"])
    }

    @Test func aNilMappedIntoANonOptionalAttributeIsExit3AndRollsBack() async throws {
        let (url, schema) = try await Self.store()
        let v2 = PostgresMappingFixture.v2.replacingOccurrences(of: "label: { type: string }", with: "label: { type: string, optional: false }")
        let history = try PostgresMappingFixture.history(mapping: "mapping: { from: 1, to: 2 }\nentities:\n  Writer: { source: Author }\n"
                                                         + "  Book:\n    attributes: { label: \"author.name\" }\n", v2: v2)
        do {
            _ = try await PostgresMigration.run(url, models: history, hooks: HookSet(hooks: []), options: .init())
            Issue.record("migrated")
        } catch let error as MigrationError {
            guard case .violations(1, 2, let v) = error else { Issue.record("\(error)"); return }
            #expect(v.map(\.summary) == ["Book.label is not nil (non-optional; its mapped value failed to cast or was nil)"])
            #expect(v.map(\.check) == [.nilMappedValue])
            #expect(v.map { $0.objects.map(\.primaryKey) } == [[4]] && v.map { $0.objects.map(\.entity) } == [["Book"]])
        }
        #expect(try Self.psql("SELECT value FROM \"\(schema)\".strata_metadata WHERE key = 'strata.version'") == ["1"])
        #expect(try Self.psql(#"SELECT count(*) FROM "\#(schema)"."Author""#) == ["3"])
    }
}
