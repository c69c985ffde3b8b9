import Foundation

/// Why a literal could not be read as a value of an attribute type.
public struct CoercionError: Error, Sendable, Hashable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

extension AttributeType {
    /// Reads a textual literal (YAML scalar, predicate string, `--set` or `--var` value)
    /// as a value of this type, in its storage form.
    ///
    /// - Throws: `CoercionError` naming the expected form.
    public func value(fromText text: String) throws(CoercionError) -> Value {
        // YAML and CLI values rarely carry spaces: skip Foundation's trimming (slow on Linux) when the ends are clean.
        let trimmed = text.first.map(\.isWhitespace) == true || text.last.map(\.isWhitespace) == true
            ? text.trimmingCharacters(in: .whitespaces) : text
        switch self {
        case .int16, .int32, .int64:
            guard let i = Int64(trimmed) else { throw CoercionError("'\(text)' is not an integer") }
            try checkRange(i)
            return .integer(i)
        case .double, .float:
            guard let d = Double(trimmed), d.isFinite else { throw CoercionError("'\(text)' is not a number") }
            return .real(d)
        case .decimal:
            guard let canonical = DecimalText.canonical(trimmed) else {
                throw CoercionError("'\(text)' is not a decimal number (write digits, e.g. \"12.50\")")
            }
            return .text(canonical)
        case .string, .uri:
            return .text(text)
        case .bool:
            switch trimmed.lowercased() {
            case "true", "yes", "1": return .integer(1)
            case "false", "no", "0": return .integer(0)
            default: throw CoercionError("'\(text)' is not a boolean (use true/false or YES/NO)")
            }
        case .date:
            guard let seconds = DateText.parse(trimmed) else {
                throw CoercionError("'\(text)' is not an ISO 8601 date (e.g. \"2024-05-01\" or \"2024-05-01T00:00:00Z\")")
            }
            return .real(seconds)
        case .binary:
            guard let data = Data(base64Encoded: trimmed) else { throw CoercionError("'\(text)' is not base64") }
            return .blob(Array(data))
        case .uuid:
            guard let uuid = UUID(uuidString: trimmed) else { throw CoercionError("'\(text)' is not a UUID") }
            return .text(uuid.uuidString.lowercased())
        }
    }

    /// Converts a number literal to this type's storage form.
    public func value(fromNumber number: Double, isInteger: Bool) throws(CoercionError) -> Value {
        switch self {
        case .int16, .int32, .int64:
            guard isInteger, number == number.rounded(), abs(number) < 9.3e18 else {
                throw CoercionError("\(Value.format(number)) is not an integer")
            }
            let i = Int64(number)
            try checkRange(i)
            return .integer(i)
        case .double, .float, .date:
            return .real(number)
        case .decimal:
            let text = isInteger ? String(Int64(number)) : String(number)
            guard let canonical = DecimalText.canonical(text) else { throw CoercionError("\(number) is not a decimal") }
            return .text(canonical)
        default:
            throw CoercionError("a number is not a \(rawValue)")
        }
    }

    /// Throws when `i` is outside this integer type's range.
    public func checkRange(_ i: Int64) throws(CoercionError) {
        if let range = integerRange, !range.contains(i) {
            throw CoercionError("\(i) is out of range for \(rawValue) (\(range.lowerBound)...\(range.upperBound))")
        }
    }
}

/// ISO 8601 dates to seconds since 1970 (UTC). Date-only literals are midnight UTC.
public enum DateText {
    public static func parse(_ text: String) -> Double? {
        let full = ISO8601DateFormatter()
        full.formatOptions = [.withInternetDateTime]
        if let d = full.date(from: text) { return d.timeIntervalSince1970 }
        full.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let d = full.date(from: text) { return d.timeIntervalSince1970 }
        let dateOnly = ISO8601DateFormatter()
        dateOnly.formatOptions = [.withFullDate]
        dateOnly.timeZone = TimeZone(identifier: "UTC")
        if text.count == 10, let d = dateOnly.date(from: text) { return d.timeIntervalSince1970 }
        return nil
    }

    /// `2024-05-01T00:00:00Z` (fractions kept when present).
    public static func format(_ seconds: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = seconds == seconds.rounded()
            ? [.withInternetDateTime] : [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date(timeIntervalSince1970: seconds))
    }
}

/// Canonical decimal strings: no exponent, no trailing zeros, no leading zeros ("12.50" → "12.5").
public enum DecimalText {
    public static func canonical(_ text: String) -> String? {
        var s = Substring(text)
        var negative = false
        if s.first == "-" || s.first == "+" { negative = s.first == "-"; s = s.dropFirst() }
        var exponent = 0
        if let e = s.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            guard let x = Int(s[s.index(after: e)...]), abs(x) < 10_000 else { return nil }
            exponent = x
            s = s[..<e]
        }
        let parts = s.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let intPart = parts.first.map(String.init) ?? ""
        let fracPart = parts.count > 1 ? String(parts[1]) : ""
        guard !(intPart.isEmpty && fracPart.isEmpty),
              intPart.allSatisfy(\.isASCIIDigit), fracPart.allSatisfy(\.isASCIIDigit) else { return nil }
        var digits = Array(intPart + fracPart)
        var pointPosition = intPart.count + exponent   // digits before the point
        if pointPosition < 0 { digits.insert(contentsOf: Array(repeating: "0", count: -pointPosition), at: 0); pointPosition = 0 }
        if pointPosition > digits.count { digits.append(contentsOf: Array(repeating: "0", count: pointPosition - digits.count)) }
        var integer = String(digits[..<pointPosition])
        var fraction = String(digits[pointPosition...])
        while integer.count > 1, integer.first == "0" { integer.removeFirst() }
        if integer.isEmpty { integer = "0" }
        while fraction.last == "0" { fraction.removeLast() }
        let body = fraction.isEmpty ? integer : integer + "." + fraction
        return (negative && body != "0") ? "-" + body : body
    }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
