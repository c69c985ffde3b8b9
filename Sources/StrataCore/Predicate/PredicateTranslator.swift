/// Type-checks a parsed predicate against the model and translates it to SQL fragments.
struct PredicateTranslator {
    let model: Model
    let layout: StoreLayout
    let context: PredicateContext
    /// SUBQUERY variables in scope.
    var variables: [String: Position] = [:]
    private var aliasCounter = 0

    init(model: Model, layout: StoreLayout, context: PredicateContext) {
        self.model = model
        self.layout = layout
        self.context = context
    }

    /// Where a key path is being resolved: an object of `entity`, whose row is directly in scope under
    /// `alias` (or reachable only through its primary key `pk`, a scalar SQL expression).
    struct Position {
        var entity: String
        var alias: String?
        var pk: SQLFragment
        var label: String
    }

    /// A boolean SQL expression and whether it can be NULL (only a nullable one needs care under NOT).
    struct Condition {
        var fragment: SQLFragment
        var nullable: Bool
        static let `true` = Condition(fragment: SQLFragment("1"), nullable: false)
        static let `false` = Condition(fragment: SQLFragment("0"), nullable: false)
    }

    /// A typed SQL value.
    struct Typed {
        var fragment: SQLFragment
        var type: AttributeType
        var nullable: Bool
        /// The value when known at compile time (it is then bound as `?`).
        var constant: Value?
        var offset: Int
        /// How the value reads in messages: `rating`, `author.name`, `$NOW`.
        var label: String
    }

    enum Literal {
        case string(String)
        case number(Double, isInteger: Bool)
        case bool(Bool)
        case null

        var display: String {
            switch self {
            case .string(let s): return "\"\(s)\""
            case .number(let d, let isInteger): return isInteger ? String(Int64(d)) : String(d)
            case .bool(let b): return b ? "YES" : "NO"
            case .null: return "nil"
            }
        }
    }

    /// A to-many key path waiting for ANY/ALL/NONE: the rows of the destination reachable from the
    /// current object, and the rest of the key path to resolve on them.
    struct Collection {
        var from: SQLFragment
        var correlation: SQLFragment
        var inner: Position
        var rest: KeyPath
        var label: String
        var offset: Int
    }

    enum Operand {
        case typed(Typed)
        case literal(Literal, offset: Int)
        case list([Operand], offset: Int)
        /// A to-one relationship itself: only comparable with nil.
        case relationship(pk: SQLFragment, label: String, offset: Int)
        case collection(Collection)

        var offset: Int {
            switch self {
            case .typed(let t): return t.offset
            case .literal(_, let o), .list(_, let o), .relationship(_, _, let o): return o
            case .collection(let c): return c.offset
            }
        }
    }

    func root(_ entity: String) -> Position {
        let alias = PredicateCompiler.tableAlias
        return Position(entity: entity, alias: alias, pk: SQLFragment("\(alias).\(SQL.quote("_pk"))"), label: entity)
    }

    mutating func nextAlias(_ prefix: String) -> String {
        aliasCounter += 1
        return "\(prefix)\(aliasCounter)"
    }

    // MARK: Predicates

    mutating func predicate(_ node: PredicateNode, in scope: Position) throws(PredicateSyntaxError) -> Condition {
        switch node {
        case .constant(let value):
            return value ? .true : .false
        case .not(let inner, _):
            let c = try predicate(inner, in: scope)
            let operand = c.nullable ? "COALESCE(" + c.fragment + ", 0)" : wrap(c.fragment)
            return Condition(fragment: "NOT " + operand, nullable: false)
        case .and(let a, let b):
            let l = try predicate(a, in: scope), r = try predicate(b, in: scope)
            return Condition(fragment: "(" + l.fragment + " AND " + r.fragment + ")", nullable: l.nullable || r.nullable)
        case .or(let a, let b):
            let l = try predicate(a, in: scope), r = try predicate(b, in: scope)
            return Condition(fragment: "(" + l.fragment + " OR " + r.fragment + ")", nullable: l.nullable || r.nullable)
        case .comparison(let comparison):
            return try self.comparison(comparison, in: scope)
        }
    }

