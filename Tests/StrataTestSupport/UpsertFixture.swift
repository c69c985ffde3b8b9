/// The entities the upsert parity tests (library and `strata` binary, SQLite against PostgreSQL) insert into and
/// read from, as YAML lines for a model's `entities:` (each starts two spaces in, its first line without a newline
/// before it): interpolate one where the entity's first line would stand.
public enum UpsertFixture {
    /// `T`, with two uniqueness constraints (`[[a], [b]]`, tried in that order) and a third attribute `c`.
    public static let twoConstraintEntity = """
          T:
            attributes:
              a: { type: string }
              b: { type: string }
              c: { type: string }
            uniqueness: [[a], [b]]
        """
    /// `S`, the source a `from:` insert into `T` reads (`sa`, `sb`, `sc`).
    public static let sourceEntity = """
          S:
            attributes:
              sa: { type: string }
              sb: { type: string }
              sc: { type: string }
        """
    /// `P` with two uniqueness constraints (`[[code], [tag]]`) and its sub-entity `Q`, stored in `P`'s table.
    public static let hierarchyEntities = """
          P:
            attributes:
              code: { type: string }
              tag: { type: string }
              note: { type: string }
            uniqueness: [[code], [tag]]
          Q:
            parent: P
            attributes:
              extra: { type: string }
        """
}
