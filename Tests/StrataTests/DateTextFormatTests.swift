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

    /// Every instant `utc` writes (4713 BC to 294276 AD) reads back as the same seconds, and as the same text:
    /// `parse` read four-digit years only, so `date(string(d))` failed before year 0 and past 9999. A sweep of
    /// 365 days and 1 h 1.25 s apart over the whole range (299,000 dates, from -4713 to 294276).
    @Test func everyWrittenDateReadsBack() {
        var seconds = DateText.writable.lowerBound + 0.25
        var mismatches: [String] = [], years = Set<Int>()
        while seconds < DateText.writable.upperBound {
            let text = DateText.format(seconds)
            if DateText.parse(text) != seconds || DateText.format(DateText.parse(text) ?? .nan) != text { mismatches.append(text) }
            let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
            years.insert(Int(digits.prefix { $0 != "-" })! * (text.hasPrefix("-") ? -1 : 1))
            seconds += 86_400 * 365 + 3_601.25
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
        #expect(years.min() == -4713 && years.max() == 294_276 && years.count > 298_000 && years.isSuperset(of: [-1, 0, 9999, 10000, 100000]))
    }

    /// The extremes and the years where the digits change, as text and seconds.
    @Test(arguments: [
        ("-4713-11-24T00:00:00Z", -210_866_803_200.0), ("-4713-11-24", -210_866_803_200), ("-4000-02-29T12:00:00Z", -188_389_886_400),
        ("-0001-12-31T23:59:59Z", -62_167_219_201), ("0000-01-01T00:00:00Z", -62_167_219_200), ("0000-02-29", -62_162_121_600),
        ("9999-12-31T23:59:59.500Z", 253_402_300_799.5), ("10000-01-01T00:00:00Z", 253_402_300_800),
        ("10000-01-01T01:00:00+01:00", 253_402_300_800), ("100000-03-01", 3_093_533_164_800),
        ("294276-12-31T23:59:59Z", 9_224_318_015_999), ("294276-12-31T23:59:59.999Z", 9_224_318_015_999.999),
        ("-4713-11-24T05:00:00+05:00", -210_866_803_200),
    ])
    func signedAndLongYearsAreRead(text: String, seconds: Double) {
        #expect(DateText.parse(text) == seconds)
        #expect(DateText.problem(text) == nil)
    }

    /// Just outside the range, and shapes `utc` never writes, are refused with the reason.
    @Test(arguments: [
        ("-4713-11-23T23:59:59Z", "'-4713-11-23T23:59:59Z' is not a valid ISO 8601 date: it is outside the dates Strata holds, -4713-11-24T00:00:00Z (4713 BC) to 294276-12-31T23:59:59Z"),
        ("-4713-11-24T00:00:00+00:01", "'-4713-11-24T00:00:00+00:01' is not a valid ISO 8601 date: it is outside the dates Strata holds, -4713-11-24T00:00:00Z (4713 BC) to 294276-12-31T23:59:59Z"),
        ("294277-01-01", "'294277-01-01' is not a valid ISO 8601 date: it is outside the dates Strata holds, -4713-11-24T00:00:00Z (4713 BC) to 294276-12-31T23:59:59Z"),
        ("294276-12-31T23:59:59-00:01", "'294276-12-31T23:59:59-00:01' is not a valid ISO 8601 date: it is outside the dates Strata holds, -4713-11-24T00:00:00Z (4713 BC) to 294276-12-31T23:59:59Z"),
        ("-10000-01-01", "'-10000-01-01' is not a valid ISO 8601 date: it is outside the dates Strata holds, -4713-11-24T00:00:00Z (4713 BC) to 294276-12-31T23:59:59Z"),
        ("999999-12-31", "'999999-12-31' is not a valid ISO 8601 date: it is outside the dates Strata holds, -4713-11-24T00:00:00Z (4713 BC) to 294276-12-31T23:59:59Z"),
        ("-0001-02-29", "'-0001-02-29' is not a valid ISO 8601 date: day 29 does not exist in -0001-02, which has 28 days"),
        ("-0100-02-29", "'-0100-02-29' is not a valid ISO 8601 date: day 29 does not exist in -0100-02, which has 28 days"),
        ("10000-02-30", "'10000-02-30' is not a valid ISO 8601 date: day 30 does not exist in 10000-02, which has 29 days"),
        ("10000-01-01T00:00:00+18:01", "'10000-01-01T00:00:00+18:01' is not a valid ISO 8601 date: the offset must lie within ±18:00"),
        ("-0000-01-01", "'-0000-01-01' is not an ISO 8601 date (e.g. \"2024-05-01\" or \"2024-05-01T00:00:00Z\")"),
        ("02024-01-01", "'02024-01-01' is not an ISO 8601 date (e.g. \"2024-05-01\" or \"2024-05-01T00:00:00Z\")"),
        ("+2024-01-01", "'+2024-01-01' is not an ISO 8601 date (e.g. \"2024-05-01\" or \"2024-05-01T00:00:00Z\")"),
        ("1000000-01-01", "'1000000-01-01' is not an ISO 8601 date (e.g. \"2024-05-01\" or \"2024-05-01T00:00:00Z\")"),
        ("024-01-01", "'024-01-01' is not an ISO 8601 date (e.g. \"2024-05-01\" or \"2024-05-01T00:00:00Z\")"),
        ("--2024-01-01", "'--2024-01-01' is not an ISO 8601 date (e.g. \"2024-05-01\" or \"2024-05-01T00:00:00Z\")"),
        ("-", "'-' is not an ISO 8601 date (e.g. \"2024-05-01\" or \"2024-05-01T00:00:00Z\")"),
    ])
    func outsideTheRangeOrMisshapenIsRefused(text: String, problem: String) {
        #expect(DateText.parse(text) == nil)
        #expect(DateText.problem(text) == problem)
    }
}
