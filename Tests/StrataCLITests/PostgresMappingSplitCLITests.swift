import Foundation
import GRDB
import StrataTestSupport
import Testing

/// Objects moving between tables on PostgreSQL (issue 18), run by the `strata` binary beside SQLite with the
/// same rows: `Author` split into `Person` and `Company` by a mapping file (object IDs kept, `Order.author`
/// following its rows to `Person`), and an entity leaving its hierarchy.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresMappingSplitCLITests {
    static func pg(_ schema: String, _ sql: String) throws -> [String] {
        try PostgresTestServer.psql("SET search_path TO \"\(schema)\";\n" + sql).split(separator: "\n").map(String.init).filter { $0 != "SET" }
    }

    /// Creates a PostgreSQL store of `dir`'s models at version 1, fills it with `rows`, runs both migrations.
    static func migrateBoth(_ dir: String, rows: String) throws -> (schema: String, sqlite: CLI.Result, postgres: CLI.Result) {
        let schema = "t_" + UUID().uuidString.prefix(8).lowercased()
        let url = PostgresTestServer.url(schema: schema)
        #expect(try CLI.run(["migrate", "--create", "--to", "1", "--store", url], in: dir).status == 0)
        _ = try pg(schema, rows)
        return (schema, try CLI.run(["migrate", "--store", "app.sqlite"], in: dir), try CLI.run(["migrate", "--store", url], in: dir))
    }

    @Test func aSplitKeepsObjectIDsAndLinksAsOnSQLite() throws {
        let (dir, store) = try MappingProject.make(["v2.yaml": MappingProject.mapping], badRating: false)
        let (schema, sqlite, postgres) = try Self.migrateBoth(dir, rows: """
            INSERT INTO "Author" ("kind", "name") VALUES ('person', 'Ann'), ('company', 'Acme'), ('person', 'Bob');
            INSERT INTO "Item" ("_entity", "name", "rating", "total", "deleted", "author") VALUES
              ('Item', 'plain', NULL, NULL, NULL, NULL), ('Order', 'o2', '4', 10, false, 1), ('Order', 'o3', '3', 20, false, 2),
              ('Order', 'o4', '5', 30, true, 3), ('Order', 'o5', '2', NULL, false, 3);
            """)
        #expect(sqlite.status == 0, "\(sqlite.stderr)")
        #expect(postgres.status == 0, "\(postgres.stderr)")
        for line in ["mapped Person from Author:", "mapped Company from Author:", "mapped Order from Order:"] {
            let onSQLite = sqlite.stdout.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(line) }
            #expect(onSQLite != nil, "\(sqlite.stdout)\n---\n\(postgres.stdout)")
            #expect(postgres.stdout.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(line) } == onSQLite,
                    "\(postgres.stdout)")
        }
        let queries = [
            #"SELECT "_pk" || ' ' || "name" FROM "Person" ORDER BY "_pk""#,
            #"SELECT "_pk" || ' ' || "name" FROM "Company" ORDER BY "_pk""#,
            #"SELECT "_pk" || ' ' || "_entity" || ' ' || "name" || ' ' || coalesce("rating", -1) || ' ' || coalesce("author", 0) FROM "Item" ORDER BY "_pk""#,
        ]
        let expected = [["1 Ann", "3 Bob"], ["2 Acme"], ["1 Item plain -1 0", "2 Order o2 4 1", "3 Order o3 3 0", "5 Order o5 2 3"]]
        for (query, rows) in zip(queries, expected) {
            let onSQLite = try E2E.rows(store, query)
            #expect(onSQLite == rows, "\(query)")
            let onPostgres = try Self.pg(schema, query)
            #expect(onPostgres == onSQLite, "\(query)")
        }
        for table in ["Person", "Company"] {
            try E2E.execute(store, #"INSERT INTO "\#(table)" ("name") VALUES ('New')"#)
            let next = try Self.pg(schema, #"INSERT INTO "\#(table)" ("name") VALUES ('New') RETURNING "_pk""#)
            #expect(next.first == (try E2E.rows(store, #"SELECT max("_pk") FROM "\#(table)""#)).first, "\(table): new objects get the same IDs")
        }
    }

    @Test func anEntityLeavingItsHierarchyMovesItsRowsKeepingTheirIDs() throws {
        let v1 = """
            version: 1
            entities:
              Item:
                attributes:
                  name: { type: string }
              Order:
                parent: Item
                attributes:
                  total: { type: int64 }
                relationships:
                  lines: { destination: Line, toMany: true, inverse: order }
              Line:
                attributes:
                  qty: { type: int16 }
                relationships:
                  order: { destination: Order, inverse: lines }
            """
        let v2 = v1.replacingOccurrences(of: "version: 1", with: "version: 2")
            .replacingOccurrences(of: "    parent: Item\n    attributes:\n", with: "    attributes:\n      name: { type: string }\n")
        let (dir, store) = try MappingProject.project(v1: v1, v2: v2, files: [:], name: "pgleave")
        try E2E.execute(store, """
            INSERT INTO "Item" ("_pk", "_entity", "name", "total") VALUES (1, 'Item', 'i1', NULL), (2, 'Order', 'o2', 20), (3, 'Item', 'i3', NULL), (4, 'Order', 'o4', 40);
            INSERT INTO "Line" ("_pk", "qty", "order") VALUES (1, 1, 2), (2, 2, 4), (3, 3, NULL);
            """)
        let (schema, sqlite, postgres) = try Self.migrateBoth(dir, rows: """
            INSERT INTO "Item" ("_entity", "name", "total") VALUES ('Item', 'i1', NULL), ('Order', 'o2', 20), ('Item', 'i3', NULL), ('Order', 'o4', 40);
            INSERT INTO "Line" ("qty", "order") VALUES (1, 2), (2, 4), (3, NULL);
            """)
        #expect(sqlite.status == 0, "\(sqlite.stderr)")
        #expect(postgres.status == 0, "\(postgres.stderr)")
        let queries = [
            #"SELECT "_pk" || ' ' || "name" FROM "Item" ORDER BY "_pk""#,
            #"SELECT "_pk" || ' ' || "name" || ' ' || "total" FROM "Order" ORDER BY "_pk""#,
            #"SELECT "_pk" || ' ' || "qty" || ' ' || coalesce("order", 0) FROM "Line" ORDER BY "_pk""#,
        ]
        let expected = [["1 i1", "3 i3"], ["2 o2 20", "4 o4 40"], ["1 1 2", "2 2 4", "3 3 0"]]
        for (query, rows) in zip(queries, expected) {
            let onSQLite = try E2E.rows(store, query)
            #expect(onSQLite == rows, "\(query)")
            let onPostgres = try Self.pg(schema, query)
            #expect(onPostgres == onSQLite, "\(query)")
        }
    }
}
