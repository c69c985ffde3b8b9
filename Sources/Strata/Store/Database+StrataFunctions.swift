import GRDB

extension Database {
    /// Registers the SQL functions Strata's generated SQL relies on. Called on every connection.
    func registerStrataFunctions() {
        add(function: Self.strataLength)
    }

    /// `strata_length(text)`: length in Swift `Character`s (grapheme clusters), as Core Data counts
    /// string lengths; NULL for NULL.
    static let strataLength = DatabaseFunction("strata_length", argumentCount: 1, pure: true) { values in
        guard let s = String.fromDatabaseValue(values[0]) else { return nil }
        return s.count
    }
}