    /// Parenthesizes unless the fragment is already atomic.
    func wrap(_ f: SQLFragment) -> SQLFragment {
        if f.sql.first == "(" && f.sql.last == ")" { return f }
        if f.sql == "1" || f.sql == "0" { return f }
        return "(" + f + ")"
    }

    // MARK: Expressions

    mutating func operand(_ expression: PredicateExpression, in scope: Position) throws(PredicateSyntaxError) -> Operand {
        switch expression {
        case .keyPath(let path):
            return try resolve(path, in: scope)
        case .integer(let i, let offset):
            return .literal(.number(Double(i), isInteger: true), offset: offset)
        case .real(let d, let offset):
            return .literal(.number(d, isInteger: false), offset: offset)
        case .string(let s, let offset):
            return .literal(.string(s), offset: offset)
        case .bool(let b, let offset):
            return .literal(.bool(b), offset: offset)
        case .null(let offset):
            return .literal(.null, offset: offset)
        case .duration(let seconds, let offset):
            return .typed(Typed(fragment: .bind(.real(seconds)), type: .double, nullable: false, constant: .real(seconds),
                                offset: offset, label: "a duration"))
        case .variable(let name, let offset):
            return try variable(name, offset: offset)
        case .argument(let index, let offset):
            switch context.arguments[index] {
            case .text(let s): return .literal(.string(s), offset: offset)
            case .number(let d): return .literal(.number(d, isInteger: d == d.rounded() && abs(d) < 9e15), offset: offset)
            case .list(let items): return .list(items.map { .literal(.string($0), offset: offset) }, offset: offset)
            case .key: preconditionFailure("the parser rejects keys for %@")
            }
        case .list(let items, let offset):
            var operands: [Operand] = []
            for item in items { operands.append(try operand(item, in: scope)) }
            return .list(operands, offset: offset)
        case .binary(let op, let a, let b, let offset):
            return try arithmetic(op, try operand(a, in: scope), try operand(b, in: scope), offset: offset)
        case .negate(let inner, let offset):
            return try negate(try operand(inner, in: scope), offset: offset)
        case .function(let name, let args, let offset):
            return try function(name, args, offset: offset, in: scope)
        case .subquery(let collection, let variable, let predicate, let count, let offset):
            return try subquery(collection, variable: variable, predicate: predicate, count: count, offset: offset, in: scope)
        }
    }

    func variable(_ name: String, offset: Int) throws(PredicateSyntaxError) -> Operand {
        if name == "NOW" {
            return .typed(Typed(fragment: .bind(.real(context.now)), type: .date, nullable: false,
                                constant: .real(context.now), offset: offset, label: "$NOW"))
        }
        if let text = context.variables[name] { return .literal(.string(text), offset: offset) }
        if variables[name] != nil {
            throw PredicateSyntaxError("$\(name) is an object; use one of its keys, as in $\(name).name", offset: offset,
                                       length: name.unicodeScalars.count + 1)
        }
        let known = Array(context.variables.keys) + ["NOW"]
        throw PredicateSyntaxError("unknown variable $\(name)", offset: offset, length: name.unicodeScalars.count + 1,
                                   hint: NameSuggestion.closest(to: name, in: known).map { "did you mean '$\($0)'?" }
                                    ?? "pass it with --var \(name)=VALUE or the hook's variables:")
    }

    /// Fails unless the operand is a single value (not a relationship, a to-many path or a list).
    func scalar(_ operand: Operand, purpose: String) throws(PredicateSyntaxError) -> Operand {
        switch operand {
        case .typed, .literal: return operand
        case .list(_, let offset):
            throw PredicateSyntaxError("a list cannot be used \(purpose)", offset: offset, hint: "lists go after IN or BETWEEN")
        case .relationship(_, let label, let offset):
            throw PredicateSyntaxError("'\(label)' is a relationship and cannot be used \(purpose)", offset: offset,
                                       hint: "use one of its attributes, as in \(label).name")
        case .collection(let c):
            throw PredicateSyntaxError("'\(c.label)' is a to-many relationship and cannot be used \(purpose)", offset: c.offset,
                                       hint: "use ANY/ALL/NONE, or \(c.label).@count")
        }
    }
}
