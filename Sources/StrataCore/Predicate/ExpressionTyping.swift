/// The typing rules of expression values (SPEC §11.4 "Expression typing"), the same on every engine.
enum ExpressionTyping {
    /// The casts, by function name: `int16(x)` … `date(x)`.
    static let casts: [String: AttributeType] = [
        "int16": .int16, "int32": .int32, "int64": .int64, "decimal": .decimal, "double": .double,
        "float": .float, "string": .string, "bool": .bool, "date": .date,
    ]

    /// The one type two values share after widening (coalesce's arguments, TERNARY's branches,
    /// min/max), or nil when they cannot share one: integers widen to int64, integers and
    /// doubles/floats to double, float to double, integers to decimal; decimal never mixes with a
    /// double.
    static func common(_ a: AttributeType, _ b: AttributeType) -> AttributeType? {
        if a == b { return a }
        switch (a, b) {
        case let (x, y) where x.isInteger && y.isInteger: return .int64
        case let (x, y) where (x.isInteger || x == .float || x == .double) && (y.isInteger || y == .float || y == .double): return .double
        case let (x, .decimal) where x.isInteger: return .decimal
        case let (.decimal, y) where y.isInteger: return .decimal
        default: return nil
        }
    }

    /// Whether a value of type `source` may be assigned to an attribute of type `target`: the same
    /// type after widening; an integer result into any integer attribute (the audit judges the
    /// range); integers into double, float and decimal; float into double.
    static func assignable(_ source: AttributeType, to target: AttributeType) -> Bool {
        if source == target { return true }
        if source.isInteger { return target.isInteger || target == .double || target == .float || target == .decimal }
        return source == .float && target == .double
    }

    /// The hint for a value of the wrong type: the cast that converts it.
    static func castHint(to target: AttributeType, _ label: String) -> String {
        if casts[target.rawValue] != nil { return "wrap in \(target.rawValue)(): \(target.rawValue)(\(label))" }
        return "\(target.rawValue) attributes take \(target.rawValue) values only"
    }
}
