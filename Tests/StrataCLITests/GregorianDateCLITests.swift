import Foundation
import StrataTestSupport
import Testing

/// Dates before the Gregorian reform (1582-10-15) were stored from proleptic Gregorian text but written back
/// as Julian-calendar text (Foundation's formatter): `string()` of 1000-06-15 was `1000-06-09T00:00:00Z`, the
/// audit showed `min: "1200-01-01"` as 1199-12-25 and `--now 0001-01-01` was 0001-01-03. Both engines write
/// proleptic Gregorian, astronomical years (0000 is 1 BC, -0001 2 BC).
@Suite struct GregorianDateCLITests {
    /// The dates `string()` writes on SQLite, by `_pk`: set through `--set`, or stored as seconds.
    static let seconds: [(set: String?, seconds: Int64, text: String)] = [
        ("0001-01-01", -62_135_596_800, "0001-01-01T00:00:00Z"), ("1000-06-15", -30_595_968_000, "1000-06-15T00:00:00Z"),
        ("1582-10-04", -12_220_243_200, "1582-10-04T00:00:00Z"), ("1582-10-15", -12_219_292_800, "1582-10-15T00:00:00Z"),
        ("2024-02-29", 1_709_164_800, "2024-02-29T00:00:00Z"), ("9999-12-31", 253_402_214_400, "9999-12-31T00:00:00Z"),
        (nil, -62_167_219_200, "0000-01-01T00:00:00Z"), (nil, -210_866_803_200, "-4713-11-24T00:00:00Z"),
        (nil, 9_224_318_015_999, "294276-12-31T23:59:59Z"),
    ]

    /// Rows r1… as VALUES, `lastUsed` the stored seconds (through `date`) where no `--set` writes it.
    static func values(_ date: (Int64) -> String, _ no: String) -> String {
        seconds.enumerated().map { i, row in "('r\(i + 1)', \(row.set == nil ? date(row.seconds) : "NULL"), 0, \(no))" }.joined(separator: ", ")
    }

    /// `batch update --set lastUsed=…` for each row that has a text.
    static func setDates(_ project: String, store: String) throws {
        for (i, row) in seconds.enumerated() {
            guard let date = row.set else { continue }
            let run = try CLI.run(["batch", "update", "--entity", "Recipe", "--where", "name == %@", "--arg", "r\(i + 1)",
                                   "--set", "lastUsed=" + date, "--store", store], in: project)
            #expect(run.status == 0 && run.stdout == "1\n", "\(run.stderr)")
        }
    }

    /// An example store holding a recipe `r1`, `r2`, … per row of `seconds`, `lastUsed` its seconds.
    static func store() throws -> (project: String, path: String) {
        let project = try CLI.exampleProject()
        let path = project + "/app.sqlite"
        #expect(try CLI.run(["migrate", "--create", "--store", path], in: project).status == 0)
        try E2E.execute(path, "INSERT INTO Recipe (name, lastUsed, rating, favorite) VALUES " + Self.values({ String($0) }, "0"))
        return (project, path)
    }

    /// `lastUsed` of every recipe, as integers in one line.
    static func storedSeconds(_ path: String) throws -> [String] {
        try E2E.rows(path, "SELECT group_concat(CAST(lastUsed AS INTEGER), ',') FROM (SELECT lastUsed FROM Recipe ORDER BY _pk)")
    }

