/// One validation rule of a model, compiled to SQL over the entity's table (aliased `t`). Pure value.
///
/// A rule is either a *row* rule (a boolean SQL condition true for each violating row, plus the
/// expression whose value a report shows) or a *uniqueness* rule (duplicate groups of a column list).
public struct AuditRule: Sendable, Hashable {
    /// What the rule checks; the raw value is the name reports print.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case optional, min, max, minLength, maxLength, pattern, minCount, maxCount, dangling, uniqueness, predicate
    }

    /// How the rule finds violations.
    public enum Check: Sendable, Hashable {
        /// `condition` is true exactly for violating rows of `t`; `value` is the offending value.
        case row(condition: SQLText, value: SQLText)
        /// Rows of the entity sharing non-NULL values in all `columns` (with `types` for display).
        case uniqueness(columns: [String], types: [AttributeType?])
    }

    /// The entity the rule is reported on (where it is declared, or the audited entity of an `--entity` scope).
    public var entity: String
    /// The attribute or relationship, or nil for entity-level rules (predicates); uniqueness names its columns' properties.
    public var property: String?
    public var kind: Kind
    public var code: AuditCode
    /// The rule as a person reads it: `max 5`, `minLength 1`, `matches "[A-Z].*"`, `unique (name)`.
    public var constraint: String
    /// The table holding the entity's rows.
    public var table: String
    /// Whether the table has an `_entity` column (object IDs name `_entity`, else `rootEntity`).
    public var isDiscriminated: Bool
    public var rootEntity: String
    /// The entities whose rows the rule applies to (the declaring entity and its sub-entities).
    /// Empty means every row of the table.
    public var kinds: [String]
    public var check: Check
    /// How the offending value is displayed (nil: as stored).
    public var valueType: AttributeType?
    /// Tables whose touched rows make a `.touched` audit run this rule over the whole entity
    /// (entity-wide rules: uniqueness, counts, mandatory relationships, dangling references).
    /// Empty for rules that only look at the row itself.
    public var entityWideTriggers: Set<String>
    /// For minLength/maxLength rules, the bound in Characters: rows whose condition is NULL (text an engine
    /// cannot count Characters of in SQL, on PostgreSQL) are judged by counting `String.count` against it.
    public var lengthLimit: Int?

    public init(entity: String, property: String?, kind: Kind, code: AuditCode, constraint: String,
                storage: EntityStorage, kinds: [String], check: Check, valueType: AttributeType? = nil,
                entityWideTriggers: Set<String> = []) {
        self.entity = entity
        self.property = property
        self.kind = kind
        self.code = code
        self.constraint = constraint
        self.table = storage.table
        self.isDiscriminated = storage.isDiscriminated
        self.rootEntity = storage.root
        self.kinds = storage.isDiscriminated ? kinds : []
        self.check = check
        self.valueType = valueType
        self.entityWideTriggers = entityWideTriggers
    }

    /// `t."_entity" IN (?, …)` when the rule applies to some of the table's entities only.
    public var kindFilter: SQLText? {
        guard !kinds.isEmpty else { return nil }
        return "\(ColumnName("_entity", qualifier: "t")) IN (" + kinds.map { "\($0)" as SQLText }.joined(separator: ", ") + ")"
    }

    /// How a `.touched` audit runs this rule, given the tables that have touched rows.
    public func mode(touchedTables: Set<String>) -> AuditRunMode {
        if !entityWideTriggers.isDisjoint(with: touchedTables) { return .all }
        if case .row = check, touchedTables.contains(table) { return .touchedRows }
        return .skip
    }
}

/// Which rows of its table a rule is run on.
public enum AuditRunMode: Sendable, Hashable {
    /// Every row the rule applies to.
    case all
    /// Only the rows listed in `temp.strata_touched` for the rule's table.
    case touchedRows
    /// Only the rows whose keys are in `temp.strata_batch_keys`: the rows one batch update matched, all of
    /// the rule's table, read where the update left them (a batch audited alone, `Store.execute`).
    case batchKeys
    /// Not run.
    case skip
}
