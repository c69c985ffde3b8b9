import Foundation

/// ISO 8601 dates to seconds since 1970 (UTC). Date-only literals are midnight UTC.
///
/// Strict: `YYYY-MM-DD`, or `YYYY-MM-DDTHH:MM:SS[.fraction]` followed by `Z` or an offset `±HH:MM`
/// no larger than 18:00. Days must exist in their month (2024-02-30 is refused, never rolled over
/// to March), hours run 00–23, minutes and seconds 00–59. The year is what `utc` writes: astronomical,
/// four digits or five to six without a leading zero, after an optional `-` (`0000` is 1 BC, `-4713`,
/// `294276`), and the instant must lie in `writable` (4713 BC to 294276 AD), so every date written reads back.
public enum DateText {
    public static func parse(_ text: String) -> Double? {
        if case .success(let seconds) = read(text) { return seconds }
        return nil
    }

    /// Why `text` is not a date, or nil when it is one.
    public static func problem(_ text: String) -> String? {
        if case .failure(let error) = read(text) { return error.message }
        return nil
    }

    private static func read(_ text: String) -> Result<Double, CoercionError> {
        let c = Array(text.utf8)
        func fail(_ why: String?) -> Result<Double, CoercionError> {
            guard let why else {
                return .failure(CoercionError("'\(text)' is not an ISO 8601 date (e.g. \"2024-05-01\" or \"2024-05-01T00:00:00Z\")"))
            }
            return .failure(CoercionError("'\(text)' is not a valid ISO 8601 date: \(why)"))
        }
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= c.count else { return nil }
            var n = 0
            for i in range {
                guard c[i] >= 48, c[i] <= 57 else { return nil }
                n = n * 10 + Int(c[i] - 48)
            }
            return n
        }
        // The year: four digits (0000–9999), or five or six without a leading zero, after an optional `-`
        // (astronomical: 0000 is 1 BC, -0001 is 2 BC), as `utc` writes it; the rest is read from `b`.
        let negative = c.first == UInt8(ascii: "-")
        var b = negative ? 1 : 0
        while b < c.count, c[b] >= 48, c[b] <= 57 { b += 1 }
        let yearDigits = b - (negative ? 1 : 0)
        guard yearDigits == 4 || (5...6).contains(yearDigits) && c[negative ? 1 : 0] != UInt8(ascii: "0"),
              let unsigned = number((negative ? 1 : 0)..<b), !(negative && unsigned == 0) else { return fail(nil) }
        let year = negative ? -unsigned : unsigned
        guard c.count >= b + 6, c[b] == UInt8(ascii: "-"), let month = number(b + 1..<b + 3),
              c[b + 3] == UInt8(ascii: "-"), let day = number(b + 4..<b + 6) else { return fail(nil) }
        guard (1...12).contains(month) else { return fail("there is no month \(month)") }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let monthDays = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        guard (1...monthDays).contains(day) else {
            let yearText = (year < 0 ? "-" : "") + String(format: "%04d", Swift.abs(year))
            return fail("day \(day) does not exist in \(yearText)-\(String(format: "%02d", month)), which has \(monthDays) days")
        }
        let days = daysFromCivil(year, month, day)
        func instant(_ whole: Int64, _ fraction: Double) -> Result<Double, CoercionError> {
            guard whole >= Int64(writable.lowerBound), whole < Int64(writable.upperBound) else {
                return fail("it is outside the dates Strata holds, -4713-11-24T00:00:00Z (4713 BC) to 294276-12-31T23:59:59Z")
            }
            return .success(Double(whole) + fraction)
        }
        if c.count == b + 6 { return instant(days * 86_400, 0) }
        guard c[b + 6] == UInt8(ascii: "T"), let hour = number(b + 7..<b + 9), c.count > b + 9, c[b + 9] == UInt8(ascii: ":"),
              let minute = number(b + 10..<b + 12), c.count > b + 12, c[b + 12] == UInt8(ascii: ":"), let second = number(b + 13..<b + 15) else {
            return fail("expected a time THH:MM:SS after the date")
        }
        guard hour < 24, minute < 60, second < 60 else { return fail("the time \(hour):\(minute):\(second) does not exist") }
        var i = b + 15
        var fraction = 0.0
        if i < c.count, c[i] == UInt8(ascii: ".") {
            let start = i + 1
            i = start
            while i < c.count, c[i] >= 48, c[i] <= 57 { i += 1 }
            guard i > start else { return fail("expected digits after the decimal point") }
            fraction = Double("0." + String(decoding: c[start..<i], as: UTF8.self)) ?? 0
        }
        var offset = 0
        if i < c.count, c[i] == UInt8(ascii: "Z") {
            i += 1
        } else if i < c.count, c[i] == UInt8(ascii: "+") || c[i] == UInt8(ascii: "-") {
            guard let oh = number(i + 1..<i + 3), i + 3 < c.count, c[i + 3] == UInt8(ascii: ":"), let om = number(i + 4..<i + 6) else {
                return fail("expected an offset ±HH:MM")
            }
            guard om < 60, oh * 60 + om <= 18 * 60 else { return fail("the offset must lie within ±18:00") }
            offset = (oh * 3600 + om * 60) * (c[i] == UInt8(ascii: "-") ? -1 : 1)
            i += 6
        } else {
            return fail("expected Z or an offset ±HH:MM after the time")
        }
        guard i == c.count else { return fail("unexpected text after the time zone") }
        return instant(days * 86_400 + Int64(hour * 3600 + minute * 60 + second - offset), fraction)
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar.
    private static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = Int64(month)
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The seconds whose dates `string()` writes, on both engines: PostgreSQL's `timestamptz` range (4713 BC to
    /// 294276 AD); further out it is nil (Foundation's formatter wrote one clamped date for them all).
    public static let writable: Range<Double> = -210_866_803_200 ..< 9_224_318_016_000

