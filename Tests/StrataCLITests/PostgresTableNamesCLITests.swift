import Foundation
import GRDB
import StrataTestSupport
import Testing

/// Tables taking a name another table holds during the step (issue 18), run by the `strata` binary on SQLite and
/// on PostgreSQL with the same rows: a new table named like the table the step drops, and two tables swapping
/// names (each goes by a temporary name until both have their own).
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresTableNamesCLITests {
    static func run(v1: String, v2: String, sqliteRows: String, postgresRows: String, queries: [String], expected: [[String]]) throws {
        let (dir, store) = try MappingProject.project(v1: v1, v2: v2, files: [:], name: "pgnames")
        try E2E.execute(store, sqliteRows)
        let (schema, sqlite, postgres) = try PostgresMappingSplitCLITests.migrateBoth(dir, rows: postgresRows)
        #expect(sqlite.status == 0, "\(sqlite.stderr)")
        #expect(postgres.status == 0, "\(postgres.stderr)")
        for (query, rows) in zip(queries, expected) {
            let onSQLite = try E2E.rows(store, query)
            #expect(onSQLite == rows, "\(query)")
            let onPostgres = try PostgresMappingSplitCLITests.pg(schema, query)
            #expect(onPostgres == onSQLite, "\(query)")
        }
    }

    @Test func aNewTableTakesTheNameOfTheTableTheStepDrops() throws {
        try Self.run(
            v1: "version: 1\nentities:\n  Old:\n    table: T\n    attributes:\n      x: { type: string }\n  Other:\n    attributes:\n      y: { type: string }\n",
            v2: "version: 2\nentities:\n  Other:\n    attributes:\n      y: { type: string }\n  Fresh:\n    table: T\n    attributes:\n      z: { type: string }\n",
            sqliteRows: #"INSERT INTO "T" ("_pk", "x") VALUES (1, 'a'), (2, 'b'); INSERT INTO "Other" ("_pk", "y") VALUES (1, 'o');"#,
            postgresRows: #"INSERT INTO "T" ("x") VALUES ('a'), ('b'); INSERT INTO "Other" ("y") VALUES ('o');"#,
            queries: [#"SELECT count(*) FROM "T""#, #"SELECT "_pk" || ' ' || "y" FROM "Other""#],
            expected: [["0"], ["1 o"]])
    }

    @Test func twoTablesSwapNamesKeepingTheirRows() throws {
        try Self.run(
            v1: "version: 1\nentities:\n  A:\n    table: TA\n    attributes:\n      a: { type: string }\n  B:\n    table: TB\n    attributes:\n      b: { type: string }\n",
            v2: "version: 2\nentities:\n  A:\n    table: TB\n    attributes:\n      a: { type: string }\n  B:\n    table: TA\n    attributes:\n      b: { type: string }\n",
            sqliteRows: #"INSERT INTO "TA" ("_pk", "a") VALUES (1, 'a1'), (2, 'a2'); INSERT INTO "TB" ("_pk", "b") VALUES (1, 'b1');"#,
            postgresRows: #"INSERT INTO "TA" ("a") VALUES ('a1'), ('a2'); INSERT INTO "TB" ("b") VALUES ('b1');"#,
            queries: [#"SELECT "_pk" || ' ' || "a" FROM "TB" ORDER BY "_pk""#, #"SELECT "_pk" || ' ' || "b" FROM "TA" ORDER BY "_pk""#],
            expected: [["1 a1", "2 a2"], ["1 b1"]])
    }
}

extension PostgresTableNamesCLITests {
    /// `Book.author` kept by name while its destination `Author` is removed (SPEC §4: the relationship removed and
    /// added, its links dropped): the column is removed and added under one name.
    @Test func aToOneWhoseDestinationIsRemovedLosesItsLinksInPlace() throws {
        let v1 = """
            version: 1
            entities:
              Author:
                attributes:
                  name: { type: string }
              Book:
                attributes:
                  title: { type: string }
                relationships:
                  author: { destination: Author }
            """
        let v2 = """
            version: 2
            entities:
              Person:
                attributes:
                  name: { type: string }
              Book:
                attributes:
                  title: { type: string }
                relationships:
                  author: { destination: Person }
            """
        try Self.run(
            v1: v1, v2: v2,
            sqliteRows: #"INSERT INTO "Author" ("_pk", "name") VALUES (1, 'Ann'); INSERT INTO "Book" ("_pk", "title", "author") VALUES (1, 'b1', 1), (2, 'b2', NULL);"#,
            postgresRows: #"INSERT INTO "Author" ("name") VALUES ('Ann'); INSERT INTO "Book" ("title", "author") VALUES ('b1', 1), ('b2', NULL);"#,
            queries: [#"SELECT "_pk" || ' ' || "title" || ' ' || coalesce("author", 0) FROM "Book" ORDER BY "_pk""#, #"SELECT count(*) FROM "Person""#],
            expected: [["1 b1 0", "2 b2 0"], ["0"]])
    }
}

extension PostgresTableNamesCLITests {
    /// An entity renamed so that the other side of a many-to-many sorts first: the join table is renamed and its
    /// `source` and `target` columns swap names (its primary key with them).
    @Test func aJoinTableWhoseSidesSwapKeepsItsLinks() throws {
        let v1 = """
            version: 1
            entities:
              Apple:
                attributes:
                  name: { type: string }
                relationships:
                  tags: { destination: Tag, toMany: true, inverse: apples }
              Tag:
                attributes:
                  label: { type: string }
                relationships:
                  apples: { destination: Apple, toMany: true, inverse: tags }
            """
        let v2 = """
            version: 2
            entities:
              Zebra:
                renamedFrom: Apple
                attributes:
                  name: { type: string }
                relationships:
                  tags: { destination: Tag, toMany: true, inverse: apples }
              Tag:
                attributes:
                  label: { type: string }
                relationships:
                  apples: { destination: Zebra, toMany: true, inverse: tags }
            """
        try Self.run(
            v1: v1, v2: v2,
            sqliteRows: #"INSERT INTO "Apple" ("_pk", "name") VALUES (1, 'a1'), (2, 'a2'); INSERT INTO "Tag" ("_pk", "label") VALUES (1, 't1'), (2, 't2'), (3, 't3'); INSERT INTO "_Apple_tags" ("source", "target") VALUES (1, 2), (1, 3), (2, 3);"#,
            postgresRows: #"INSERT INTO "Apple" ("name") VALUES ('a1'), ('a2'); INSERT INTO "Tag" ("label") VALUES ('t1'), ('t2'), ('t3'); INSERT INTO "_Apple_tags" ("source", "target") VALUES (1, 2), (1, 3), (2, 3);"#,
            queries: [#"SELECT "source" || ' ' || "target" FROM "_Tag_apples" ORDER BY 1"#, #"SELECT "_pk" || ' ' || "name" FROM "Zebra" ORDER BY 1"#],
            expected: [["2 1", "3 1", "3 2"], ["1 a1", "2 a2"]])
    }
}
