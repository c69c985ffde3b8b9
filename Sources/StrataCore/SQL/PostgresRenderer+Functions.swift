/// PostgreSQL's spelling of each ``SQLFunction`` (SPEC §14.2).
extension PostgresRenderer {
    func write(_ function: SQLFunction, _ a: [SQLText], into output: inout Rendering) throws(PostgresRenderError) {
        typealias P = Part
        let parts: [Part]
        switch function {
        case .plpgsqlBlock:
            // The body as one string constant: an E'' string escapes the same way whatever
            // standard_conforming_strings says. A block takes no parameters, so it has no bound values.
            var body = Rendering()
            try write(a[0], into: &body)
            precondition(body.arguments.isEmpty, "a PL/pgSQL block takes no bound values")
            output.requirements.formUnion(body.requirements)
            output.sql += "DO E'"
            for character in body.sql {
                if character == "'" || character == "\\" { output.sql.append(character) }   // doubled: escaped
                output.sql.append(character)
            }
            output.sql += "'"
            return
        case .native(let type):
            switch type {
            case .bool: parts = [.text("("), .argument(0), .text(" <> 0)")]
            case .date: parts = [.text("to_timestamp("), .argument(0), .text(")")]
            case .decimal: parts = [.text("CAST("), .argument(0), .text(" AS numeric)")]
            case .uuid: parts = [.text("CAST("), .argument(0), .text(" AS uuid)")]
            default: parts = [.argument(0)]
            }
        case .storage(let type):
            switch type {
            case .bool: parts = [.text("CAST("), .argument(0), .text(" AS integer)")]
            case .date: parts = [.text("date_part('epoch', "), .argument(0), .text(")")]
            case .uuid: parts = [.text("CAST("), .argument(0), .text(" AS text)")]
            default: parts = [.argument(0)]
            }
        case .comparedDate:
            parts = Self.comparedDate(a[0])
        case .castReal:
            parts = [.text("CAST("), .argument(0), .text(" AS double precision)")]
        case .integerOperand(let mayOverflow):
            parts = [.text("CAST("), .argument(0), .text(mayOverflow ? " AS numeric)" : " AS bigint)")]
        case .integerQuotient:
            parts = [.text("div(CAST("), .argument(0), .text(" AS numeric), NULLIF(CAST("), .argument(1), .text(" AS numeric), 0))")]
        case .realArithmetic(let op):
            parts = Self.realArithmetic(op, a)
        case .finiteReal:
            parts = [.argument(0)]
        case .extreme(let isMinimum):
            parts = Self.extreme(isMinimum ? "least" : "greatest", count: a.count, numeric: false)
        case .round(let type):
            parts = Self.round(type)
        case .jsonEach(let type):
            // A FROM item with one column `value` of the storage form's type, as SQLite's json_each gives.
            parts = [.text("(SELECT CAST(e AS " + Self.storageType(type) + ") AS value FROM jsonb_array_elements_text(CAST("),
                     .argument(0), .text(" AS jsonb)) AS e) AS strata_list")]
        case .integerText:
            parts = [.argument(1)]
        case .lastInsertedKey(let table):
            parts = [.text("currval(pg_get_serial_sequence("), .value(.text(SQLDialect.postgresql.quote(table))), .text(", '_pk'))")]
        case .mayDifferInCharacters:
            parts = [.text("(octet_length("), .argument(0), .text(") <> char_length("), .argument(0),
                     .text(") OR strpos("), .argument(0), .text(", chr(13)) > 0)")]
        case .auditCharacters:
            parts = [.text("CASE WHEN octet_length("), .argument(0), .text(") = char_length("), .argument(0),
                     .text(") AND strpos("), .argument(0), .text(", chr(13)) = 0 THEN char_length("), .argument(0), .text(") END")]
        case .mayExceedCharacters:
            parts = [.text("length("), .argument(0), .text(") > "), .argument(1)]
        case .surelyFewerCharacters:
            parts = [.text("length("), .argument(0), .text(") < "), .argument(1)]
        case .wholeText:
            parts = [.argument(0)]
        case .strata(let strata):
            parts = try strataParts(strata, a, into: &output)
        }
        try write(Self.readingOnce(parts, a), a, into: &output)
    }

