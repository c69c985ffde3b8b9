import Foundation

/// The string semantics of the predicate language, shared by the compiler (to fold literals at
/// compile time) and by the SQL functions Strata registers (to fold column values), so both sides
/// of a comparison are folded the same way.
public enum TextFolding {
    /// Unicode simple case folding, locale-independent: `ß` stays `ß`, dotless `ı` stays `ı`,
    /// `İ` stays `İ` (it has no simple folding), `Σ`/`ς` fold to `σ`.
    public static func caseFold(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if let special = specialFoldings[scalar.value] {
                result.append(Unicode.Scalar(special)!)
                continue
            }
            let lower = scalar.properties.lowercaseMapping.unicodeScalars
            if lower.count == 1 { result.append(lower.first!) } else { result.append(scalar) }
        }
        return String(result)
    }

    /// Simple foldings that differ from the simple lowercase mapping (CaseFolding.txt, status C/S).
    private static let specialFoldings: [UInt32: UInt32] = [
        0x00B5: 0x03BC, 0x017F: 0x0073, 0x0345: 0x03B9, 0x03C2: 0x03C3, 0x03D0: 0x03B2, 0x03D1: 0x03B8,
        0x03D5: 0x03C6, 0x03D6: 0x03C0, 0x03F0: 0x03BA, 0x03F1: 0x03C1, 0x03F5: 0x03B5, 0x1E9B: 0x1E61,
        0x1E9E: 0x00DF, 0x1FBE: 0x03B9,
    ]

    /// Removes diacritics: canonical decomposition (NFD), then every combining mark is dropped.
    public static func removeDiacritics(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.decomposedStringWithCanonicalMapping.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark: continue
            default: result.append(scalar)
            }
        }
        return String(result)
    }

    /// Folds for the `[c]`, `[d]` and `[cd]` options.
    public static func fold(_ text: String, caseInsensitive: Bool, diacriticInsensitive: Bool) -> String {
        var s = text
        if diacriticInsensitive { s = removeDiacritics(s) }
        if caseInsensitive { s = caseFold(s) }
        return s
    }

    /// Whole-value `LIKE` with `*` (any run of characters) and `?` (one character); `\` escapes.
    public static func like(_ value: String, pattern: String) -> Bool {
        let v = Array(value), p = Array(pattern)
        // Iterative wildcard matching with backtracking to the last `*`.
        var vi = 0, pi = 0
        var starP = -1, starV = 0
        while vi < v.count {
            if pi < p.count {
                let c = p[pi]
                if c == "*" { starP = pi; starV = vi; pi += 1; continue }
                if c == "?" { vi += 1; pi += 1; continue }
                let literal: Character
                var width = 1
                if c == "\\", pi + 1 < p.count { literal = p[pi + 1]; width = 2 } else { literal = c }
                if literal == v[vi] { vi += 1; pi += width; continue }
            }
            if starP >= 0 { starV += 1; vi = starV; pi = starP + 1; continue }
            return false
        }
        while pi < p.count, p[pi] == "*" { pi += 1 }
        return pi == p.count
    }

    /// Canonical decimal text for a decimal stored as text, or a number (nil when not a number).
    public static func decimal(_ text: String) -> String? { DecimalText.canonical(text) }

    /// Compares two canonical (or any numeric) decimal strings numerically: -1, 0 or 1; nil when
    /// one of them is not a number.
    public static func compareDecimals(_ a: String, _ b: String) -> Int? {
        guard let x = DecimalArithmetic.Number(a), let y = DecimalArithmetic.Number(b) else { return nil }
        return DecimalArithmetic.compare(x, y)
    }
}
