/// What the expression functions do to one value (SPEC §11.1 Functions, §11.4 Expression typing).
/// Pure: the SQL functions Strata registers call these per row, and the compiler folds literals
/// with them, so a literal and a stored value convert the same way.
package enum ExpressionRuntime {
    // MARK: Casts

    /// `to(value)` for a value stored as `from`'s storage class; `.null` when it does not convert.
    public static func cast(_ value: Value, from: AttributeType, to: AttributeType) -> Value {
        if value.isNull { return .null }
        switch to {
        case .int16, .int32, .int64:
            guard let i = integer(value, from: from), to.integerRange!.contains(i) else { return .null }
            return .integer(i)
        case .double, .float, .date:
            guard let d = double(value, from: from, to: to) else { return .null }
            return .real(to == .float ? Double(Float(d)) : d)
        case .decimal:
            return decimal(value, from: from).map(Value.text) ?? .null
        case .string:
            return string(value, from: from).map(Value.text) ?? .null
        case .bool:
            return bool(value).map { .integer($0 ? 1 : 0) } ?? .null
        case .uuid, .uri, .binary:
            return value
        }
    }

    static func integer(_ value: Value, from: AttributeType) -> Int64? {
        switch value {
        case .integer(let i): return i
        case .real(let d): return truncated(d)
        case .text(let s) where from == .decimal:
            guard let canonical = DecimalText.canonical(s) else { return nil }
            return Int64(canonical.split(separator: ".", maxSplits: 1)[0])   // toward zero
        case .text(let s): return Int64(s)
        default: return nil
        }
    }

    /// Toward zero; nil when the double is not finite or outside the int64 range.
    static func truncated(_ d: Double) -> Int64? {
        let t = d.rounded(.towardZero)
        guard t.isFinite, t >= -9_223_372_036_854_775_808.0, t < 9_223_372_036_854_775_808.0 else { return nil }
        return Int64(t)
    }

    static func double(_ value: Value, from: AttributeType, to: AttributeType) -> Double? {
        switch value {
        case .integer(let i): return Double(i)
        case .real(let d): return d.isFinite ? d : nil
        case .text(let s):
            if to == .date, let seconds = DateText.parse(s) { return seconds }
            guard let d = Double(s), d.isFinite, s.unicodeScalars.allSatisfy({ !$0.properties.isWhitespace }) else { return nil }
            return d
        default: return nil
        }
    }

    static func decimal(_ value: Value, from: AttributeType) -> String? {
        switch value {
        case .integer(let i): return String(i)
        case .real(let d): return shortest(d, float: from == .float).flatMap(DecimalText.canonical)
        case .text(let s): return DecimalText.canonical(s)
        default: return nil
        }
    }

    static func string(_ value: Value, from: AttributeType) -> String? {
        switch (value, from) {
        case (.integer(let i), .bool): return i == 0 ? "false" : "true"
        case (.integer(let i), .date): return DateText.writable.contains(Double(i)) ? DateText.format(Double(i)) : nil
        case (.integer(let i), _): return String(i)
        case (.real(let d), .date): return DateText.writable.contains(d) ? DateText.format(d) : nil
        case (.real(let d), _): return shortest(d, float: from == .float)
        case (.text(let s), .uuid): return s.lowercased()
        case (.text(let s), _): return s
        case (.blob(let bytes), _): return String(validating: bytes, as: UTF8.self)
        default: return nil
        }
    }

    /// `true`/`false`/`YES`/`NO`/`1`/`0`, any case; numbers 0 and 1.
    static func bool(_ value: Value) -> Bool? {
        switch value {
        case .integer(let i): return i == 0 ? false : i == 1 ? true : nil
        case .real(let d): return d == 0 ? false : d == 1 ? true : nil
        case .text(let s):
            switch s.lowercased() {
            case "true", "yes", "1": return true
            case "false", "no", "0": return false
            default: return nil
            }
        default: return nil
        }
    }

    /// The shortest text that reads back as `d`, without exponent, with at least one fractional
    /// digit (`3.0`, `0.00001`); a float's own shortest form for float values.
    public static func shortest(_ d: Double, float: Bool = false) -> String? {
        guard d.isFinite else { return nil }
        if d == 0 { return "0.0" }
        let text = float ? Float(d).description : d.description
        // Swift writes "250.0", "0.1": already the form wanted unless it chose an exponent.
        if !text.utf8.contains(UInt8(ascii: "e")) { return text }
        guard let canonical = DecimalText.canonical(text) else { return nil }
        return canonical.contains(".") ? canonical : canonical + ".0"
    }

    // MARK: Functions

    /// `round(x, places)`, half away from zero, on the value's storage class: integers stay integers
    /// (nil when the result leaves int64), reals are rounded through their shortest decimal text
    /// (so 2.675 rounds to 2.68), decimal text exactly.
    public static func round(_ value: Value, places: Int64) -> Value {
        let places = Int(clamping: places)
        switch value {
        case .integer(let i):
            guard places < 0 else { return value }
            return DecimalArithmetic.round(String(i), places: places).flatMap { Int64($0) }.map(Value.integer) ?? .null
        case .real(let d):
            guard let text = shortest(d), let rounded = DecimalArithmetic.round(text, places: places), let r = Double(rounded) else { return .null }
            return .real(r)
        case .text(let s):
            return DecimalArithmetic.round(s, places: places).map(Value.text) ?? .null
        default:
            return .null
        }
    }

    /// `substring(s, start, length)`: Unicode scalars, counted from 1 like SQL's `substr`; the
    /// positions `start ..< start + length` that exist (SQL standard); nil for a negative length.
    public static func substring(_ s: String, start: Int64, length: Int64?) -> String? {
        let scalars = Array(s.unicodeScalars)
        if let length, length < 0 { return nil }
        let first = max(start, 1)
        let end: Int64   // exclusive, 1-based
        if let length {
            let (sum, overflow) = start.addingReportingOverflow(length)
            end = overflow ? Int64.max : sum
        } else {
            end = Int64(scalars.count) + 1
        }
        let last = min(end, Int64(scalars.count) + 1)
        guard first < last else { return "" }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[Int(first - 1)..<Int(last - 1)])
        return String(view)
    }

    /// Removes White_Space scalars at both ends.
    public static func trim(_ s: String) -> String {
        let scalars = s.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        return String(scalars[first...last])
    }
}