    /// `parts` with each argument they read more than once computed once where reading it again costs more than
    /// reading a column (``isCheap(_:)``): `(SELECT <parts over strata_0, …> FROM (SELECT <argument> AS strata_0,
    /// … OFFSET 0) AS strata_once)`. `OFFSET 0` keeps the planner from pulling the sub-select up, which would copy
    /// the argument back into every read: `max(int64(string(max(…))), 1)` or `int64(string(…)) + 1` nested 6 deep
    /// grew as 2^6 in text, and more in the planner.
    static func readingOnce(_ parts: [Part], _ a: [SQLText]) -> [Part] {
        var reads: [Int: Int] = [:]
        for case .argument(let i) in parts { reads[i, default: 0] += 1 }
        let fenced = reads.filter { $0.value > 1 && !isCheap(a[$0.key]) }.keys.sorted()
        guard !fenced.isEmpty else { return parts }
        let body = parts.map { part -> Part in
            if case .argument(let i) = part, fenced.contains(i) { return .text("strata_\(i)") }
            return part
        }
        let columns = fenced.enumerated().flatMap { n, i -> [Part] in [.text(n == 0 ? "" : ", "), .argument(i), .text(" AS strata_\(i)")] }
        return [.text("(SELECT ")] + body + [.text(" FROM (SELECT ")] + columns + [.text(" OFFSET 0) AS strata_once)")]
    }

    /// A column, a bound value, or text and cheap conversions over them (`CAST(t."count" AS numeric) + CAST($1 AS
    /// numeric)`): no call that reads its argument twice or in a sub-select, so it is read again in place, with
    /// no per-row sub-plan.
    static func isCheap(_ sql: SQLText) -> Bool {
        sql.pieces.allSatisfy { piece in
            switch piece {
            case .text, .identifier, .value, .keyword: return true
            case .function(let function, let arguments):
                switch function {
                case .native, .storage, .castReal, .integerOperand, .finiteReal: return arguments.allSatisfy(isCheap)
                default: return false
                }
            }
        }
    }

    /// `CASE WHEN a IS NULL OR … THEN NULL ELSE least(a, …) END`: nil when any argument is (SQLite's `min`).
    static func extreme(_ name: String, count: Int, numeric: Bool) -> [Part] {
        var parts: [Part] = [.text("CASE WHEN ")]
        for i in 0..<count {
            if i > 0 { parts.append(.text(" OR ")) }
            parts += [.argument(i), .text(" IS NULL")]
        }
        parts.append(.text(" THEN NULL ELSE \(name)("))
        for i in 0..<count {
            if i > 0 { parts.append(.text(", ")) }
            parts += numeric ? Self.numeric(i) : [.argument(i)]
        }
        return parts + [.text(") END")]
    }

    /// The PostgreSQL type of a value of `type` in its SQLite storage form (what predicates compare).
    static func storageType(_ type: AttributeType) -> String {
        switch type {
        case .int16, .int32, .int64, .bool: "bigint"
        case .double, .float, .date: "double precision"
        case .decimal: "numeric"
        case .binary: "bytea"
        case .string, .uri, .uuid: "text"
        }
    }

    static func numeric(_ i: Int) -> [Part] { [.text("CAST("), .argument(i), .text(" AS numeric)")] }

