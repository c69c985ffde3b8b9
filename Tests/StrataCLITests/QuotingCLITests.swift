import Foundation
import Testing
import StrataTestSupport

/// A quote followed by a combining mark in a model's string default: the `ALTER TABLE … ADD COLUMN … DEFAULT`
/// literal doubled only quotes standing alone, so the step failed (exit 1, rolled back) with SQLite's syntax error.
@Suite struct QuotingCLITests {
    @Test func aDefaultWithAQuoteBeforeACombiningMarkIsAdded() throws {
        let dir = Temporary.directory("quoting")
        try FileManager.default.createDirectory(atPath: dir + "/models", withIntermediateDirectories: true)
        let v1 = "version: 1\nentities:\n  Note:\n    attributes:\n      title: { type: string }\n"
        let value = "it'\u{301}s'); DROP TABLE \"Note\"; --"
        let v2 = v1.replacingOccurrences(of: "version: 1", with: "version: 2")
            + "      tag: { type: string, default: \"it'\u{301}s'); DROP TABLE \\\"Note\\\"; --\" }\n"
        try v1.write(toFile: dir + "/models/1.yaml", atomically: true, encoding: .utf8)
        try v2.write(toFile: dir + "/models/2.yaml", atomically: true, encoding: .utf8)
        let create = try CLI.run(["migrate", "--create", "--to", "1", "--store", "s.sqlite"], in: dir)
        #expect(create.status == 0, "\(create.stderr)")
        try E2E.execute(dir + "/s.sqlite", #"INSERT INTO "Note" ("title") VALUES ('kept')"#)
        let migrate = try CLI.run(["migrate", "--store", "s.sqlite"], in: dir)
        #expect(migrate.status == 0, "\(migrate.stderr)")
        #expect(migrate.stderr == "")
        let rows = try E2E.rows(dir + "/s.sqlite", #"SELECT "title" || '|' || "tag" FROM "Note""#)
        #expect(rows.map { Array($0.unicodeScalars) } == [Array(("kept|" + value).unicodeScalars)])
    }
}
