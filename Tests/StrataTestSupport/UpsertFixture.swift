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
    /// `K`, with one uniqueness constraint (`[[k]]`) and a second attribute `v`.
    public static let oneConstraintEntity = """
          K:
            attributes:
              k: { type: string }
              v: { type: string }
            uniqueness: [[k]]
        """
    /// `M`, with one uniqueness constraint on two columns (`[[a, b]]`) and a third attribute `c`.
    public static let twoColumnConstraintEntity = """
          M:
            attributes:
              a: { type: string }
              b: { type: string }
              c: { type: string }
            uniqueness: [[a, b]]
        """
    /// `H` with one uniqueness constraint (`[[code]]`) and its sub-entity `HQ`, stored in `H`'s table.
    public static let oneConstraintHierarchy = """
          H:
            attributes:
              code: { type: string }
              note: { type: string }
            uniqueness: [[code]]
          HQ:
            parent: H
            attributes:
              extra: { type: string }
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
