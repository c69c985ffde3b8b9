import Foundation

/// The value-level rules of one attribute, applied to a single value (used to check that a
/// default satisfies its own attribute's rules; the audit applies the same rules in SQL).
public enum AttributeRules {
    /// A description of the first rule `value` breaks, or nil.
    public static func violation(of attribute: Attribute, by value: Value) -> String? {
        if case .integer(let i) = value, let range = attribute.type.integerRange, !range.contains(i) {
            return "out of range for \(attribute.type.rawValue)"
        }
        if let min = attribute.minValue?.doubleValue, let v = value.doubleValue, v < min { return "less than min \(attribute.minValue!)" }
        if let max = attribute.maxValue?.doubleValue, let v = value.doubleValue, v > max { return "greater than max \(attribute.maxValue!)" }
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
}
