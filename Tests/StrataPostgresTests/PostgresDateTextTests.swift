import Foundation
import StrataCore
@testable import StrataPostgres
import StrataTestSupport
import Testing

/// PostgreSQL's `date(text)` (`PostgresRenderer.isoSeconds`) reads what its `string(date)` writes, over the whole
/// range (4713 BC to 294276 AD), as `DateText.parse` does on SQLite: it read four-digit years only, so the text of
/// a date before year 0 or past 9999 converted to nil.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresDateTextTests {
    /// `SELECT string(x), date(string(x)), date(t)` over `(i, x, t)` rows, in order.
    static func convert(_ rows: [(seconds: Double, text: String)]) async throws -> [(String?, Double?, Double?)] {
        let session = try await PostgresSession.connect(try PostgresStoreURL(parsing: PostgresTestServer.url()))
        defer { Task { await session.close() } }
        let x = ColumnName("x", qualifier: "v"), t = ColumnName("t", qualifier: "v")
        let cast = { (value: SQLText, from: String, to: String) in SQLText.strata(.cast, [value, .bind(.text(from)), .bind(.text(to))]) }
        let values = rows.enumerated().map { i, row -> SQLText in
            "(\(Int64(i)), CAST(\(Value.real(row.seconds)) AS double precision), CAST(\(Value.text(row.text)) AS text))"
        }
        let query: SQLText = "SELECT " + cast("\(x)", "date", "string") + ", " + cast(cast("\(x)", "date", "string"), "string", "date")
            + ", " + cast("\(t)", "string", "date") + " FROM (VALUES " + values.joined(separator: ", ") + ") AS v(i, x, t) ORDER BY v.i"
        return try await session.rows(query).map {
            (try PostgresSession.decode($0[0], as: String?.self, statement: query), try PostgresSession.decode($0[1], as: Double?.self, statement: query),
             try PostgresSession.decode($0[2], as: Double?.self, statement: query))
        }
    }

    /// A sweep 365 days and 1 h 1.25 s apart over the whole range (every year from -4713 to 294276), in batches.
    @Test func everyWrittenDateReadsBack() async throws {
        var rows: [(seconds: Double, text: String)] = []
        var seconds = DateText.writable.lowerBound + 0.25
        while seconds < DateText.writable.upperBound {
            rows.append((seconds, DateText.format(seconds)))
            seconds += 86_400 * 365 + 3_601.25
        }
        rows += [(DateText.writable.lowerBound, "-4713-11-24T00:00:00Z"), (9_224_318_015_999, "294276-12-31T23:59:59Z"),
                 (-62_167_219_200, "0000-01-01T00:00:00Z"), (253_402_300_800, "10000-01-01T00:00:00Z")]
        var mismatches: [String] = []
        for start in stride(from: 0, to: rows.count, by: 20_000) {
            let batch = Array(rows[start..<min(start + 20_000, rows.count)])
            for (row, (text, back, read)) in zip(batch, try await Self.convert(batch)) where text != row.text || back != row.seconds || read != row.seconds {
                mismatches.append("\(row.text): \(text ?? "nil") \(back.map { "\($0)" } ?? "nil") \(read.map { "\($0)" } ?? "nil")")
            }
        }
        #expect(rows.count == 299_158)
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    /// Texts `DateText.parse` reads or refuses give the same seconds or nil.
    @Test func readsWhatDateTextReads() async throws {
        let texts = ["-4713-11-24", "-4713-11-24T05:00:00+05:00", "-4000-02-29T12:00:00Z", "-0001-12-31T23:59:59Z", "0000-02-29",
                     "9999-12-31T23:59:59.500Z", "10000-01-01T01:00:00+01:00", "100000-03-01", "294276-12-31T23:59:59.999Z",
                     "-4713-11-23T23:59:59Z", "-4713-11-24T00:00:00+00:01", "294277-01-01", "294276-12-31T23:59:59-00:01", "-10000-01-01",
                     "999999-12-31", "-0001-02-29", "-0100-02-29", "10000-02-30", "10000-01-01T00:00:00+18:01", "-0000-01-01",
                     "02024-01-01", "+2024-01-01", "1000000-01-01", "024-01-01", "--2024-01-01", "-", "2024-02-30", "2024-05-01T24:00:00Z"]
        let read = try await Self.convert(texts.map { (0, $0) }).map(\.2)
        #expect(read.count == texts.count)
        for (text, seconds) in zip(texts, read) { #expect(seconds == DateText.parse(text), "\(text)") }
        #expect(read.prefix(9).allSatisfy { $0 != nil } && read.dropFirst(9).allSatisfy { $0 == nil })
    }
}
