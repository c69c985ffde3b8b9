import Foundation

/// A value as SQLite stores it: the storage classes NULL, INTEGER, REAL, TEXT and BLOB.
///
/// Model literals (defaults, bounds), predicate literals and `--set` values are all
/// converted to `Value` in the storage form of their attribute's type (SPEC §2 table).
public enum Value: Hashable, Sendable, Codable, CustomStringConvertible {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    public var isNull: Bool { if case .null = self { return true } else { return false } }

    /// A short human-readable form, as reports print offending values.
    public var description: String {
        switch self {
        case .null: return "nil"
        case .integer(let i): return String(i)
        case .real(let d): return Value.format(d)
        case .text(let s): return Value.quoted(s)
        case .blob(let b): return "<\(b.count) bytes>"
        }
    }

    /// The value as a JSON-compatible scalar (blobs as base64).
    public var jsonObject: Any {
        switch self {
        case .null: return NSNull()
        case .integer(let i): return i
        case .real(let d): return d
        case .text(let s): return s
        case .blob(let b): return Data(b).base64EncodedString()
        }
    }

    /// A number as a Double, for comparisons of bounds.
    public var doubleValue: Double? {
        switch self {
        case .integer(let i): return Double(i)
        case .real(let d): return d
        case .text(let s): return Double(s)
        default: return nil
        }
    }

    /// `text` in double quotes on one line, escaped as a Swift string literal: `"` and `\` with a backslash,
    /// control characters as `\n`, `\r`, `\t`, `\0` or `\u{1B}`. A value can neither close its quotes early nor
    /// start a line of a report or message of its own. Scalar by scalar: a mark after `"` is still escaped.
    static func quoted(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        out.append("\"")
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out.append(contentsOf: "\\\"".unicodeScalars)
            case "\\": out.append(contentsOf: "\\\\".unicodeScalars)
            case "\n": out.append(contentsOf: "\\n".unicodeScalars)
            case "\r": out.append(contentsOf: "\\r".unicodeScalars)
            case "\t": out.append(contentsOf: "\\t".unicodeScalars)
            case "\0": out.append(contentsOf: "\\0".unicodeScalars)
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
                out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            default: out.append(scalar)
            }
        }
        out.append("\"")
        return String(out)
    }

    static func format(_ d: Double) -> String {
        if d == d.rounded(), abs(d) < 1e15 { return String(format: "%.1f", d) }
        return String(d)
    }
}
