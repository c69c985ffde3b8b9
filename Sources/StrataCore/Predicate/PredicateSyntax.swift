/// The syntax tree of a predicate, as parsed (before type checking). Offsets are 0-based scalar
/// offsets into the predicate string, for located errors.
indirect enum PredicateNode: Hashable, Sendable {
    case constant(Bool)
    case not(PredicateNode, offset: Int)
    /// `a AND b AND c`: a flat chain (never a nested pair), so long chains need no deep recursion.
    case and([PredicateNode])
    /// `a OR b OR c`
    case or([PredicateNode])
    /// `lhs op rhs`, with an optional ANY/ALL/NONE/SOME modifier and `[cd]` options.
    case comparison(Comparison)
}

/// One comparison: `ANY ingredients.name ==[c] "salt"`.
struct Comparison: Hashable, Sendable {
    enum Modifier: String, Hashable, Sendable { case any = "ANY", all = "ALL", none = "NONE" }
    enum Operator: String, Hashable, Sendable {
        case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
        case between = "BETWEEN", `in` = "IN"
        case beginsWith = "BEGINSWITH", contains = "CONTAINS", endsWith = "ENDSWITH", like = "LIKE", matches = "MATCHES"

        var isOrdering: Bool { [.less, .lessOrEqual, .greater, .greaterOrEqual].contains(self) }
        var isStringOperator: Bool { [.beginsWith, .contains, .endsWith, .like, .matches].contains(self) }
    }
    struct Options: Hashable, Sendable {
        var caseInsensitive = false
        var diacriticInsensitive = false
        var isEmpty: Bool { !caseInsensitive && !diacriticInsensitive }
    }

    var modifier: Modifier?
    var modifierOffset: Int?
    var lhs: PredicateExpression
    var op: Operator
    var opOffset: Int
    var options: Options
    var rhs: PredicateExpression
}

/// A value-producing expression.
indirect enum PredicateExpression: Hashable, Sendable {
    /// A key path: names separated by dots, possibly ending in an aggregate (`ingredients.@count`),
    /// possibly starting at a SUBQUERY variable (`$x.name`).
    case keyPath(KeyPath)
    case integer(Int64, offset: Int)
    case real(Double, offset: Int)
    case string(String, offset: Int)
    case bool(Bool, offset: Int)
    case null(offset: Int)
    /// `$NAME` (not a SUBQUERY variable).
    case variable(String, offset: Int)
    /// `%@`: the index of the argument it consumes.
    case argument(index: Int, offset: Int)
    /// `{a, b, c}`
    case list([PredicateExpression], offset: Int)
    /// `a + b - c` or `a * b / c`: a left-associative chain of one precedence level, kept flat.
    case arithmetic(PredicateExpression, [ArithmeticStep])
    case negate(PredicateExpression, offset: Int)
    /// `30 days`: the number of seconds.
    case duration(Double, offset: Int)
    /// `$DAYS days`: a variable standing for a duration's count; `unit` is the unit's seconds.
    case variableDuration(String, unit: Double, offset: Int)
    /// `lowercase(name)`
    case function(String, [PredicateExpression], offset: Int)
    /// `TERNARY(predicate, a, b)`: NSExpression's conditional.
    case ternary(PredicateNode, PredicateExpression, PredicateExpression, offset: Int)
    /// `SUBQUERY(collection, $x, predicate)`, optionally followed by `.@count`.
    case subquery(collection: KeyPath, variable: String, predicate: PredicateNode, count: Bool, offset: Int)

    var offset: Int {
        switch self {
        case .keyPath(let k): return k.offset
        case .integer(_, let o), .real(_, let o), .string(_, let o), .bool(_, let o), .null(let o),
             .variable(_, let o), .argument(_, let o), .list(_, let o),
             .negate(_, let o), .duration(_, let o), .function(_, _, let o), .variableDuration(_, _, let o),
             .ternary(_, _, _, let o):
            return o
        case .arithmetic(let first, _): return first.offset
        case .subquery(_, _, _, _, let o): return o
        }
    }
}

enum ArithmeticOperator: String, Hashable, Sendable { case add = "+", subtract = "-", multiply = "*", divide = "/" }

/// One `op operand` of an arithmetic chain; `offset` is the operator's.
struct ArithmeticStep: Hashable, Sendable {
    var op: ArithmeticOperator
    var operand: PredicateExpression
    var offset: Int
}

/// `author.name`, `ingredients.@count`, `$x.name`, or a `%K` substitution.
struct KeyPath: Hashable, Sendable {
    struct Component: Hashable, Sendable {
        var name: String
        var offset: Int
    }
    /// The SUBQUERY variable the path starts at (`$x` in `$x.name`), if any.
    var variable: String?
    var components: [Component]
    /// A trailing aggregate: `count`, `sum`, `avg`, `min`, `max`.
    var aggregate: String?
    var aggregateOffset: Int = 0
    /// An aggregate's own key path after it (`@sum.quantity` → ["quantity"]).
    var aggregateComponents: [Component] = []
    var offset: Int
}
