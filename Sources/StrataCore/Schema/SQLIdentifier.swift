/// Quoting of SQL identifiers (table, column and index names). Values never appear in SQL text: they are
/// bound as arguments of an ``SQLStatement``.
///
/// Package-internal, and not named `SQL`: an application that imports GRDB and Strata together keeps
/// GRDB's `SQL` literal unqualified.
package enum SQLIdentifier {
    /// `"name"`, with embedded quotes doubled.
    package static func quote(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `"a", "b"`
    package static func quoteList(_ identifiers: [String]) -> String {
        identifiers.map(quote).joined(separator: ", ")
    }
}
