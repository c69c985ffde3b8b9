/// Which objects an audit checks.
public enum AuditScope: Sendable, Hashable {
    /// Every object of every entity.
    case full
    /// The objects of these entities (each with its sub-entities): the rules declared on the entity,
    /// its ancestors and its sub-entities.
    case entities([String])
    /// The rows listed in `temp.strata_touched("table" TEXT, "pk" INTEGER)` (filled by batch operations),
    /// plus the entity-wide rules (uniqueness, relationship counts, mandatory relationships, dangling
    /// references) of every entity owning a touched row or whose relationships are stored in a touched table.
    case touched

    /// `full`, `entities` or `touched`, as reports print it.
    public var name: String {
        switch self {
        case .full: return "full"
        case .entities: return "entities"
        case .touched: return "touched"
        }
    }
}
