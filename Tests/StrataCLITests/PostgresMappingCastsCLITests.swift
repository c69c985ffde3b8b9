import Foundation
import GRDB
import StrataTestSupport
import Testing

/// A mapping file whose expressions use the conversion functions, run by the `strata` binary on an SQLite
/// store and on a PostgreSQL store with the same rows: the same values result (issue 18).
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresMappingCastsCLITests {
    static let mapping = """
        mapping: { from: 1, to: 2 }
        entities:
          Writer: { source: Author, filter: "kind == 'person'" }
          Book:
            attributes:
              pages: "int64(string(coalesce(pages, 0)) + '1')"
              label: "string(pages) + '|' + string(deleted) + '|' + coalesce(string(int16(title)), '-') + '|' + string(double(pages))"
        """
    static let books = #"SELECT "_pk" || ' ' || "title" || ' ' || "pages" || ' ' || coalesce("label", '-') FROM "Book" ORDER BY "_pk""#

    @Test func conversionsInAMappingGiveTheSameValues() throws {
        let (dir, store) = try MappingProject.project(v1: AuthorBookMapping.v1, v2: AuthorBookMapping.v2, files: ["v2.yaml": Self.mapping],
                                                      name: "pgcast")
        try E2E.execute(store, AuthorBookMapping.rows + #"UPDATE "Book" SET "title" = '77' WHERE "_pk" = 4;"#)
        let schema = "t_" + UUID().uuidString.prefix(8).lowercased()
        let url = PostgresTestServer.url(schema: schema)
        #expect(try CLI.run(["migrate", "--create", "--to", "1", "--store", url], in: dir).status == 0)
        _ = try PostgresTestServer.psql("""
            SET search_path TO "\(schema)";
            INSERT INTO "Author" ("name", "kind") VALUES ('Ann', 'person'), ('Acme', 'company'), ('Bob', 'person');
            INSERT INTO "Book" ("title", "pages", "deleted", "author") VALUES
              ('b1', 10, false, 1), ('b2', NULL, false, 2), ('b3', 30, true, 3), ('77', 40, false, NULL);
            """)
        let sqlite = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(sqlite.status == 0, "\(sqlite.stderr)")
        let postgres = try CLI.run(["migrate", "--store", url], in: dir)
        #expect(postgres.status == 0, "\(postgres.stderr)")
        let onSQLite = try E2E.rows(store, Self.books)
        #expect(onSQLite == ["1 b1 101 10|false|-|10.0", "2 b2 1 -", "3 b3 301 30|true|-|30.0", "4 77 401 40|false|77|40.0"])
        let onPostgres = try PostgresTestServer.psql("SET search_path TO \"\(schema)\";\n" + Self.books).split(separator: "\n").map(String.init)
            .filter { $0 != "SET" }
        #expect(onPostgres == onSQLite)
    }
}
