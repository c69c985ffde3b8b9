import Foundation

/// The value-level rules of one attribute, applied to a single value (used to check that a
/// default satisfies its own attribute's rules; the audit applies the same rules in SQL).
public enum AttributeRules {
    /// A description of the first rule `value` breaks, or nil.
    public static func violation(of attribute: Attribute, by value: Value) -> String? {
        if case .integer(let i) = value, let range = attribute.type.integerRange, !range.contains(i) {
            return "out of range for \(attribute.type.rawValue)"
        }
        if let min = attribute.minValue, order(value, min) == -1 { return "less than min \(min)" }
        if let max = attribute.maxValue, order(value, max) == 1 { return "greater than max \(max)" }
        if case .text(let s) = value {
            if let minLength = attribute.minLength, s.count < minLength { return "shorter than minLength \(minLength)" }
            if let maxLength = attribute.maxLength, s.count > maxLength { return "longer than maxLength \(maxLength)" }
            // The audit's expression (`\A(?:…)\z`), so a default passes here exactly when the audit accepts it.
            if let pattern = attribute.pattern, let regex = try? MatchesRegex.compile(pattern, caseInsensitive: false) {
                let range = NSRange(s.startIndex..., in: s)
                if regex.firstMatch(in: s, range: range) == nil { return "does not match pattern \"\(pattern)\"" }
            }
        }
        if case .blob(let b) = value {
            if let minLength = attribute.minLength, b.count < minLength { return "shorter than minLength \(minLength)" }
            if let maxLength = attribute.maxLength, b.count > maxLength { return "longer than maxLength \(maxLength)" }
        }
        return nil
    }

    /// The exact order of two numbers or dates in their storage form (-1, 0 or 1), as the audit's SQL compares
    /// them: integers as integers (a Double holds only 53 bits: 2^53 + 1 would equal 2^53), decimals by their
    /// digits, reals and dates as reals. Nil when one is not a number.
    public static func order(_ a: Value, _ b: Value) -> Int? {
        func sign<T: Comparable>(_ x: T, _ y: T) -> Int { x < y ? -1 : (x > y ? 1 : 0) }
        switch (a, b) {
        case let (.integer(x), .integer(y)): return sign(x, y)
        case let (.real(x), .real(y)): return x.isNaN || y.isNaN ? nil : sign(x, y)
        case let (.real(x), .integer(y)): return order(.integer(y), .real(x)).map { -$0 }
        case let (.integer(x), .real(y)):
            guard !y.isNaN else { return nil }
            if y >= 0x1p63 { return -1 }
            if y < -0x1p63 { return 1 }
            let whole = y.rounded(.down)
            let integral = Int64(whole)
            return integral != x ? sign(x, integral) : (y > whole ? -1 : 0)
        case (.text, _), (_, .text):
            guard let x = decimalText(a), let y = decimalText(b) else { return nil }
            return TextFolding.compareDecimals(x, y)
        default: return nil
        }
    }

    private static func decimalText(_ value: Value) -> String? {
        switch value {
        case .text(let text): return text
        case .integer(let i): return String(i)
        case .real(let d): return d.isFinite ? String(d) : nil
        default: return nil
        }
    }
}
