import Foundation
import StrataTestSupport
import Testing

/// `strata batch update|delete` breaking a constraint the server enforces, on SQLite and PostgreSQL with the same
/// model and request: the same `BatchError.violation` (uniqueness 1551, dangling reference 1700), exit 3, the
/// same error line (the store name aside), nothing written.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresBatchViolationCLITests {
    static let model = """
        version: 1
        entities:
          Chef:
            attributes:
              name:  { type: string }
              email: { type: string }
            relationships:
              recipes: { destination: Recipe, toMany: true, inverse: author, deleteRule: nullify }
            uniqueness: [[email]]
          Recipe:
            attributes:
              title: { type: string }
            relationships:
              author: { destination: Chef, inverse: recipes, deleteRule: nullify }
        """

    /// Both stores at version 1 with the same rows: (project, PostgreSQL URL, schema).
    static func stores() throws -> (dir: String, url: String, schema: String) {
        let dir = Temporary.directory("batchviolation")
        try FileManager.default.createDirectory(atPath: dir + "/models", withIntermediateDirectories: true)
        try model.write(toFile: dir + "/models/1.yaml", atomically: true, encoding: .utf8)
        let schema = "t_" + UUID().uuidString.prefix(8).lowercased()
        let url = PostgresTestServer.url(schema: schema)
        for store in [url, "app.sqlite"] {
            let created = try CLI.run(["migrate", "--create", "--store", store], in: dir)
            precondition(created.status == 0, created.stderr)
        }
        let rows = """
            INSERT INTO %"Chef" ("name", "email") VALUES ('Ada', 'ada@x'), ('Bo', 'bo@x');
            INSERT INTO %"Recipe" ("title", "author") VALUES ('Soup', 1), ('Stew', 2)
            """
        _ = try PostgresTestServer.psql(rows.replacingOccurrences(of: "%", with: "\"\(schema)\"."))
        try E2E.execute(dir + "/app.sqlite", rows.replacingOccurrences(of: "%", with: ""))
        return (dir, url, schema)
    }

    static let rows = [
        #"SELECT "_pk" || ' ' || "name" || ' ' || "email" FROM %"Chef" ORDER BY "_pk""#,
        #"SELECT "_pk" || ' ' || "title" || ' ' || coalesce("author", 0) FROM %"Recipe" ORDER BY "_pk""#,
    ]

    /// Runs `arguments` on both stores and checks the outcome is the same violation with nothing written.
    func expectSameViolation(_ arguments: [String], code: Int, line: String, userTable: Bool = false) throws {
        let (dir, url, schema) = try Self.stores()
        if userTable {
            let table = #"CREATE TABLE %"Note" ("chef" bigint REFERENCES %"Chef" ("_pk")); INSERT INTO %"Note" VALUES (1)"#
            _ = try PostgresTestServer.psql(table.replacingOccurrences(of: "%", with: "\"\(schema)\"."))
            try E2E.execute(dir + "/app.sqlite", table.replacingOccurrences(of: "%", with: ""))
        }
        let sqlite = try CLI.run(["batch"] + arguments + ["--store", "app.sqlite"], in: dir)
        let postgres = try CLI.run(["batch"] + arguments + ["--store", url], in: dir)
        #expect(sqlite.status == 3, "\(sqlite.stderr)")
        #expect(postgres.status == 3, "\(postgres.stderr)")
        #expect(sqlite.stderr.contains(line), "\(sqlite.stderr)")
        #expect(postgres.stderr == sqlite.stderr.replacingOccurrences(of: "app.sqlite", with: url))
        #expect(sqlite.stderr.contains("(\(code))"), "\(sqlite.stderr)")
        for query in Self.rows {
            let before = try E2E.rows(dir + "/app.sqlite", query.replacingOccurrences(of: "%", with: ""))
            let pg = try PostgresTestServer.psql(query.replacingOccurrences(of: "%", with: "\"\(schema)\".")).split(separator: "\n").map(String.init)
            #expect(pg == before)
        }
        #expect(try E2E.rows(dir + "/app.sqlite", Self.rows[0].replacingOccurrences(of: "%", with: "")) == ["1 Ada ada@x", "2 Bo bo@x"])
        #expect(try E2E.rows(dir + "/app.sqlite", Self.rows[1].replacingOccurrences(of: "%", with: "")) == ["1 Soup 1", "2 Stew 2"])
    }

    @Test func anUpdateBreakingUniquenessIs1551OnBothEngines() throws {
        try expectSameViolation(["update", "--entity", "Chef", "--set", "email=same@x"], code: 1551,
                                line: "error: the batch would break a uniqueness constraint: UNIQUE constraint failed: Chef.email (1551)")
    }

    /// A table of the user's own references Chef: deleting a chef it names breaks its foreign key.
    @Test func aDeleteLeavingAUserRowDanglingIs1700OnBothEngines() throws {
        try expectSameViolation(["delete", "--entity", "Chef", "--where", "name == 'Ada'"], code: 1700,
                                line: "error: the batch would leave a dangling reference: FOREIGN KEY constraint failed (1700)",
                                userTable: true)
    }
}
