/// PostgreSQL's spelling of the conversion functions (`int16()` … `date()`, SPEC §11.1, §11.4): what
/// `strata_cast(x, from, to)` (`ExpressionRuntime.cast`) does on SQLite, written as native SQL over the value in
/// its storage form (an integer, a double, seconds for a date, 0/1 for a bool, `numeric` for a decimal, text).
/// A value that does not convert gives NULL, never an error: every conversion that could fail is guarded by a
/// `CASE WHEN <shape> THEN … END` (PostgreSQL drops an arm whose condition folds to false before it folds the
/// arm's constants, so a constant argument that does not convert cannot fail the statement either).
///
/// The value is read once: `(SELECT <conversion of v> FROM (SELECT CAST(x AS <storage type>) AS v) AS strata_cast)`,
/// with `OFFSET 0` after `v` where `x` is not cheap to read again (``isCheap(_:)``; another conversion, say): the
/// planner pulls a sub-select without it up, copying `x` into each place `v` is read (text to date reads it about
/// 15 times, date to text 6), so `date(string(date(string(…))))` multiplied at each level (two levels took the
/// server past 10 GB).
extension PostgresRenderer {
    /// The parts of `strata_cast(x, from, to)`; nil when `from` or `to` is not a bound type name.
    static func castParts(_ a: [SQLText]) -> [Part]? {
        guard a.count == 3, case .text(let fromName)? = a[1].boundValue, case .text(let toName)? = a[2].boundValue,
              let from = AttributeType(rawValue: fromName), let to = AttributeType(rawValue: toName) else { return nil }
        let conversion = cast("v", from: from, to: to)
        let fence = isCheap(a[0]) ? "" : " OFFSET 0"
        return [.text("(SELECT " + conversion + " FROM (SELECT CAST("), .argument(0),
                .text(" AS " + storageType(from) + ") AS v" + fence + ") AS strata_cast)")]
    }

    /// The shortest text of a double that reads back as it (PostgreSQL's output); of a float, the shortest that
    /// reads back as the float (`0.1`, where the double it is stored as is 0.10000000149011612), as
    /// `ExpressionRuntime.shortest(_:float:)`.
    static func shortestText(_ v: String, from: AttributeType) -> String {
        from == .float ? "CAST(CAST(\(v) AS real) AS text)" : "CAST(\(v) AS text)"
    }

