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
                throw CoercionError(DateText.problem(trimmed) ?? "'\(text)' is not an ISO 8601 date")
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
            guard isInteger, let i = Int64(exactly: number) else {
                throw CoercionError("\(Value.format(number)) is not an integer")
            }
            try checkRange(i)
            return .integer(i)
        case .double, .float, .date:
            return .real(number)
        case .decimal:
            let text = isInteger ? (Int64(exactly: number).map { String($0) } ?? String(number)) : String(number)
            guard let canonical = DecimalText.canonical(text) else { throw CoercionError("\(number) is not a decimal") }
            return .text(canonical)
        default:
            throw CoercionError("a number is not a \(rawValue)")
        }
    }

    /// Converts an exact integer literal to this type's storage form (never through a Double for integer
    /// and decimal types).
    public func value(fromInteger i: Int64) throws(CoercionError) -> Value {
        switch self {
        case .int16, .int32, .int64:
            try checkRange(i)
            return .integer(i)
        case .decimal:
            return .text(String(i))
        default:
            return try value(fromNumber: Double(i), isInteger: true)
        }
    }

    /// Throws when `i` is outside this integer type's range.
    public func checkRange(_ i: Int64) throws(CoercionError) {
        if let range = integerRange, !range.contains(i) {
            throw CoercionError("\(i) is out of range for \(rawValue) (\(range.lowerBound)...\(range.upperBound))")
        }
    }
}
