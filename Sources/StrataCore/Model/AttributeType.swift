/// The attribute types of a model and how each is stored in SQLite (SPEC §2).
public enum AttributeType: String, CaseIterable, Sendable, Codable, Hashable {
    case int16, int32, int64, decimal, double, float, string, bool, date, binary, uuid, uri

    /// The declared SQLite column type.
    public var sqlType: String {
        switch self {
        case .int16, .int32, .int64, .bool: return "INTEGER"
        case .double, .float, .date: return "REAL"
        case .decimal, .string, .uuid, .uri: return "TEXT"
        case .binary: return "BLOB"
        }
    }

    /// The range an integer attribute accepts (checked on write and audited).
    public var integerRange: ClosedRange<Int64>? {
        switch self {
        case .int16: return Int64(Int16.min)...Int64(Int16.max)
        case .int32: return Int64(Int32.min)...Int64(Int32.max)
        case .int64: return Int64.min...Int64.max
        default: return nil
        }
    }

    public var isInteger: Bool { integerRange != nil }
    /// Numbers that arithmetic and `min`/`max` apply to.
    public var isNumeric: Bool { isInteger || self == .double || self == .float || self == .decimal }
    /// Types whose values can be ordered with `<`, `min` and `max`.
    public var isOrdered: Bool { isNumeric || self == .date }
    /// Types the string operators and length rules apply to.
    public var isTextual: Bool { self == .string || self == .uri || self == .uuid }

    /// Whether a value of `self` can be stored in an attribute of `wider` without loss
    /// (SPEC §4 numeric widening: int16 → int32 → int64, float → double, integer → double).
    public func widens(to wider: AttributeType) -> Bool {
        if self == wider { return true }
        switch (self, wider) {
        case (.int16, .int32), (.int16, .int64), (.int32, .int64): return true
        case (.float, .double): return true
        case (.int16, .double), (.int32, .double), (.int64, .double): return true
        default: return false
        }
    }
}
