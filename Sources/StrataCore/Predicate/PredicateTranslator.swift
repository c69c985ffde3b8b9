/// Type-checks a parsed predicate against the model and translates it to SQL fragments.
struct PredicateTranslator {
    let model: Model
    let layout: StoreLayout
    let context: PredicateContext
    /// The source text of real literals by offset (`PredicateParser.realLiteralTexts`).
    var realLiteralTexts: [Int: String] = [:]
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
        var pk: SQLText
        var label: String
    }

    /// A boolean SQL expression and whether it can be NULL (only a nullable one needs care under NOT).
    /// `kind` says which operator is outermost, so chains are spliced flat and parentheses are added
    /// only where SQL's precedence needs them.
    struct Condition {
        enum Kind {
            /// A comparison or function call: `NOT` needs parentheses around it.
            case atom
            /// One parenthesized group, a subquery or a constant: `NOT` takes it as it is.
            case grouped
            case not, and, or
        }
        var fragment: SQLText
        var nullable: Bool
        var kind: Kind = .atom
        /// The condition's truth when known at compile time (`TRUEPREDICATE`, `nil == nil`).
        var constant: Bool?
        static let `true` = Condition(fragment: .keyword(.true), nullable: false, kind: .grouped, constant: true)
        static let `false` = Condition(fragment: .keyword(.false), nullable: false, kind: .grouped, constant: false)
    }

    /// An exact number: integers never pass through a Double.
    enum Number {
        case integer(Int64)
        case real(Double)

        var double: Double {
            switch self {
            case .integer(let i): return Double(i)
            case .real(let d): return d
            }
        }

        var isInteger: Bool { if case .integer = self { return true } else { return false } }

        var value: Value {
            switch self {
            case .integer(let i): return .integer(i)
            case .real(let d): return .real(d)
            }
        }

        var display: String {
            switch self {
            case .integer(let i): return String(i)
            case .real(let d): return String(d)
            }
        }
    }

    /// A typed SQL value.
    struct Typed {
        var fragment: SQLText
        var type: AttributeType
        var nullable: Bool
        /// The value when known at compile time (it is then bound as `?`).
        var constant: Value?
        var offset: Int
        /// How the value reads in messages: `rating`, `author.name`, `$NOW`.
        var label: String
        /// Integer arithmetic SQLite evaluates, which may overflow (SQLite then yields a REAL).
        var mayOverflow = false
        /// Double arithmetic SQLite evaluates, which may leave the finite doubles (SQLite then yields an
        /// infinity, nil once settled; PostgreSQL's operation gave nil already).
        var mayBeInfinite = false
    }

    enum Literal {
        case string(String)
        case number(Number)
        case bool(Bool)
        case null

        var display: String {
            switch self {
            case .string(let s): return "\"\(s)\""
            case .number(let n): return n.display
            case .bool(let b): return b ? "YES" : "NO"
            case .null: return "nil"
            }
        }
    }

    /// A to-many key path waiting for ANY/ALL/NONE: the rows of the destination reachable from the
    /// current object, and the rest of the key path to resolve on them.
    struct Collection {
        var from: SQLText
        var correlation: SQLText
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
        case relationship(pk: SQLText, label: String, offset: Int)
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
        return Position(entity: entity, alias: alias, pk: "\(ColumnName("_pk", qualifier: alias))", label: entity)
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
        case .not(var inner, _):
            // Two-valued logic: NOT NOT p is p (the nullable flag keeps NULL meaning false).
            var negated = true
            while case .not(let next, _) = inner { inner = next; negated.toggle() }
            let c = try predicate(inner, in: scope)
            return negated ? not(c) : c
        case .and(let terms):
            return try chain(terms, kind: .and, in: scope)
        case .or(let terms):
            return try chain(terms, kind: .or, in: scope)
        case .comparison(let comparison):
            let condition = try self.comparison(comparison, in: scope)
            try SQLComplexity.checkSize(condition.fragment, offset: comparison.opOffset)
            return condition
        }
    }

    /// `k == v1 OR k == v2 OR …` with many literals on one key path becomes `k IN {v1, v2, …}` (bound as
    /// one JSON array): the same rows, but no bound variable per term, so such chains have no length limit.
    static func mergingEqualities(_ terms: [PredicateNode]) -> [PredicateNode] {
        var groups: [String: [Int]] = [:]
        for (i, term) in terms.enumerated() {
            guard case .comparison(let c) = term, c.modifier == nil, c.op == .equal, c.options.isEmpty,
                  case .keyPath(let path) = c.lhs, path.aggregate == nil else { continue }
            switch c.rhs {
            case .integer, .real, .string, .bool: break
            default: continue
            }
            let key = (path.variable ?? "") + "$" + path.components.map(\.name).joined(separator: ".")
            groups[key, default: []].append(i)
        }
        var replaced: [Int: PredicateNode] = [:]
        var removed = Set<Int>()
        for indices in groups.values where indices.count > inlineListLimit {
            guard case .comparison(let first) = terms[indices[0]] else { continue }
            let items: [PredicateExpression] = indices.compactMap {
                if case .comparison(let c) = terms[$0] { return c.rhs } else { return nil }
            }
            var merged = first
            merged.op = .in
            merged.rhs = .list(items, offset: first.rhs.offset)
            replaced[indices[0]] = .comparison(merged)
            removed.formUnion(indices.dropFirst())
        }
        guard !replaced.isEmpty else { return terms }
        return terms.indices.compactMap { removed.contains($0) ? nil : (replaced[$0] ?? terms[$0]) }
    }

    /// `NOT c`, two-valued: a nullable condition is coalesced to false first.
    func not(_ c: Condition) -> Condition {
        Condition(fragment: negation(c), nullable: false, kind: .not, constant: c.constant.map { !$0 })
    }

    /// Terms per parenthesized group of a long chain: SQLite's expression depth grows with a flat
    /// chain's length, so chains longer than this become a balanced tree of groups.
    static let chainGroupSize = 64

    /// A flat AND/OR chain: nested chains of the same operator are spliced in; an OR inside an AND is
    /// parenthesized (AND binds tighter), nothing else is.
    mutating func chain(_ terms: [PredicateNode], kind: Condition.Kind,
                        in scope: Position) throws(PredicateSyntaxError) -> Condition {
        var flat: [PredicateNode] = []
        var pending = terms[...].reversed().map { $0 }
        while let term = pending.popLast() {
            if kind == .and, case .and(let inner) = term { pending.append(contentsOf: inner.reversed()); continue }
            if kind == .or, case .or(let inner) = term { pending.append(contentsOf: inner.reversed()); continue }
            flat.append(term)
        }
        if kind == .or { flat = Self.mergingEqualities(flat) }
        var parts: [SQLText] = []
        parts.reserveCapacity(flat.count)
        var nullable = false
        for term in flat {
            let c = try predicate(term, in: scope)
            nullable = nullable || c.nullable
            if c.kind == kind {
                parts.append(c.fragment)
            } else if kind == .and, c.kind == .or {
                parts.append(c.fragment.parenthesized)
            } else {
                parts.append(c.fragment)
            }
        }
        if parts.count == 1 { return Condition(fragment: parts[0], nullable: nullable, kind: kind) }
        let separator: SQLText = kind == .and ? " AND " : " OR "
        while parts.count > Self.chainGroupSize {
            var grouped: [SQLText] = []
            grouped.reserveCapacity(parts.count / Self.chainGroupSize + 1)
            var i = 0
            while i < parts.count {
                let slice = Array(parts[i..<min(i + Self.chainGroupSize, parts.count)])
                grouped.append(slice.count == 1 ? slice[0] : slice.joined(separator: separator).parenthesized)
                i += Self.chainGroupSize
            }
            parts = grouped
        }
        return Condition(fragment: parts.joined(separator: separator), nullable: nullable, kind: kind)
    }

    /// `NOT c` as SQL, two-valued: a nullable condition is coalesced to false first; parentheses only
    /// where the condition is not already one group.
    func negation(_ c: Condition) -> SQLText {
        if c.nullable { return "NOT COALESCE(" + c.fragment + ", " + .keyword(.false) + ")" }
        switch c.kind {
        case .grouped: return "NOT " + c.fragment
        case .atom, .not, .and, .or: return "NOT " + c.fragment.parenthesized
        }
    }

    // MARK: Expressions

    /// An expression as an operand; fails as soon as its SQL grows past what one statement may hold
    /// (some translations repeat an operand, so nesting them could otherwise grow the text exponentially).
    mutating func operand(_ expression: PredicateExpression, in scope: Position) throws(PredicateSyntaxError) -> Operand {
        let result = try translate(expression, in: scope)
        if case .typed(let t) = result { try SQLComplexity.checkSize(t.fragment, offset: expression.offset) }
        return result
    }

    private mutating func translate(_ expression: PredicateExpression, in scope: Position) throws(PredicateSyntaxError) -> Operand {
        switch expression {
        case .keyPath(let path):
            return try resolve(path, in: scope)
        case .integer(let i, let offset):
            return .literal(.number(.integer(i)), offset: offset)
        case .real(let d, let offset):
            return .literal(.number(.real(d)), offset: offset)
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
        case .variableDuration(let name, let unit, let offset):
            return try variableDuration(name, unit: unit, offset: offset)
        case .argument(let index, let offset):
            switch context.arguments[index] {
            case .text(let s): return .literal(.string(s), offset: offset)
            case .number(let d):
                let number: Number = d == d.rounded() && Swift.abs(d) < 9e15 ? .integer(Int64(d)) : .real(d)
                return .literal(.number(number), offset: offset)
            case .list(let items): return .list(items.map { $0.map { .literal(.string($0), offset: offset) } ?? .literal(.null, offset: offset) }, offset: offset)
            case .null: return .literal(.null, offset: offset)
            case .key: preconditionFailure("the parser rejects keys for %@")
            }
        case .list(let items, let offset):
            var operands: [Operand] = []
            for item in items { operands.append(try operand(item, in: scope)) }
            return .list(operands, offset: offset)
        case .arithmetic(let first, let steps):
            return try arithmeticChain(first, steps, in: scope)
        case .negate(let inner, let offset):
            return try negate(try operand(inner, in: scope), offset: offset)
        case .function(let name, let args, let offset):
            return try callFunction(name, args, offset: offset, in: scope)
        case .ternary(let condition, let a, let b, let offset):
            return try ternary(condition, a, b, offset: offset, in: scope)
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
                                    ?? "pass it with --var \(name)=VALUE (the library's `variables`) or give it a default in the file's variables:")
    }

    /// `$DAYS days`: a variable standing for a duration's count (SPEC §10); its value must be an integer.
    func variableDuration(_ name: String, unit: Double, offset: Int) throws(PredicateSyntaxError) -> Operand {
        let length = name.unicodeScalars.count + 1
        guard let text = context.variables[name], name != "NOW" else {
            if name == "NOW" || variables[name] != nil {
                throw PredicateSyntaxError("$\(name) cannot count a duration", offset: offset, length: length,
                                           hint: "a duration's count is a number or a variable holding one, as in $DAYS days")
            }
            _ = try variable(name, offset: offset)
            preconditionFailure("variable() throws for unknown names")
        }
        guard let count = Int64(text.trimmingCharacters(in: .whitespaces)) else {
            throw PredicateSyntaxError("$\(name) counts a duration, but its value '\(text)' is not an integer", offset: offset,
                                       length: length, hint: "give a whole number, as in --var \(name)=30")
        }
        let seconds = Double(count) * unit
        return .typed(Typed(fragment: .bind(.real(seconds)), type: .double, nullable: false, constant: .real(seconds),
                            offset: offset, label: "$\(name) (a duration)"))
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