    @Test func stringOfAnEarlyDateIsProlepticGregorian() throws {
        let (project, path) = try Self.store()
        try Self.setDates(project, store: path)
        #expect(try Self.storedSeconds(path) == [Self.seconds.map { String($0.seconds) }.joined(separator: ",")])
        let run = try CLI.run(["batch", "update", "--entity", "Recipe", "--set-expr", "notes=string(lastUsed)", "--store", path], in: project)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try E2E.rows(path, "SELECT notes FROM Recipe ORDER BY _pk") == Self.seconds.map(\.text))
    }

    /// What `string()` writes reads back, through `--set` and through `date()`: years before 0 and past 9999
    /// were refused by `--set` (exit 2) and `date(string(lastUsed))` was nil.
    static func readBack(_ project: String, store: String) throws {
        for (i, row) in seconds.enumerated() {
            let run = try CLI.run(["batch", "update", "--entity", "Recipe", "--where", "name == %@", "--arg", "r\(i + 1)",
                                   "--set", "lastUsed=" + row.text, "--store", store], in: project)
            #expect(run.status == 0 && run.stdout == "1\n", "\(row.text): \(run.stderr)")
        }
        let run = try CLI.run(["batch", "update", "--entity", "Recipe", "--where", "date(string(lastUsed)) == lastUsed",
                               "--set-expr", "notes=string(date(string(lastUsed)))", "--store", store], in: project)
        #expect(run.status == 0 && run.stdout == "\(seconds.count)\n", "\(run.stderr)")
    }

    @Test func whatStringWritesReadsBack() throws {
        let (project, path) = try Self.store()
        try Self.readBack(project, store: path)
        #expect(try Self.storedSeconds(path) == [Self.seconds.map { String($0.seconds) }.joined(separator: ",")])
        #expect(try E2E.rows(path, "SELECT notes FROM Recipe ORDER BY _pk") == Self.seconds.map(\.text))
        let outside = try CLI.run(["batch", "update", "--entity", "Recipe", "--set", "lastUsed=-4713-11-23T23:59:59Z", "--store", path], in: project)
        #expect(outside.status == 2)
        #expect(outside.stderr.contains("'-4713-11-23T23:59:59Z' is not a valid ISO 8601 date: it is outside the dates Strata holds, "
                                        + "-4713-11-24T00:00:00Z (4713 BC) to 294276-12-31T23:59:59Z"), "\(outside.stderr)")
    }

    /// The run's `$NOW` in the JSON report: 0001-01-03 before.
    @Test func nowBeforeTheReformIsWrittenAsGiven() throws {
        let project = try CLI.exampleProject()
        let run = try CLI.run(["migrate", "--create", "--dry-run", "--now", "0001-01-01", "--format", "json", "--store", "app.sqlite"], in: project)
        #expect(run.status == 0, "\(run.stderr)")
        #expect((try CLI.json(run.stdout)["migration"] as? [String: Any])?["now"] as? String == "0001-01-01T00:00:00Z")
    }

    /// A model's `min: "1200-01-01"` in the audit: 1199-12-25 before.
    @Test func anEarlyBoundIsShownAsWritten() throws {
        let model = "version: 1\nentities:\n  Item:\n    attributes:\n      when: { type: date, min: \"1200-01-01\" }\n"
        let dir = try CLI.project("gregorian-audit", models: ["1.yaml": model])
        #expect(try CLI.run(["migrate", "--create", "--store", "s.sqlite"], in: dir).status == 0)
        try E2E.execute(dir + "/s.sqlite", #"INSERT INTO "Item" ("when") VALUES (-30595968000)"#)
        let run = try CLI.run(["audit", "--store", "s.sqlite"], in: dir)
        #expect(run.status == 3)
        #expect(run.stdout.contains("1200-01-01T00:00:00Z") && run.stdout.contains("1000-06-15T00:00:00Z"), "\(run.stdout)")
        #expect(!run.stdout.contains("1199-12-25") && !run.stdout.contains("1000-06-09"), "\(run.stdout)")
    }
}

/// PostgreSQL writes `string()` of the same dates as SQLite (to_char wrote 1 BC as 0001).
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresGregorianDateCLITests {
    /// An example store in a schema of its own, a recipe per row of `seconds`; its URL and schema.
    static func store(_ project: String) throws -> (url: String, schema: String) {
        let schema = "t_" + UUID().uuidString.prefix(8).lowercased()
        let url = PostgresTestServer.url(schema: schema)
        #expect(try CLI.run(["migrate", "--create", "--store", url], in: project).status == 0)
        _ = try PostgresTestServer.psql(#"INSERT INTO \#(schema)."Recipe" ("name", "lastUsed", "rating", "favorite") VALUES "#
                                        + GregorianDateCLITests.values({ "to_timestamp(\($0))" }, "false"))
        return (url, schema)
    }

    /// The notes and the `lastUsed` seconds of every recipe are the texts and seconds of `seconds`.
    static func expectNotesAndSeconds(_ schema: String) throws {
        let notes = try PostgresTestServer.psql(#"SELECT string_agg("notes", ',' ORDER BY "_pk") FROM \#(schema)."Recipe""#)
        #expect(notes == GregorianDateCLITests.seconds.map(\.text).joined(separator: ","), "\(notes)")
        #expect(try PostgresTestServer.psql(#"SELECT string_agg(CAST(extract(epoch FROM "lastUsed") AS bigint)::text, ',' ORDER BY "_pk") FROM \#(schema)."Recipe""#)
                == GregorianDateCLITests.seconds.map { String($0.seconds) }.joined(separator: ","))
    }

    @Test func stringOfAnEarlyDateMatchesSQLite() throws {
        let project = try CLI.exampleProject()
        let (url, schema) = try Self.store(project)
        try GregorianDateCLITests.setDates(project, store: url)
        let run = try CLI.run(["batch", "update", "--entity", "Recipe", "--set-expr", "notes=string(lastUsed)", "--store", url], in: project)
        #expect(run.status == 0, "\(run.stderr)")
        try Self.expectNotesAndSeconds(schema)
    }

    @Test func whatStringWritesReadsBack() throws {
        let project = try CLI.exampleProject()
        let (url, schema) = try Self.store(project)
        try GregorianDateCLITests.readBack(project, store: url)
        try Self.expectNotesAndSeconds(schema)
    }
}