    /// `2024-05-01T00:00:00Z` (milliseconds kept when there is a fraction).
    public static func format(_ seconds: Double) -> String {
        utc(seconds, milliseconds: seconds != seconds.rounded())
    }

    /// `seconds` as ISO 8601 in UTC, in the proleptic Gregorian calendar: rounded to the nearest millisecond,
    /// then written with `.SSS` (`milliseconds`) or without (whole seconds rounded down).
    ///
    /// Years are astronomical, as ISO 8601 counts them: at least four digits, 0000 is 1 BC and -0001 is 2 BC
    /// (`-4713-11-24T00:00:00Z` is PostgreSQL's first `timestamptz`), and past 9999 as many digits as needed.
    /// Written with integer arithmetic for every date: Foundation's formatter (and its Calendar) switches to
    /// the Julian calendar before 1582-10-15, so `1000-06-15` came back as `1000-06-09`; it also loaded the
    /// time-zone and ICU data, 0.7 ms of a 15 ms `strata migrate` (Docs/performance.md). A value too large for
    /// any calendar (|seconds| ≥ 9e15, about 285 million years) or not finite is written as the number.
    public static func utc(_ seconds: Double, milliseconds: Bool) -> String {
        guard seconds.isFinite, Swift.abs(seconds) < 9e15 else { return "\(seconds)" }
        // To the nearest millisecond first, then whole seconds rounded down.
        let total = Int64((seconds * 1000).rounded())
        let whole = floorDivide(total, 1000)
        let fraction = total - whole * 1000
        let days = floorDivide(whole, 86_400)
        let time = whole - days * 86_400
        let (year, month, day) = civilFromDays(days)
        func pad(_ n: Int64, _ width: Int) -> String {
            let digits = String(n)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let yearText = year < 0 ? "-" + pad(-year, 4) : pad(year, 4)
        var text = "\(yearText)-\(pad(month, 2))-\(pad(day, 2))T\(pad(time / 3600, 2)):\(pad(time / 60 % 60, 2)):\(pad(time % 60, 2))"
        if milliseconds { text += "." + pad(fraction, 3) }
        return text + "Z"
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }

    /// The proleptic Gregorian date of a day number counted from 1970-01-01 (the inverse of `daysFromCivil`).
    private static func civilFromDays(_ days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
