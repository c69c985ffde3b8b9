import Foundation

extension PredicateContext {
    /// A context whose `$NOW` is `now`.
    ///
    /// ```swift
    /// let context = PredicateContext(variables: ["DAYS": "30"], now: Date())
    /// ```
    public init(arguments: [PredicateArgument] = [], variables: [String: String] = [:], now: Date) {
        self.init(arguments: arguments, variables: variables, now: now.timeIntervalSince1970)
    }

    /// `$NOW` as a date.
    public var nowDate: Date { Date(timeIntervalSince1970: now) }
}
