import StrataCore
import StrataTestSupport

/// A v1 → v2 step with a mapping file that PostgreSQL does in place: `Author` becomes `Writer` (only the
/// persons carried, `name` upper-cased in place with `USING`), deleted books dropped, `Book.title` recomputed
/// through a to-one key path and `pages` int32 → int64 through an expression with a constant (temporary
/// columns), a new `label` filled.
enum PostgresMappingFixture {
    static let v1 = AuthorBookMapping.v1
    static let v2 = AuthorBookMapping.v2
    static let mapping = AuthorBookMapping.mapping
    static let rows = AuthorBookMapping.rows

    /// The models, with `mapping` as version 2's mapping file.
    static func history(mapping text: String = mapping, v2 second: String = v2) throws -> ModelHistory {
        var history = try ModelHistory.load(yaml: ["1.yaml": v1, "2.yaml": second])
        history.mappings[2] = try MappingFileLoader.load(yaml: text, file: "migrations/2.mapping.yaml")
        return history
    }
}
