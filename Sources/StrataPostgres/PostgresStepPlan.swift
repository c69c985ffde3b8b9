import StrataCore

/// One version step as PostgreSQL runs it: the statements, in order, and the data conditions checked
/// after the backfills (SPEC §4: a violated condition rolls the step back with exit 3).
struct PostgresStepPlan: Sendable {
    /// The engine-independent step this plan renders (its changes and table actions are what reports show).
    var step: VersionStep
    var fromVersion: Int
    var toVersion: Int
    /// The layout recorded after the step (index names shortened for PostgreSQL).
    var destinationLayout: StoreLayout
    var operations: [Operation]
    /// Whether the step has a mapping file; then its entities and the links to rows its filters drop are
    /// counted before the statements run (`PostgresMappingReport`).
    var hasMapping = false
    var mappedEntities: [MappedEntity] = []
    var droppedLinks: [DroppedLinkProbe] = []
    /// The step's mapping file, whose checksum the step's history row records (SPEC §11.3), as on SQLite.
    var mappingFile: MappingFile?

    enum Operation: Sendable, Hashable {
        case execute(SQLText)
        /// A data condition whose statement returns `(_pk, entity, values…)` of each object violating it
        /// (the shared `MigrationCheck`, its statement rendered for PostgreSQL); any row stops the step.
        case check(MigrationCheck)
        /// The tables and columns the step drops or retypes: a user view or rule depending on any stops the
        /// step before it changes anything (exit 4, `PostgresDependents`).
        case dependents([PostgresDependents.Target])
        /// The objects the step gave new IDs, read from the translation table for the change set (SQLite's
        /// `remapped`): `(entity, old, kind, new)` rows, and `(kind, count)` rows when IDs are not collected.
        case remapped(list: SQLText, counts: SQLText)
    }

    /// The statements as text, checks included (for messages and tests).
    var sqlText: [String] {
        operations.map {
            switch $0 {
            case .execute(let sql): sql.rendered(for: .postgresql).sql
            case .check(let check): "-- check: \(check.summary)\n" + check.statement.rendered(for: .postgresql).sql
            case .dependents(let targets): "-- check: no user view or rule depends on what the step drops or retypes\n"
                + PostgresDependents.query(targets).rendered(for: .postgresql).sql
            case .remapped(let list, _): "-- objects with new IDs (old → new, for the change set)\n" + list.rendered(for: .postgresql).sql
            }
        }
    }
}
