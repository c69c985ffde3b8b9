import Foundation

/// The regular expressions of `MATCHES` and the `pattern` rule: ICU syntax (NSRegularExpression),
/// matched against the whole value. The predicate compiler checks literal patterns with this when it
/// compiles; the `strata_matches` SQL function compiles with it too, so both agree on what is valid.
public enum MatchesRegex {
    /// The whole-value expression for `pattern`.
    /// - Throws: the engine's error when `pattern` is not a valid regular expression on its own.
    public static func compile(_ pattern: String, caseInsensitive: Bool) throws -> NSRegularExpression {
        let options: NSRegularExpression.Options = caseInsensitive ? [.caseInsensitive] : []
        // The pattern must be valid alone, not only once wrapped (`a)(b` would close the group).
        _ = try NSRegularExpression(pattern: pattern, options: options)
        return try NSRegularExpression(pattern: "\\A(?:" + pattern + ")\\z", options: options)
    }

    /// Checks that `pattern` compiles as `compile(_:caseInsensitive:)` would, without compiling a plain one
    /// (`PlainRegex`): what a model's `pattern` and a `MATCHES` literal are checked with when they load.
    /// - Throws: the engine's error when `pattern` is not a valid regular expression.
    public static func check(_ pattern: String, caseInsensitive: Bool) throws {
        guard !PlainRegex.isCertainlyValid(pattern) else { return }
        _ = try compile(pattern, caseInsensitive: caseInsensitive)
    }
}
