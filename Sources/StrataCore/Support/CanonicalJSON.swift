/// A minimal JSON value with one canonical text form: object keys sorted by their UTF-8
/// bytes, no spaces, strings escaped as RFC 8259 requires (and nothing else escaped).
/// Version hashes are SHA-256 over this form, so its bytes must never change.
public indirect enum CanonicalJSON: Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case string(String)
    case array([CanonicalJSON])
    case object([String: CanonicalJSON])

    public static func optional(_ s: String?) -> CanonicalJSON { s.map(CanonicalJSON.string) ?? .null }

    public var text: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .string(let s): return CanonicalJSON.escape(s)
        case .array(let items): return "[" + items.map(\.text).joined(separator: ",") + "]"
        case .object(let members):
            let sorted = members.sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
            return "{" + sorted.map { CanonicalJSON.escape($0.key) + ":" + $0.value.text }.joined(separator: ",") + "}"
        }
    }

    static func escape(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
