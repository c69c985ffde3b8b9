/// Compiles predicates (the NSPredicate format-string language, SPEC §6) into SQL with bound
/// arguments, type-checked against a model and its storage layout. Pure: it never opens a database.
///
/// ```swift
/// let compiler = PredicateCompiler(model: model, layout: layout)
/// let whereSQL = try compiler.compile("lastUsed >= $NOW - 30 days", entity: "Recipe",
///                                     context: PredicateContext(now: now))
/// // whereSQL.sql == #"t."lastUsed" >= ?"#, whereSQL.arguments == [.real(now - 2_592_000)]
/// ```
public struct PredicateCompiler: Sendable {
    public let model: Model
    public let layout: StoreLayout

    public init(model: Model, layout: StoreLayout) {
        self.model = model
        self.layout = layout
    }

    /// The deepest nesting a predicate or expression may have: levels of parentheses, NOT/`!`, unary
    /// minus, `{…}` lists, function calls and SUBQUERY, counted together. Deeper input is invalid
    /// (exit 2), so no input can exhaust the stack.
    public static let maxNestingDepth = 100

    /// The alias the compiled SQL uses for the entity's table.
    public static let tableAlias = "t"

    /// A boolean SQL expression over the entity's table, which the caller aliases as `t`:
    /// `SELECT t."_pk" FROM "Recipe" AS t WHERE <sql>`. Values are bound parameters, never pasted.
    /// It does not restrict the rows to the entity's kinds in a shared hierarchy table: add
    /// `entityFilter(for:includesSubentities:)` for that.
    ///
    /// The result is two-valued like NSPredicate's evaluation: under `NOT`, a comparison with nil is
    /// false, so `NOT (rating > 3)` matches a nil rating.
    ///
    /// - Parameters:
    ///   - predicate: the predicate text.
    ///   - entity: the entity it is evaluated on.
    ///   - context: `%@`/`%K` arguments, `$VARIABLES` and `$NOW`. Every argument must be used.
    ///   - origin: where the predicate's first character is (`predicate:1:1` on the command line,
    ///     the string's position inside a hook or model file otherwise).
    /// - Throws: `PredicateCompileError` located at origin + the offending column, with a hint.
    public func compile(_ predicate: String, entity: String, context: PredicateContext,
                        origin: SourceLocation = SourceLocation(file: "predicate", line: 1, column: 1)) throws(PredicateCompileError) -> SQLText {
        let (statement, used) = try compile(predicate, entity: entity, context: context, firstArgument: 0, origin: origin)
        if used < context.arguments.count {
            throw PredicateCompileError(PredicateSyntaxError(
                "\(context.arguments.count) arguments given but the predicate uses \(used)",
                offset: predicate.unicodeScalars.count, hint: "remove the extra arguments or add %@ placeholders"),
                in: predicate, origin: origin)
        }
        return statement
    }

    /// Compiles a predicate that consumes arguments from `firstArgument` on; returns how many it used.
    public func compile(_ predicate: String, entity: String, context: PredicateContext, firstArgument: Int,
                        origin: SourceLocation) throws(PredicateCompileError) -> (SQLText, argumentsUsed: Int) {
        let (condition, _, used) = try translate(predicate, entity: entity, context: context, firstArgument: firstArgument, origin: origin)
        return (condition, used)
    }

    /// Like `compile(_:entity:context:firstArgument:origin:)`, but nil when the predicate is always true
    /// (`TRUEPREDICATE`, `NOT FALSEPREDICATE`), so a caller can leave the condition out.
    func compileCondition(_ predicate: String, entity: String, context: PredicateContext, firstArgument: Int,
                          origin: SourceLocation) throws(PredicateCompileError) -> (SQLText?, argumentsUsed: Int) {
        let (condition, alwaysTrue, used) = try translate(predicate, entity: entity, context: context, firstArgument: firstArgument, origin: origin)
        return (alwaysTrue ? nil : condition, used)
    }

    private func translate(_ predicate: String, entity: String, context: PredicateContext, firstArgument: Int,
                           origin: SourceLocation) throws(PredicateCompileError) -> (SQLText, alwaysTrue: Bool, argumentsUsed: Int) {
        do throws(PredicateSyntaxError) {
            guard layout.storage(of: entity) != nil, model.entity(entity) != nil else {
                throw PredicateSyntaxError("unknown entity '\(entity)'", offset: 0,
                                           hint: NameSuggestion.hint(for: entity, in: model.entityNames))
            }
            var parser = try PredicateParser(predicate, arguments: context.arguments, firstArgument: firstArgument)
            let node = try parser.parsePredicate()
            var translator = PredicateTranslator(model: model, layout: layout, context: context)
            translator.realLiteralTexts = parser.realLiteralTexts
            let condition = try translator.predicate(node, in: translator.root(entity))
            // A top-level chain keeps one pair of parentheses, so callers may write `filter AND <sql>`.
            let fragment = condition.kind == .and || condition.kind == .or ? condition.fragment.parenthesized : condition.fragment
            try SQLComplexity.check(fragment)
            return (fragment, condition.constant == true, parser.argumentsUsed)
        } catch {
            throw PredicateCompileError(error, in: predicate, origin: origin)
        }
    }

    /// The condition restricting a hierarchy table to the entity (and, when asked, its sub-entities),
    /// over alias `t`; nil when every row of the table qualifies.
    public func entityFilter(for entity: String, includesSubentities: Bool = true, alias: String? = tableAlias) -> SQLText? {
        guard let storage = layout.storage(of: entity), storage.isDiscriminated else { return nil }
        let column = ColumnName("_entity", qualifier: alias)
        if !includesSubentities { return "\(column) = \(entity)" }
        if storage.entity == storage.root { return nil }
        return "\(column) IN (" + storage.kinds.map { "\($0)" as SQLText }.joined(separator: ", ") + ")"
    }
}
