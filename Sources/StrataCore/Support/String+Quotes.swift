extension String {
    /// The text with every `quote` doubled, as SQL escapes a quote inside a quoted name (`"`) or string (`'`).
    ///
    /// Scalar by scalar, so that a quote followed by a combining mark (one `Character`) is doubled too. In the
    /// standard library rather than Foundation's `replacingOccurrences(of:with:)`, which on Linux goes through
    /// `NSString` and whose first use looks up its bridging conformances at run time: 0.75 M of the 70.6 M
    /// instructions of a small `strata migrate` (callgrind; Docs/performance.md, "Where a small command's time goes").
    package func doublingQuotes(_ quote: Unicode.Scalar) -> String {
        guard unicodeScalars.contains(quote) else { return self }
        var result = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            result.append(scalar)
            if scalar == quote { result.append(quote) }
        }
        return String(result)
    }
}