    /// `v` (of `from`'s storage type) converted to `to`'s storage form, NULL where it does not convert.
    static func cast(_ v: String, from: AttributeType, to: AttributeType) -> String {
        let integers: Set<AttributeType> = [.int16, .int32, .int64], reals: Set<AttributeType> = [.double, .float, .date]
        let textual: Set<AttributeType> = [.string, .uri, .uuid]
        switch to {
        case .int16, .int32, .int64:
            let range = to.integerRange!
            if integers.contains(from) || from == .bool {
                return "CASE WHEN \(v) BETWEEN \(range.lowerBound) AND \(range.upperBound) THEN CAST(\(v) AS bigint) END"
            }
            if reals.contains(from) {
                // Toward zero; bounds as doubles (exact: powers of two for int64), so NaN and infinities fail them.
                let high = to == .int64 ? "9223372036854775808.0" : "\(range.upperBound + 1).0"
                return "CASE WHEN trunc(\(v)) >= \(range.lowerBound).0 AND trunc(\(v)) < \(high) THEN CAST(trunc(\(v)) AS bigint) END"
            }
            if from == .decimal {
                return "CASE WHEN trunc(\(v)) BETWEEN \(range.lowerBound) AND \(range.upperBound) THEN CAST(trunc(\(v)) AS bigint) END"
            }
            return "CASE WHEN \(v) ~ '^[+-]?[0-9]+$' THEN (SELECT CASE WHEN n BETWEEN \(range.lowerBound) AND \(range.upperBound) "
                + "THEN CAST(n AS bigint) END FROM (SELECT CAST(\(v) AS numeric) AS n) AS strata_integer) END"
        case .double, .float, .date:
            var double: String
            if integers.contains(from) || from == .bool || from == .decimal {
                double = "CAST(\(v) AS double precision)"
            } else if reals.contains(from) {
                double = "CASE WHEN abs(\(v)) < 'Infinity' THEN CAST(\(v) AS double precision) END"
            } else {
                double = number(v)
                if to == .date { double = "coalesce(" + isoSeconds(v) + ", " + double + ")" }
            }
            return to == .float ? "CAST(CAST(" + double + " AS real) AS double precision)" : double
        case .decimal:
            if integers.contains(from) || from == .bool { return "CAST(\(v) AS numeric)" }
            if reals.contains(from) { return "CASE WHEN abs(\(v)) < 'Infinity' THEN CAST(\(shortestText(v, from: from)) AS numeric) END" }
            return "CASE WHEN \(v) ~ '\(decimalShape)' THEN CAST(\(v) AS numeric) END"
        case .string:
            switch from {
            case .bool: return "CASE WHEN \(v) = 0 THEN 'false' WHEN \(v) IS NOT NULL THEN 'true' END"
            case .date:
                // DateText.utc: ISO 8601 UTC, proleptic Gregorian (as timestamp), rounded to the millisecond (half
                // away from zero), with `.SSS` only for a fraction; nil outside timestamptz's range (4713 BC to
                // 294276 AD), where the timestamp would stop the statement. The instant is 1970-01-01 plus whole days
                // and the seconds of the last day: to_timestamp's double of microseconds lost a second near the end of
                // the range (294276-12-31T23:59:59 was :58). The year is astronomical (0000 is 1 BC, -0001 2 BC), four
                // digits at least: to_char's YYYY writes 1 BC as 0001, so it is written from extract(year), which
                // counts BC years as negative with no year 0.
                let time = "TIMESTAMP '1970-01-01 00:00:00' + make_interval(days => CAST(d AS integer), secs => CAST((ms - d * 86400000) / 1000 AS double precision))"
                let year = "CAST(extract(year FROM t) AS bigint) + CASE WHEN extract(year FROM t) < 0 THEN 1 ELSE 0 END"
                return "CASE WHEN \(v) >= -210866803200 AND \(v) < 9224318016000 THEN (SELECT CASE WHEN y < 0 THEN '-' ELSE '' END "
                    + "|| CASE WHEN abs(y) < 1000 THEN lpad(CAST(abs(y) AS text), 4, '0') ELSE CAST(abs(y) AS text) END || to_char(t, "
                    + "CASE WHEN \(v) = round(\(v)) THEN '-MM-DD\"T\"HH24:MI:SS\"Z\"' ELSE '-MM-DD\"T\"HH24:MI:SS.MS\"Z\"' END) "
                    + "FROM (SELECT t, \(year) AS y FROM (SELECT \(time) AS t FROM (SELECT ms, floor(ms / 86400000) AS d "
                    + "FROM (SELECT round(CAST(\(v) AS numeric) * 1000) AS ms) AS strata_ms) AS strata_days) AS strata_time) AS strata_year) END"
            case .double, .float:
                // The shortest text that reads back (PostgreSQL's output), without exponent, with a fractional digit.
                return "CASE WHEN \(v) = 0 THEN '0.0' WHEN abs(\(v)) < 'Infinity' THEN (SELECT CASE WHEN strpos(t, '.') = 0 THEN t || '.0' ELSE t END "
                    + "FROM (SELECT CAST(CAST(\(shortestText(v, from: from)) AS numeric) AS text) AS t) AS strata_shortest) END"
            case .decimal: return "CAST(trim_scale(\(v)) AS text)"
            case .uuid: return "lower(\(v))"
            default: return "CAST(\(v) AS text)"
            }
        case .bool:
            if integers.contains(from) || reals.contains(from) || from == .bool {
                return "CASE WHEN \(v) = 0 THEN 0 WHEN \(v) = 1 THEN 1 END"
            }
            let text = from == .decimal ? "CAST(trim_scale(\(v)) AS text)" : v
            return "CASE lower(\(text)) WHEN 'true' THEN 1 WHEN 'yes' THEN 1 WHEN '1' THEN 1 WHEN 'false' THEN 0 WHEN 'no' THEN 0 WHEN '0' THEN 0 END"
        case .uuid, .uri, .binary:
            return textual.contains(from) ? v : "CAST(\(v) AS text)"
        }
    }