    /// `value` (a numeric), nil past `DecimalArithmetic.maxSignificantDigits` significant digits (from the first
    /// non-zero digit to the last), as SQLite's decimal functions give. The value is computed once: `OFFSET 0`
    /// keeps the planner from pulling the sub-select up, which would copy `value` into both places `v` is read,
    /// so a chain of n operations (each operand the previous result) would be planned as 2^n sub-plans.
    static func withinDecimalDigits(_ value: [Part]) -> [Part] {
        [.text("(SELECT CASE WHEN length(btrim(replace(CAST(trim_scale(abs(v)) AS text), '.', ''), '0')) <= "
               + "\(DecimalArithmetic.maxSignificantDigits) THEN v END FROM (SELECT ")] + value + [.text(" AS v OFFSET 0) AS strata_decimal)")]
    }

    /// `round(x, places)` of a value of `type` as `ExpressionRuntime.round` (``SQLFunction/round(_:)``): an
    /// integer as numeric; a decimal nil past 38 significant digits (``withinDecimalDigits(_:)``); a double
    /// through its shortest text (PostgreSQL's output, ``shortestText(_:from:)``), where `CAST(x AS numeric)`
    /// kept 15 significant digits (round(1.2345678901234567, 16) was 1.23456789012346) and made 1.7976931348623157e308
    /// a numeric above the largest double, which stopped the statement; a result above the largest double is an
    /// infinity of its sign and one below the smallest 0, as Swift's `Double(text)`; `places` outside -999…999
    /// (and a double that is not finite) gives nil, as `DecimalArithmetic.round`.
    static func round(_ type: AttributeType) -> [Part] {
        let places: [Part] = [.argument(1), .text(" > -1000 AND "), .argument(1), .text(" < 1000")]
        switch type {
        case .decimal:
            return withinDecimalDigits([.text("CASE WHEN ")] + places + [.text(" THEN round(")] + numeric(0)
                                           + [.text(", CAST("), .argument(1), .text(" AS integer)) END")])
        case .double, .float:
            // x and places are read once, r (computed once) several times: `OFFSET 0` keeps each sub-select.
            let rounded = "CASE WHEN abs(strata_x) < 'Infinity' AND strata_p > -1000 AND strata_p < 1000 THEN round(CAST("
                + shortestText("strata_x", from: .double) + " AS numeric), CAST(strata_p AS integer)) END"
            return [.text("(SELECT CASE WHEN abs(r) > 1.7976931348623157e308 THEN CAST(sign(r) AS double precision) * CAST('Infinity' AS double precision) "
                          + "WHEN abs(r) < 2.4703282292062328e-324 THEN CAST(0 AS double precision) ELSE CAST(r AS double precision) END "
                          + "FROM (SELECT " + rounded + " AS r FROM (SELECT "), .argument(0), .text(" AS strata_x, "), .argument(1),
                    .text(" AS strata_p OFFSET 0) AS strata_value OFFSET 0) AS strata_round)")]
        default:
            return [.text("round(CAST("), .argument(0), .text(" AS numeric), CAST("), .argument(1), .text(" AS integer))")]
        }
    }

    /// `a / b` rounded half-even to 20 fractional digits, nil for `b` = 0, as `DecimalArithmetic.divide`: the
    /// quotient of `a · 10^20` by `b` truncated (`div`), plus one unit where twice the remainder passes `b`
    /// (or ties it on an odd quotient), scaled back. `round(a / b, 20)` gave PostgreSQL's own precision (16
    /// significant digits when the operands have few) and rounded ties away from zero. The operands are read
    /// once, in a sub-select (`OFFSET 0`, as `withinDecimalDigits`): written into each of the nine places the
    /// formula reads them, a chain of divisions grew as 9^n in text (918 MB of SQL for 8 of them).
    static let decimalQuotient: [Part] = {
        let a = "strata_a", b = "strata_b", q = "div(strata_a, strata_b)"
        let twiceRemainder = "(2 * abs(\(a) - \(q) * \(b)))"
        return [.text("(SELECT CASE WHEN \(b) = 0 THEN NULL ELSE (\(q) + CASE WHEN \(twiceRemainder) > abs(\(b)) OR (\(twiceRemainder) = abs(\(b)) "
                      + "AND mod(\(q), 2) <> 0) THEN sign(\(a)) * sign(\(b)) ELSE 0 END) * 0.00000000000000000001 END FROM (SELECT (CAST("),
                .argument(0), .text(" AS numeric) * 100000000000000000000) AS strata_a, CAST("), .argument(1),
                .text(" AS numeric) AS strata_b OFFSET 0) AS strata_quotient)")]
    }()

