import Foundation
import Testing
@testable import Strata

/// `DateText.utc` (the report's `now`, history timestamps, the lock file's `since`, `string()` of a date, the
/// audit's dates) writes what `ISO8601DateFormatter` writes from 1582-10-15 to 9999, and proleptic Gregorian
/// dates before it, where the formatter switches to the Julian calendar.
@Suite struct DateTextFormatTests {
    @Test(arguments: [
        (0.0, "1970-01-01T00:00:00.000Z"),
        (-0.5, "1969-12-31T23:59:59.500Z"),
        (1_748_736_000.123456, "2025-06-01T00:00:00.123Z"),
        (1_748_736_000.9999, "2025-06-01T00:00:01.000Z"),
        (1_709_208_000.25, "2024-02-29T12:00:00.250Z"),
        (951_868_800.001, "2000-03-01T00:00:00.001Z"),
        (-12_219_292_800.0, "1582-10-15T00:00:00.000Z"),
    ])
    func milliseconds(seconds: Double, expected: String) {
        #expect(DateText.utc(seconds, milliseconds: true) == expected)
    }

    @Test(arguments: [
        (-1.0, "1969-12-31T23:59:59Z"),
        (1.7, "1970-01-01T00:00:01Z"),
        (-1.7, "1969-12-31T23:59:58Z"),
        (1e11, "5138-11-16T09:46:40Z"),
        (4_107_542_399.0, "2100-02-28T23:59:59Z"),
        (253_402_300_798.0, "9999-12-31T23:59:58Z"),
        (1_748_736_000.9996, "2025-06-01T00:00:01Z"),
        (-0.0004, "1970-01-01T00:00:00Z"),
        (-0.0006, "1969-12-31T23:59:59Z"),
    ])
    func wholeSeconds(seconds: Double, expected: String) {
        #expect(DateText.utc(seconds, milliseconds: false) == expected)
    }

    /// Proleptic Gregorian for every date: before 1582-10-15 the formatter wrote Julian dates (1000-06-15 as
    /// 1000-06-09, 0001-01-01 as 0001-01-03). Years are astronomical with at least four digits; the extremes
    /// are timestamptz's first instant and the last second before its end (`DateText.writable`).
    @Test(arguments: [
        (-62_135_596_800.0, "0001-01-01T00:00:00Z"),
        (-30_595_968_000.0, "1000-06-15T00:00:00Z"),
        (-24_298_876_800.0, "1200-01-01T00:00:00Z"),
        (-12_220_243_200.0, "1582-10-04T00:00:00Z"),
        (-12_219_292_800.0, "1582-10-15T00:00:00Z"),
        (0.0, "1970-01-01T00:00:00Z"),
        (1_709_164_800.0, "2024-02-29T00:00:00Z"),
        (253_402_214_400.0, "9999-12-31T00:00:00Z"),
        (-62_167_219_200.0, "0000-01-01T00:00:00Z"),
        (-62_167_305_600.0, "-0001-12-31T00:00:00Z"),
        (-210_866_803_200.0, "-4713-11-24T00:00:00Z"),
        (253_402_300_800.5, "10000-01-01T00:00:00.500Z"),
        (9_224_318_015_999.0, "294276-12-31T23:59:59Z"),
    ])
    func prolepticGregorian(seconds: Double, expected: String) {
        #expect(DateText.format(seconds) == expected)
        #expect(DateText.utc(seconds, milliseconds: false) == expected.replacingOccurrences(of: ".500", with: ""))
        if expected.first != "-", expected.count == 20 { #expect(DateText.parse(expected) == seconds) }
    }

    /// Past any calendar (or not finite) the number itself is written, not a date; nothing traps.
    @Test(arguments: [(9e15, "9000000000000000.0"), (-1e300, "-1e+300"), (.infinity, "inf"), (.nan, "nan")])
    func beyondAnyCalendarIsTheNumber(seconds: Double, expected: String) {
        #expect(DateText.utc(seconds, milliseconds: true) == expected)
    }

    /// Every day parse reads (0000-01-01 to 9999-12-31) writes back as the same text and reads back as the
    /// same seconds; a sweep 7 days and 1 h 1 s apart, with a millisecond fraction.
    @Test func parseAndFormatRoundTripFromYear0To9999() {
        var seconds = -62_167_219_200.0 + 0.25
        var mismatches: [String] = []
        while seconds < 253_402_300_800 {
            let text = DateText.format(seconds)
            if DateText.parse(text) != seconds || DateText.format(DateText.parse(text) ?? .nan) != text { mismatches.append(text) }
            seconds += 86_400 * 7 + 3_601
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    /// A sweep over four centuries after the Gregorian reform, 13 days and 1 h 37 ms apart, against the formatter (the sum drifts
    /// off whole milliseconds, which tests the rounding; no value falls on exactly half a millisecond).
    @Test func agreesWithTheFormatterAcrossCenturies() {
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let whole = ISO8601DateFormatter()
        var seconds = -5_000_000_000.0 + 0.123   // 1811
        var mismatches: [String] = []
        while seconds < 8_000_000_000 {
            let date = Date(timeIntervalSince1970: seconds)
            if DateText.utc(seconds, milliseconds: true) != fractional.string(from: date)
                || DateText.utc(seconds, milliseconds: false) != whole.string(from: date) {
                mismatches.append("\(seconds)")
            }
            seconds += 86_400 * 13 + 3_601.037
        }
        #expect(mismatches.isEmpty)
    }

    @Test func formatKeepsMillisecondsOnlyForAFraction() {
        #expect(DateText.format(1_748_736_000) == "2025-06-01T00:00:00Z")
        #expect(DateText.format(1_748_736_000.5) == "2025-06-01T00:00:00.500Z")
        #expect(DateText.parse(DateText.format(1_748_736_000.5)) == 1_748_736_000.5)
    }
}