    /// A decimal number written in text (no white space, no hex, an exponent of up to four digits) as a double;
    /// NULL past the double range, 0 below its smallest value.
    static func number(_ v: String) -> String {
        "CASE WHEN \(v) ~ '\(decimalShape)' THEN (SELECT CASE WHEN abs(n) > 1.7976931348623157e308 THEN NULL "
            + "WHEN abs(n) < 2.4703282292062328e-324 THEN CAST(0 AS double precision) ELSE CAST(\(v) AS double precision) END "
            + "FROM (SELECT CAST(\(v) AS numeric) AS n) AS strata_number) END"
    }

    /// A decimal number in text as `DecimalText.canonical` reads it: a sign, digits with a point, an exponent.
    static let decimalShape = "^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]{1,4})?$"

    /// `DateText.parse`: `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)` as seconds since 1970, with
    /// the same checks (a day of its month, hours 00–23, an offset within ±18:00); NULL otherwise. The year is
    /// astronomical as `DateText.utc` writes it (four digits, or five to six without a leading zero, after an
    /// optional `-`; not `-0000`), and the instant lies in `DateText.writable` (4713 BC to 294276 AD).
    static func isoSeconds(_ v: String) -> String {
        let shape = "^(-?[0-9]{4}|-?[1-9][0-9]{4,5})-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2}))?$"
        // `r` is the text after the year: `MM-DD[THH:MM:SS…]`.
        func part(_ start: Int) -> String { "CAST(substr(r, \(start), 2) AS bigint)" }
        let components = "SELECT CAST(substring(\(v) from '^(-?[0-9]+)-') AS bigint) AS y, \(part(1)) AS m, \(part(4)) AS d, "
            + "CASE WHEN length(r) > 5 THEN \(part(7)) ELSE 0 END AS h, CASE WHEN length(r) > 5 THEN \(part(10)) ELSE 0 END AS mi, "
            + "CASE WHEN length(r) > 5 THEN \(part(13)) ELSE 0 END AS s, substring(r from '^.{14}[.]([0-9]+)') AS f, "
            + "substring(r from '([+-][0-9]{2}:[0-9]{2})$') AS z FROM (SELECT substring(\(v) from '^-?[0-9]+-(.*)$') AS r) AS strata_rest"
        let offset = "CASE WHEN z IS NULL THEN 0 ELSE (CAST(substr(z, 2, 2) AS bigint) * 3600 + CAST(substr(z, 5, 2) AS bigint) * 60) "
            + "* CASE WHEN substr(z, 1, 1) = '-' THEN -1 ELSE 1 END END"
        let offsetValid = "(z IS NULL OR (CAST(substr(z, 5, 2) AS bigint) < 60 AND CAST(substr(z, 2, 2) AS bigint) * 60 + CAST(substr(z, 5, 2) AS bigint) <= 1080))"
        let monthDays = "CASE WHEN m = 2 THEN CASE WHEN y % 4 = 0 AND (y % 100 <> 0 OR y % 400 = 0) THEN 29 ELSE 28 END "
            + "WHEN m IN (4, 6, 9, 11) THEN 30 ELSE 31 END"
        // DateText.daysFromCivil, in integer arithmetic (division truncates toward zero, as in Swift).
        let yy = "(CASE WHEN m <= 2 THEN y - 1 ELSE y END)"
        let era = "((CASE WHEN \(yy) >= 0 THEN \(yy) ELSE \(yy) - 399 END) / 400)"
        let yoe = "(\(yy) - \(era) * 400)"
        let doy = "((153 * (CASE WHEN m > 2 THEN m - 3 ELSE m + 9 END) + 2) / 5 + d - 1)"
        let days = "(\(era) * 146097 + \(yoe) * 365 + \(yoe) / 4 - \(yoe) / 100 + \(doy) - 719468)"
        let whole = "(" + days + " * 86400 + h * 3600 + mi * 60 + s - " + offset + ")"
        return "CASE WHEN \(v) ~ '\(shape)' AND left(\(v), 5) <> '-0000' THEN (SELECT CASE WHEN m BETWEEN 1 AND 12 AND d BETWEEN 1 AND "
            + monthDays + " AND h < 24 AND mi < 60 AND s < 60 AND " + offsetValid
            + " AND " + whole + " >= -210866803200 AND " + whole + " < 9224318016000"
            + " THEN CAST(" + whole + " AS double precision)"
            + " + coalesce(CAST('0.' || f AS double precision), 0) END FROM (" + components + ") AS strata_iso) END"
    }
}