    /// Code points that join the character before them into one `Character` (combining marks, variation
    /// selectors, skin-tone modifiers), and a zero-width joiner with the character after it.
    static let graphemeExtenders = #"'[\u0300-\u036F\u1AB0-\u1AFF\u1DC0-\u1DFF\u20D0-\u20FF\uFE00-\uFE0F\uFE20-\uFE2F\U0001F3FB-\U0001F3FF]|\u200D.'"#

    func strataParts(_ function: StrataFunction, _ a: [SQLText], into output: inout Rendering) throws(PostgresRenderError) -> [Part] {
        switch function {
        case .casefold:
            output.requirements.insert(.icuCollation)
            return [.text("lower("), .argument(0), .text(" COLLATE \"und-x-icu\")")]
        case .unaccent:
            output.requirements.insert(.unaccent)
            let name = unaccentSchema.map { SQLDialect.postgresql.quote($0) + ".unaccent" } ?? "unaccent"
            return [.text(name + "("), .argument(0), .text(")")]
        case .matches:
            // Character classes (`\w`, `\d`, `\s`, `[[:alpha:]]`) and case-insensitive matching follow the
            // value's collation: under the ICU one they cover Unicode, as SQLite's ICU regexes do (in a
            // database whose ctype is C, `\w` and `~*` know ASCII only: `résumé` is no `\w+`).
            let op = a.count > 2 ? " ~* " : " ~ "
            let constant: String? = if case .text(let pattern)? = a[1].boundValue { pattern } else { nil }
            if let constant { try Self.checkRegex(constant) }
            let unicode = a.count > 2 || constant.map(Self.hasCharacterClass) ?? true
            if unicode { output.requirements.insert(.icuCollation) }
            let subject: [Part] = unicode ? [.text("("), .argument(0), .text(" COLLATE \"und-x-icu\")")] : [.argument(0)]
            if let constant {
                return [.text("(")] + subject + [.text(op), .value(.text("^(?:" + constant + ")$")), .text(")")]
            }
            return [.text("(")] + subject + [.text(op + "('^(?:' || "), .argument(1), .text(" || ')$'))")]
        case .beginswith:
            return [.text("starts_with("), .argument(0), .text(", "), .argument(1), .text(")")]
        case .contains:
            return [.text("(strpos("), .argument(0), .text(", "), .argument(1), .text(") > 0)")]
        case .endswith:
            return [.text("(right("), .argument(0), .text(", char_length("), .argument(1), .text(")) = "), .argument(1), .text(")")]
        case .like:
            guard case .text(let pattern)? = a[1].boundValue else {
                throw PostgresRenderError("LIKE with a pattern that is not a constant",
                                          hint: "write the pattern as a string literal, a %@ argument or a $VARIABLE")
            }
            return [.text("("), .argument(0), .text(" LIKE "), .value(.text(Self.likePattern(pattern))), .text(")")]
        case .decimal:
            return Self.numeric(0)
        case .decimalCompare:
            return [.text("sign(")] + Self.numeric(0) + [.text(" - ")] + Self.numeric(1) + [.text(")")]
        case .decimalAdd, .decimalSub, .decimalMul:
            let op = function == .decimalAdd ? " + " : function == .decimalSub ? " - " : " * "
            return Self.withinDecimalDigits([.text("(")] + Self.numeric(0) + [.text(op)] + Self.numeric(1) + [.text(")")])
        case .decimalDiv:
            return Self.withinDecimalDigits(Self.decimalQuotient)
        case .decimalAbs:
            return Self.withinDecimalDigits([.text("abs(")] + Self.numeric(0) + [.text(")")])
        case .decimalMin, .decimalMax:
            return Self.extreme(function == .decimalMin ? "least" : "greatest", count: a.count, numeric: true)
        case .substring:
            var parts: [Part] = [.text("substr("), .argument(0)]
            for i in 1..<a.count { parts += [.text(", CAST("), .argument(i), .text(" AS integer)")] }
            return parts + [.text(")")]
        case .trim:
            return [.text("regexp_replace("), .argument(0), .text(", '^[[:space:]]+|[[:space:]]+$', '', 'g')")]
        case .uuid:
            return [.text("CAST(gen_random_uuid() AS text)")]
        case .length:
            return [.text("char_length(regexp_replace(replace("), .argument(0),
                    .text(", E'\\r\\n', E'\\n'), " + Self.graphemeExtenders + ", '', 'g'))")]
        case .lowercase, .uppercase:
            // Full Unicode case mapping, as Swift's (`straße` → `STRASSE`, `İ` → `i̇`): under the ICU collation;
            // the database's ctype may be `C`, which maps ASCII only.
            output.requirements.insert(.icuCollation)
            return [.text(function == .lowercase ? "lower(" : "upper("), .argument(0), .text(" COLLATE \"und-x-icu\")")]
        case .int64:
            // An exact (numeric) integer result outside the 64-bit range is nil, as SQLite's REAL is.
            return [.text("CASE WHEN "), .argument(0), .text(" BETWEEN -9223372036854775808 AND 9223372036854775807 THEN CAST(trunc("),
                    .argument(0), .text(") AS bigint) END")]
        case .abs:
            return [.text("abs("), .argument(0), .text(")")]
        case .round:
            return [.text("round(CAST("), .argument(0), .text(" AS numeric), CAST("), .argument(1), .text(" AS integer))")]
        case .cast:
            guard let parts = Self.castParts(a) else {
                throw PostgresRenderError("a conversion between types that are not constants", hint: "write the conversion as int16(x), string(x), …")
            }
            return parts
        }
    }

