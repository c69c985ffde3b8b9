import Foundation
import GRDB

extension Database {
    /// Registers the SQL functions Strata's generated SQL relies on. Called on every connection. Their text
    /// arguments and results are whole, a NUL included (``StrataSQLFunction``).
    func registerStrataFunctions() {
        for function in Self.strataFunctions + Self.expressionFunctions { function.install(in: self) }
    }

    /// Every `strata_*` function, for `registerStrataFunctions()`.
    static let strataFunctions: [StrataSQLFunction] = [
        strataLength, strataCaseFold, strataUnaccent, strataLowercase, strataUppercase,
        strataBeginsWith, strataContains, strataEndsWith, strataLike, strataMatches, strataMatchesWithOptions,
        strataDecimal, strataDecimalCompare, strataAbs,
    ]

    /// `strata_length(text)`: length in Swift `Character`s (grapheme clusters), as Core Data counts
    /// string lengths; NULL for NULL.
    static let strataLength = StrataSQLFunction("strata_length", argumentCount: 1, pure: true) { values in
        guard let s = StrataFunctionText.text(values[0]) else { return nil }
        return s.count
    }

    /// `strata_casefold(text)`: Unicode simple case folding, locale-independent (`[c]`).
    static let strataCaseFold = StrataSQLFunction("strata_casefold", argumentCount: 1, pure: true) { values in
        StrataFunctionText.text(values[0]).map(TextFolding.caseFold)
    }

    /// `strata_unaccent(text)`: NFD, then combining marks removed (`[d]`).
    static let strataUnaccent = StrataSQLFunction("strata_unaccent", argumentCount: 1, pure: true) { values in
        StrataFunctionText.text(values[0]).map(TextFolding.removeDiacritics)
    }

    /// `strata_lowercase(text)`: full Unicode lowercase (SQLite's `lower` only knows ASCII).
    static let strataLowercase = StrataSQLFunction("strata_lowercase", argumentCount: 1, pure: true) { values in
        StrataFunctionText.text(values[0]).map { $0.lowercased() }
    }

    /// `strata_uppercase(text)`: full Unicode uppercase.
    static let strataUppercase = StrataSQLFunction("strata_uppercase", argumentCount: 1, pure: true) { values in
        StrataFunctionText.text(values[0]).map { $0.uppercased() }
    }

    /// `strata_beginswith(text, prefix)`: 1/0, NULL when either is NULL.
    static let strataBeginsWith = StrataSQLFunction("strata_beginswith", argumentCount: 2, pure: true) { values in
        StrataFunctionText.pair(values) { $0.unicodeScalars.starts(with: $1.unicodeScalars) }
    }

    /// `strata_contains(text, part)`
    static let strataContains = StrataSQLFunction("strata_contains", argumentCount: 2, pure: true) { values in
        StrataFunctionText.pair(values) { $1.isEmpty || $0.contains($1) }
    }

    /// `strata_endswith(text, suffix)`
    static let strataEndsWith = StrataSQLFunction("strata_endswith", argumentCount: 2, pure: true) { values in
        StrataFunctionText.pair(values) { $0.unicodeScalars.reversed().starts(with: $1.unicodeScalars.reversed()) }
    }

    /// `strata_like(text, pattern)`: whole-value match, `*` any run, `?` one character.
    static let strataLike = StrataSQLFunction("strata_like", argumentCount: 2, pure: true) { values in
        StrataFunctionText.pair(values) { TextFolding.like($0, pattern: $1) }
    }

    /// `strata_matches(value, pattern)`: whole-value regular expression match (NSPredicate MATCHES,
    /// the audit's `pattern` rule): 1/0, NULL when either is NULL. An invalid pattern is an error.
    static let strataMatches = StrataSQLFunction("strata_matches", argumentCount: 2, pure: true) { values in
        try StrataFunctionText.matches(values, caseInsensitive: false)
    }

    /// `strata_matches(value, pattern, 'i')`: case-insensitive.
    static let strataMatchesWithOptions = StrataSQLFunction("strata_matches", argumentCount: 3, pure: true) { values in
        let flags = String.fromDatabaseValue(values[2]) ?? ""
        return try StrataFunctionText.matches(values, caseInsensitive: flags.contains("i"))
    }

    /// `strata_decimal(x)`: the canonical decimal text of a number or numeric text; NULL for NULL
    /// or a non-number.
    static let strataDecimal = StrataSQLFunction("strata_decimal", argumentCount: 1, pure: true) { values in
        StrataFunctionText.decimalText(values[0]).flatMap(TextFolding.decimal)
    }

    /// `strata_decimal_compare(a, b)`: -1, 0 or 1 comparing decimals numerically; NULL when either is NULL.
    static let strataDecimalCompare = StrataSQLFunction("strata_decimal_compare", argumentCount: 2, pure: true) { values in
        guard let a = StrataFunctionText.decimalText(values[0]), let b = StrataFunctionText.decimalText(values[1]) else { return nil }
        return TextFolding.compareDecimals(a, b)
    }
}

extension Database {
    /// `strata_abs(x)`: the absolute value of an integer; the smallest int64, whose absolute value is
    /// no int64, gives the REAL 2^63 instead of SQLite's "integer overflow" error.
    static let strataAbs = StrataSQLFunction("strata_abs", argumentCount: 1, pure: true) { values in
        switch values[0].storage {
        case .int64(let i) where i == .min: return 9_223_372_036_854_775_808.0
        case .int64(let i): return i < 0 ? -i : i
        case .double(let d): return Swift.abs(d)
        default: return values[0]
        }
    }
}

/// Helpers for the text functions: argument decoding and a cache of compiled regular expressions.
enum StrataFunctionText {
    static func text(_ value: DatabaseValue) -> String? {
        switch value.storage {
        case .string(let s): return s
        case .int64(let i): return String(i)
        case .double(let d): return String(d)
        case .blob(let data): return String(decoding: data, as: UTF8.self)
        case .null: return nil
        }
    }

    static func decimalText(_ value: DatabaseValue) -> String? {
        switch value.storage {
        case .string(let s): return s
        case .int64(let i): return String(i)
        case .double(let d): return d.isFinite ? "\(d)" : nil
        default: return nil
        }
    }

    static func pair(_ values: [DatabaseValue], _ test: (String, String) -> Bool) -> Int? {
        guard let a = text(values[0]), let b = text(values[1]) else { return nil }
        return test(a, b) ? 1 : 0
    }

    static func matches(_ values: [DatabaseValue], caseInsensitive: Bool) throws -> Int? {
        guard let value = text(values[0]), let pattern = text(values[1]) else { return nil }
        let regex = try RegexCache.shared.regex(pattern, caseInsensitive: caseInsensitive)
        let range = NSRange(value.startIndex..., in: value)
        return regex.firstMatch(in: value, options: [], range: range) != nil ? 1 : 0
    }
}

/// Compiled `\A(?:pattern)\z` expressions, shared by all connections.
final class RegexCache: @unchecked Sendable {
    static let shared = RegexCache()
    private let lock = NSLock()
    private var cache: [String: NSRegularExpression] = [:]

    func regex(_ pattern: String, caseInsensitive: Bool) throws -> NSRegularExpression {
        let key = (caseInsensitive ? "i:" : "s:") + pattern
        lock.lock()
        defer { lock.unlock() }
        if let cached = cache[key] { return cached }
        do {
            let regex = try MatchesRegex.compile(pattern, caseInsensitive: caseInsensitive)
            if cache.count > 256 { cache.removeAll() }
            cache[key] = regex
            return regex
        } catch {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "invalid regular expression: \(pattern)")
        }
    }
}
