import Foundation
import Testing
@testable import Strata

/// `DateText.utc` (the report's `now`, history timestamps, the lock file's `since`) writes what
/// `ISO8601DateFormatter` wrote before it, without the formatter's time-zone and ICU loading.
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

    /// Outside the hand-written range (before the Gregorian reform, after year 9999, not finite) the
    /// formatter still writes the text, so nothing a user's data holds can trap or change.
    @Test(arguments: [-62_135_596_800.0, 253_402_300_800.5, 1e300, -1e300, .infinity, .nan])
    func outsideTheRangeFallsBackToTheFormatter(seconds: Double) {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        #expect(DateText.utc(seconds, milliseconds: true) == formatter.string(from: Date(timeIntervalSince1970: seconds)))
    }

    /// A sweep over four centuries, 13 days and 1 h 37 ms apart, against the formatter (the sum drifts
    /// off whole milliseconds, which tests the rounding; no value falls on exactly half a millisecond).
    @Test func agreesWithTheFormatterAcrossCenturies() {
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let whole = ISO8601DateFormatter()
        var seconds = -5_000_000_000.0 + 0.123
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