    /// An NSPredicate LIKE pattern (`*` any run, `?` one character) as a PostgreSQL LIKE pattern.
    static func likePattern(_ pattern: String) -> String {
        var result = ""
        var escaped = false
        for character in pattern {
            if escaped {
                result += character == "%" || character == "_" || character == "\\" ? "\\" + String(character) : String(character)
                escaped = false
                continue
            }
            switch character {
            case "\\": escaped = true
            case "*": result += "%"
            case "?": result += "_"
            case "%", "_": result += "\\" + String(character)
            default: result.append(character)
            }
        }
        return escaped ? result + "\\\\" : result
    }

    /// `to_timestamp(x)` for a date compared with a date (``SQLFunction/comparedDate``), where `x` past
    /// `timestamptz`'s range (the bounds of `string()`'s conversion: 4714-11-24 BC and 294277 AD) is an infinity:
    /// a bound constant is settled here (one parameter, `to_timestamp($1)` as before), an expression in SQL.
    static func comparedDate(_ value: SQLText) -> [Part] {
        let (lowest, beyond): (Double, Double) = (-210_866_803_200, 9_224_318_016_000)
        let seconds: Double?
        switch value.boundValue {
        case .real(let x): seconds = x
        case .integer(let i): seconds = Double(i)
        case nil: return [.text("to_timestamp(CASE WHEN "), .argument(0), .text(" < -210866803200 THEN CAST('-Infinity' AS double precision) WHEN "),
                          .argument(0), .text(" >= 9224318016000 THEN CAST('Infinity' AS double precision) ELSE "), .argument(0), .text(" END)")]
        default: seconds = nil
        }
        guard let seconds, !(seconds >= lowest && seconds < beyond) else { return [.text("to_timestamp("), .argument(0), .text(")")] }
        return [.text("to_timestamp("), .value(.real(seconds < 0 ? -.infinity : .infinity)), .text(")")]
    }
}
