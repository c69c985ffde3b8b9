import Foundation
import GRDB
import StrataTestSupport
import Testing

/// One mapping file run by the `strata` binary on a SQLite store and on a PostgreSQL store with the same
/// rows: the same rows and object IDs result (filters, expressions, an entity rename, dropped links).
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresMappingCLITests {
    static let v1 = AuthorBookMapping.v1
    static let v2 = AuthorBookMapping.v2
    static let mapping = AuthorBookMapping.mapping
    static let writers = #"SELECT "_pk" || ' ' || "name" FROM "Writer" ORDER BY "_pk""#
    static let books = #"""
        SELECT "_pk" || '|' || "title" || '|' || "pages" || '|' || "label" || '|' || (CASE WHEN "deleted" THEN 'yes' ELSE 'no' END)
          || '|' || coalesce(CAST("author" AS text), '-') FROM "Book" ORDER BY "_pk"
        """#

    @Test func sqliteAndPostgresGiveTheSameRowsAndIDs() throws {
        let (dir, store) = try MappingProject.project(v1: Self.v1, v2: Self.v2, files: ["v2.yaml": Self.mapping], name: "pgmap")
        let queue = try DatabaseQueue(path: store)
        try queue.write { db in
            try db.execute(sql: AuthorBookMapping.rows)
        }
        try queue.close()
        let schema = "t_" + UUID().uuidString.prefix(8).lowercased()
        let url = PostgresTestServer.url(schema: schema)
        let created = try CLI.run(["migrate", "--create", "--to", "1", "--store", url], in: dir)
        #expect(created.status == 0, "\(created.stderr)")
        _ = try PostgresTestServer.psql("""
            SET search_path TO "\(schema)";
            INSERT INTO "Author" ("name", "kind") VALUES ('Ann', 'person'), ('Acme', 'company'), ('Bob', 'person');
            INSERT INTO "Book" ("title", "pages", "deleted", "author") VALUES
              ('b1', 10, false, 1), ('b2', NULL, false, 2), ('b3', 30, true, 3), ('b4', 40, false, NULL);
            """)

        let sqlite = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(sqlite.status == 0, "\(sqlite.stderr)")
        let postgres = try CLI.run(["migrate", "--store", url], in: dir)
        #expect(postgres.status == 0, "\(postgres.stderr)")
        for output in [sqlite.stdout, postgres.stdout] {
            #expect(output.contains("mapped Writer from Author: 2 carried, 1 dropped by filter, 1 link to them dropped (Book.author 1)\n"),
                    "\(output)")
            #expect(output.contains("mapped Book from Book: 3 carried, 1 dropped by filter\n"), "\(output)")
        }

        func pg(_ sql: String) throws -> [String] {
            try PostgresTestServer.psql("SET search_path TO \"\(schema)\";\n" + sql).split(separator: "\n").map(String.init)
                .filter { $0 != "SET" }
        }
        let sqliteBooks = try E2E.rows(store, Self.books.replacingOccurrences(of: #"WHEN "deleted" THEN"#, with: #"WHEN "deleted" = 1 THEN"#))
        #expect(try E2E.rows(store, Self.writers) == ["1 ANN", "3 BOB"])
        #expect(sqliteBooks == ["1|b1 by Ann|11|b1|no|1", "2|b2 by Acme|1|b2|no|-", "4|b4 by ?|41|b4|no|-"])
        #expect(try pg(Self.writers) == ["1 ANN", "3 BOB"])
        #expect(try pg(Self.books) == sqliteBooks)
        let version = try pg("SELECT value FROM strata_metadata WHERE key = 'strata.version'")
        #expect(version == ["2"])
    }

    /// A sub-entity renamed, filtered and recomputed inside its hierarchy table (`_entity` values renamed).
    @Test func aHierarchyGivesTheSameRowsAndIDs() throws {
        let v1 = """
            version: 1
            entities:
              Item:
                attributes:
                  name: { type: string, optional: false, default: x }
              Order:
                parent: Item
                attributes:
                  rating: { type: string }
                  deleted: { type: bool, optional: false, default: false }
            """
        let v2 = """
            version: 2
            entities:
              Item:
                attributes:
                  name: { type: string, optional: false, default: x }
              Purchase:
                parent: Item
                attributes:
                  rating: { type: string }
                  note: { type: string }
                  deleted: { type: bool, optional: false, default: false }
            """
        let mapping = """
            mapping: { from: 1, to: 2 }
            entities:
              Purchase:
                source: Order
                filter: "deleted == NO"
                attributes:
                  rating: "uppercase(rating)"
                  note: "name + ':' + coalesce(rating, '-')"
            """
        let (dir, store) = try MappingProject.project(v1: v1, v2: v2, files: ["v2.yaml": mapping], name: "pgmaph")
        let queue = try DatabaseQueue(path: store)
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO "Item" ("_pk", "_entity", "name", "rating", "deleted") VALUES
                  (1, 'Item', 'plain', NULL, NULL), (2, 'Order', 'o2', 'a', 0), (3, 'Order', 'o3', NULL, 0), (4, 'Order', 'o4', 'c', 1);
                """)
        }
        try queue.close()
        let schema = "t_" + UUID().uuidString.prefix(8).lowercased()
        let url = PostgresTestServer.url(schema: schema)
        let created = try CLI.run(["migrate", "--create", "--to", "1", "--store", url], in: dir)
        #expect(created.status == 0, "\(created.stderr)")
        _ = try PostgresTestServer.psql("""
            INSERT INTO "\(schema)"."Item" ("_entity", "name", "rating", "deleted") VALUES
              ('Item', 'plain', NULL, NULL), ('Order', 'o2', 'a', false), ('Order', 'o3', NULL, false), ('Order', 'o4', 'c', true);
            """)
        let sqlite = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(sqlite.status == 0, "\(sqlite.stderr)")
        let postgres = try CLI.run(["migrate", "--store", url], in: dir)
        #expect(postgres.status == 0, "\(postgres.stderr)")
        for output in [sqlite.stdout, postgres.stdout] {
            #expect(output.contains("mapped Purchase from Order: 2 carried, 1 dropped by filter\n"), "\(output)")
        }
        let rows = #"""
            SELECT "_pk" || '|' || "_entity" || '|' || "name" || '|' || coalesce("rating", '-') || '|' || coalesce("note", '-')
            FROM "Item" ORDER BY "_pk"
            """#
        let expected = ["1|Item|plain|-|-", "2|Purchase|o2|A|o2:a", "3|Purchase|o3|-|o3:-"]
        #expect(try E2E.rows(store, rows) == expected)
        #expect(try PostgresTestServer.psql("SET search_path TO \"\(schema)\";\n" + rows).split(separator: "\n").map(String.init)
                    .filter { $0 != "SET" } == expected)
    }

    /// A many-to-many whose one side is filtered (and renamed, its join table with it): the join-table rows holding
    /// dropped objects go on both engines.
    @Test func joinTableLinksToFilteredRowsAreDroppedAlike() throws {
        let v1 = """
            version: 1
            entities:
              Author:
                attributes: { name: { type: string }, kind: { type: string } }
                relationships:
                  books: { destination: Book, toMany: true, inverse: authors, deleteRule: nullify }
              Book:
                attributes: { title: { type: string } }
                relationships:
                  authors: { destination: Author, toMany: true, inverse: books, deleteRule: nullify }
            """
        let v2 = v1.replacingOccurrences(of: "version: 1", with: "version: 2").replacingOccurrences(of: "Author", with: "Artist")
            .replacingOccurrences(of: ", kind: { type: string }", with: "")
        let mapping = """
            mapping: { from: 1, to: 2 }
            entities:
              Artist: { source: Author, filter: "kind == 'person'" }
            """
        let (dir, store) = try MappingProject.project(v1: v1, v2: v2, files: ["v2.yaml": mapping], name: "pgmapj")
        let joins = #"SELECT "name" FROM sqlite_master WHERE "type" = 'table' AND "name" NOT IN ('Author', 'Artist', 'Book') AND "name" NOT LIKE 'strata%' AND "name" NOT LIKE 'sqlite%'"#
        let before = try E2E.rows(store, joins)
        try #require(before.count == 1)
        let insert = """
            INSERT INTO "Author" ("name", "kind") VALUES ('Ann', 'person'), ('Acme', 'company');
            INSERT INTO "Book" ("title") VALUES ('b1'), ('b2');
            INSERT INTO "\(before[0])" ("source", "target") SELECT a, b FROM (VALUES (1, 1), (2, 1), (2, 2)) AS v (a, b);
            """
        let queue = try DatabaseQueue(path: store)
        try queue.write { db in
            try db.execute(sql: insert.replacingOccurrences(of: "SELECT a, b FROM (VALUES (1, 1), (2, 1), (2, 2)) AS v (a, b)",
                                                            with: "VALUES (1, 1), (2, 1), (2, 2)"))
        }
        try queue.close()
        let schema = "t_" + UUID().uuidString.prefix(8).lowercased()
        let url = PostgresTestServer.url(schema: schema)
        let created = try CLI.run(["migrate", "--create", "--to", "1", "--store", url], in: dir)
        #expect(created.status == 0, "\(created.stderr)")
        _ = try PostgresTestServer.psql("SET search_path TO \"\(schema)\";\n" + insert)
        let sqlite = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(sqlite.status == 0, "\(sqlite.stderr)")
        let postgres = try CLI.run(["migrate", "--store", url], in: dir)
        #expect(postgres.status == 0, "\(postgres.stderr)")
        let after = try E2E.rows(store, joins)
        try #require(after.count == 1)
        for output in [sqlite.stdout, postgres.stdout] {
            #expect(output.contains("mapped Artist from Author: 1 carried, 1 dropped by filter"), "\(output)")
        }
        let links = #"SELECT "source" || '>' || "target" FROM "\#(after[0])" ORDER BY 1"#
        let pgLinks = try PostgresTestServer.psql("SET search_path TO \"\(schema)\";\n" + links).split(separator: "\n").map(String.init)
        #expect(try E2E.rows(store, links) == ["1>1"])
        #expect(pgLinks.filter { $0 != "SET" } == ["1>1"])
        #expect(try E2E.rows(store, #"SELECT "_pk" || ' ' || "name" FROM "Artist""#) == ["1 Ann"])
        #expect(try PostgresTestServer.psql(#"SELECT "_pk" || ' ' || "name" FROM "\#(schema)"."Artist""#) == "1 Ann")
    }
}
