/// A value substituted for `%@` or a key path substituted for `%K`, in order of appearance.
///
/// `%@` values are coerced to the compared attribute's type, like literals (`.text("2024-05-01")`
/// compared with a date attribute is that date).
public enum PredicateArgument: Sendable, Hashable {
    case text(String)
    case number(Double)
    /// For `IN %@` and `BETWEEN %@`; nil is a nil element, as in a literal list `{1, nil}` (never matches IN).
    case list([String?])
    /// A key path for `%K` (`.text` is accepted for `%K` too).
    case key(String)
    /// nil (`NSNull` in Core Data's argument arrays; YAML null in a hook's `arguments:`): `x == %@` is
    /// `x == nil`.
    case null
}

/// What a predicate's placeholders stand for during one run.
public struct PredicateContext: Sendable {
    /// `%@` and `%K` arguments, in order.
    public var arguments: [PredicateArgument]
    /// `$NAME` → text, coerced like a string literal where used (SPEC §10).
    public var variables: [String: String]
    /// `$NOW`: seconds since 1970, fixed for a run so a dry run and the real run match the same rows.
    public var now: Double

    public init(arguments: [PredicateArgument] = [], variables: [String: String] = [:], now: Double) {
        self.arguments = arguments
        self.variables = variables
        self.now = now
    }
}
