/// Batch delete planning: the model's delete rules applied in set-based SQL, independent of whether
/// SQLite enforces foreign keys at that moment.
///
/// The doomed rows are collected in `temp.strata_doomed` ("table", "pk", "entity"): first the rows the
/// request matches, then cascades until nothing new is added (each statement adds one level of the
/// graph, through foreign keys and join tables alike). Deny rules are checked on that set; then rows
/// still pointing at doomed rows are nullified, join-table rows go, and the doomed rows are deleted.
/// Leaf destinations of a cascade (see `leafDelete`) skip the set: their rows are deleted straight from
/// the doomed owners, which keeps a cascading delete as fast as SQLite's own `ON DELETE CASCADE`.
extension BatchPlanner {
    public static let doomedTable = TableName("strata_doomed", schema: "temp")

    /// `round` is the cascade level that added the row (0: matched by the request), so each level expands
    /// only the rows the previous one added (semi-naive evaluation: no level re-reads the whole set).
    public static let createDoomedTable: SQLText = """
        CREATE TEMP TABLE IF NOT EXISTS "strata_doomed" ("table" TEXT NOT NULL, "pk" INTEGER NOT NULL, \
        "entity" TEXT NOT NULL, "cascaded" INTEGER NOT NULL DEFAULT 0, "round" INTEGER NOT NULL DEFAULT 0, \
        PRIMARY KEY ("table", "pk")) WITHOUT ROWID;
        CREATE TEMP TABLE IF NOT EXISTS "strata_round" ("r" INTEGER NOT NULL)
        """

    /// The round being computed, read by the cascade statements (so their text and arguments are fixed).
    public static let roundTable = TableName("strata_round", schema: "temp")

    /// Columns of the keys, touched and doomed tables.
    package static let pkColumn = ColumnName("pk"), tableColumn = ColumnName("table"), entityColumn = ColumnName("entity")

    /// `INSERT OR IGNORE INTO temp."strata_touched" ("table", "pk") SELECT <table>, ` + `rows`: a statement
    /// recording touched rows of `table` (`rows` is the rest of the select: the key column and its `FROM`);
    /// on PostgreSQL `INSERT INTO pg_temp."strata_touched" … ON CONFLICT DO NOTHING`.
    package static func recordingTouched(_ table: String, _ rows: SQLText) -> SQLText {
        .keyword(.insertOrIgnore) + " INTO \(touchedTable) (\(tableColumn), \(pkColumn)) SELECT \(table), " + rows
            + .keyword(.onConflictIgnore)
    }

    /// ` RETURNING "_pk"[, "_entity"]`
    static func returning(discriminated: Bool) -> SQLText {
        " RETURNING \(ColumnName("_pk"))" + (discriminated ? ", \(ColumnName("_entity"))" : "")
    }

    /// Plans a batch delete.
    /// - Throws: `BatchError.invalid` with a located diagnostic.
    public func planDelete(_ request: BatchDeleteRequest, context: PredicateContext) throws(BatchError) -> BatchDeletePlan {
        let storage = try storage(of: request.entity)
        let (condition, used) = try condition(entity: request.entity, predicate: request.predicate,
                                              includesSubentities: request.includesSubentities,
                                              context: context, origin: request.predicateOrigin)
        if used < request.arguments.count {
            throw .invalid(.error("\(request.arguments.count) arguments given but the predicate uses \(used)",
                                  hint: "remove the extra arguments or add %@ placeholders"))
        }
        let whereSQL = condition.map { " WHERE " + $0 } ?? ""
        let table = TableName(storage.table)
        let entity = Self.entityExpression(storage, alias: "t")
        var plan = BatchDeletePlan(entity: request.entity, table: storage.table, isDiscriminated: storage.isDiscriminated)
        plan.directDelete = "DELETE FROM \(table) AS t" + whereSQL
        plan.directDeleteReturning = plan.directDelete + Self.returning(discriminated: storage.isDiscriminated)
        plan.isSimple = isSimpleDelete(storage)
        plan.seed = "INSERT INTO \(Self.doomedTable) (\(Self.tableColumn), \(Self.pkColumn), \(Self.entityColumn)) SELECT \(storage.table), \(ColumnName("_pk", qualifier: "t")), "
            + entity + " FROM \(table) AS t" + whereSQL
        for e in model.entities {
            guard let source = layout.storage(of: e.name) else { continue }
            for r in e.relationships {
                guard let link = source.relationships[r.name], let destination = layout.storage(of: r.destination) else { continue }
                switch r.deleteRule {
                case .cascade:
                    var step = cascade(from: e.name, source, link, to: destination)
                    step.leaf = leafDelete(from: source, link, to: destination, requestTable: storage.table)
                    plan.cascades.append(step)
                case .deny: plan.denyChecks.append(deny(from: e.name, r.name, source, link, to: destination))
                default: break
                }
            }
        }
        plan.beforeDelete = cleanup()
        for t in layout.tables where t.kind == .entity {
            plan.deletes.append("DELETE FROM \(TableName(t.name)) WHERE \(ColumnName("_pk")) IN (SELECT \(Self.pkColumn) FROM \(Self.doomedTable) WHERE \(Self.tableColumn) = \(t.name))")
        }
        return plan
    }

    /// Rows of `table` in the doomed set, optionally only of some entities: `SELECT k."pk" FROM … WHERE …`;
    /// with `previousRound`, only those the previous cascade round added.
    func doomed(_ table: String, kinds: [String]? = nil, previousRound: Bool = false) -> SQLText {
        var sql: SQLText = "SELECT k.\(Self.pkColumn) FROM \(Self.doomedTable) AS k WHERE k.\(Self.tableColumn) = \(table)"
        if let kinds { sql += " AND " + kindFilter(kinds) }
        if previousRound { sql += " AND k.\(ColumnName("round")) = (SELECT \(ColumnName("r")) - 1 FROM \(Self.roundTable))" }
        return sql
    }

    /// `k."entity" IN (…)`
    func kindFilter(_ kinds: [String]) -> SQLText {
        "k.\(Self.entityColumn) IN (" + kinds.map { "\($0)" as SQLText }.joined(separator: ", ") + ")"
    }

    /// The kinds filter for objects of `entity` when its table holds other entities too.
    func kinds(_ storage: EntityStorage) -> [String]? {
        storage.isDiscriminated && storage.entity != storage.root ? storage.kinds : nil
    }

    /// True when deleting rows of the entity's table touches nothing else: no relationship of the
    /// hierarchy and no foreign key or join table pointing at the table.
    func isSimpleDelete(_ storage: EntityStorage) -> Bool {
        if isReferenced(storage.table) { return false }
        for e in model.hierarchy(of: storage.root) where !e.relationships.isEmpty { return false }
        return true
    }

    /// Whether a foreign key or a join table points at `table`.
    func isReferenced(_ table: String) -> Bool {
        layout.tables.contains { t in t.columns.contains { $0.references == table } }
    }

    /// Adds the destinations of doomed `entity` objects' cascade relationship: the owners added by the
    /// previous round give the rows of this round.
    func cascade(from entity: String, _ source: EntityStorage, _ link: RelationshipStorage, to destination: EntityStorage) -> BatchDeletePlan.Cascade {
        let head: SQLText = .keyword(.insertOrIgnore) + " INTO \(Self.doomedTable) (\(Self.tableColumn), \(Self.pkColumn), \(Self.entityColumn), \(ColumnName("cascaded")), \(ColumnName("round"))) SELECT \(destination.table), \(ColumnName("_pk", qualifier: "d")), "
            + Self.entityExpression(destination, alias: "d") + ", 1, (SELECT \(ColumnName("r")) FROM \(Self.roundTable)) FROM \(TableName(destination.table)) AS d WHERE "
        let owners = doomed(source.table, kinds: kinds(source), previousRound: true)
        return BatchDeletePlan.Cascade(statement: head + cascadeCondition(owners: owners, link: link, source: source)
                                       + .keyword(.onConflictIgnore))
    }

    /// The cascade as one `DELETE` when the destination rows need no bookkeeping: the destination table
    /// holds one entity, is not the request's table, nothing references it (no foreign key, no join table),
    /// its entity has no cascade or deny rule of its own, and no deny rule points at it. Its rows then never
    /// need to enter the doomed set: they can be deleted straight from the doomed owners, once every
    /// cascade round is done. Only used when touched rows are not recorded (the audit needs them listed).
    func leafDelete(from source: EntityStorage, _ link: RelationshipStorage, to destination: EntityStorage,
                    requestTable: String) -> BatchDeletePlan.LeafDelete? {
        guard link.kind == .inverseForeignKey, !destination.isDiscriminated,
              destination.table != requestTable, destination.table != source.table,
              !isReferenced(destination.table) else { return nil }
        for e in model.hierarchy(of: destination.root) {
            for r in e.relationships where r.deleteRule == .cascade || r.deleteRule == .deny { return nil }
        }
        for e in model.entities {
            for r in e.relationships where r.deleteRule == .deny && layout.storage(of: r.destination)?.table == destination.table {
                return nil
            }
        }
        let owners = doomed(source.table, kinds: kinds(source))
        let statement: SQLText = "DELETE FROM \(TableName(destination.table)) WHERE \(ColumnName(link.column)) IN (" + owners + ")"
        return .init(entity: destination.entity, statement: statement, returningStatement: statement + Self.returning(discriminated: false))
    }

    /// The destination rows `d` of doomed `owners` through `link`.
    func cascadeCondition(owners: SQLText, link: RelationshipStorage, source: EntityStorage) -> SQLText {
        let d = ColumnName("_pk", qualifier: "d")
        switch link.kind {
        case .foreignKey:
            return "\(d) IN (SELECT \(ColumnName(link.column, qualifier: "s")) FROM \(TableName(source.table)) AS s WHERE \(ColumnName("_pk", qualifier: "s")) IN (" + owners + "))"
        case .inverseForeignKey:
            return "\(ColumnName(link.column, qualifier: "d")) IN (" + owners + ")"
        case .joinTable:
            return "\(d) IN (SELECT \(ColumnName(link.otherColumn ?? "target", qualifier: "j")) FROM \(TableName(link.table)) AS j WHERE \(ColumnName(link.column, qualifier: "j")) IN (" + owners + "))"
        }
    }

    /// Doomed `entity` objects whose deny relationship holds an object that is not doomed:
    /// rows of (object entity, object pk, related entity, related pk).
    func deny(from entity: String, _ relationship: String, _ source: EntityStorage, _ link: RelationshipStorage,
              to destination: EntityStorage) -> BatchDeletePlan.DenyCheck {
        let k = ColumnName("pk", qualifier: "k"), d = ColumnName("_pk", qualifier: "d")
        var sql: SQLText = "SELECT \(ColumnName("entity", qualifier: "k")), \(k), " + Self.entityExpression(destination, alias: "d")
            + ", \(d) FROM \(Self.doomedTable) AS k "
        let destinationTable = TableName(destination.table)
        switch link.kind {
        case .foreignKey:
            sql += "JOIN \(TableName(source.table)) AS s ON \(ColumnName("_pk", qualifier: "s")) = \(k) JOIN \(destinationTable) AS d ON \(d) = \(ColumnName(link.column, qualifier: "s")) "
        case .inverseForeignKey:
            sql += "JOIN \(destinationTable) AS d ON \(ColumnName(link.column, qualifier: "d")) = \(k) "
        case .joinTable:
            sql += "JOIN \(TableName(link.table)) AS j ON \(ColumnName(link.column, qualifier: "j")) = \(k) JOIN \(destinationTable) AS d ON \(d) = \(ColumnName(link.otherColumn ?? "target", qualifier: "j")) "
        }
        sql += "WHERE k.\(Self.tableColumn) = \(source.table)"
        if let kinds = kinds(source) { sql += " AND " + kindFilter(kinds) }
        sql += " AND \(d) NOT IN (" + doomed(destination.table) + ") ORDER BY \(k), \(d)"
        return .init(entity: entity, relationship: relationship, query: sql)
    }

    /// Nullify rows pointing at doomed rows, unlink RESTRICT references among doomed rows, delete join rows.
    func cleanup() -> BatchDeletePlan.Cleanup {
        var cleanup = BatchDeletePlan.Cleanup()
        for e in model.entities {
            guard let source = layout.storage(of: e.name) else { continue }
            for q in e.relationships {
                guard let link = source.relationships[q.name], link.kind == .foreignKey,
                      let destination = layout.storage(of: q.destination) else { continue }
                let inverse = model.effectiveInverse(of: q, in: e.name)
                let rule = inverse?.relationship.deleteRule ?? .nullify
                let pointing = doomed(destination.table)
                let alive = doomed(source.table)
                let sourceTable = TableName(source.table), column = ColumnName(link.column)
                let condition = "\(column.qualified(by: "x")) IN (" + pointing + ") AND \(ColumnName("_pk", qualifier: "x")) NOT IN (" + alive + ")"
                // Only `nullify` leaves referring rows alive: under `cascade` they are doomed too, under `deny`
                // a living one blocks the delete, and `noAction` leaves the reference dangling.
                if rule == .nullify {
                    var sets: SQLText = "\(column) = NULL"
                    if let inverse, let order = destination.relationships[inverse.relationship.name]?.orderColumn {
                        sets += ", \(ColumnName(order)) = NULL"
                    }
                    let update = "UPDATE \(sourceTable) AS x SET " + sets + " WHERE " + condition
                    cleanup.nullify.append(.init(
                        touched: Self.recordingTouched(source.table, "\(ColumnName("_pk", qualifier: "x")) FROM \(sourceTable) AS x WHERE " + condition),
                        update: update,
                        updateReturning: update + Self.returning(discriminated: source.isDiscriminated),
                        returnsEntity: source.isDiscriminated,
                        rootEntity: source.root))
                }
                // Objects on the other side whose to-many (or to-one) lost a doomed member.
                let s = column.qualified(by: "s")
                cleanup.relatedTouched.append(Self.recordingTouched(destination.table,
                    "\(s) FROM \(sourceTable) AS s WHERE \(ColumnName("_pk", qualifier: "s")) IN (" + alive + ") AND \(s) IS NOT NULL AND \(s) NOT IN (" + pointing + ")"))
            }
        }
        for t in layout.tables {
            let table = TableName(t.name)
            if t.kind == .entity {
                for c in t.columns where c.onDelete == "RESTRICT" {
                    let column = ColumnName(c.name)
                    cleanup.unlink.append("UPDATE \(table) SET \(column) = NULL WHERE \(ColumnName("_pk")) IN (" + doomed(t.name) + ") AND \(column) IS NOT NULL")
                }
                continue
            }
            guard let sourceTable = t.column("source")?.references, let targetTable = t.column("target")?.references else { continue }
            let sources = doomed(sourceTable), targets = doomed(targetTable)
            let source = ColumnName("source"), target = ColumnName("target")
            cleanup.relatedTouched.append(Self.recordingTouched(targetTable,
                "\(target.qualified(by: "j")) FROM \(table) AS j WHERE \(source.qualified(by: "j")) IN (" + sources + ") AND \(target.qualified(by: "j")) NOT IN (" + targets + ")"))
            cleanup.relatedTouched.append(Self.recordingTouched(sourceTable,
                "\(source.qualified(by: "j")) FROM \(table) AS j WHERE \(target.qualified(by: "j")) IN (" + targets + ") AND \(source.qualified(by: "j")) NOT IN (" + sources + ")"))
            cleanup.joinDeletes.append("DELETE FROM \(table) WHERE \(source) IN (" + sources + ") OR \(target) IN (" + targets + ")")
        }
        return cleanup
    }
}

/// The SQL of one batch delete, in execution order.
public struct BatchDeletePlan: Sendable, Hashable {
    public struct DenyCheck: Sendable, Hashable {
        public var entity: String
        public var relationship: String
        public var query: SQLText
    }
    public struct Nullify: Sendable, Hashable {
        /// Records the rows about to be nullified as touched.
        public var touched: SQLText
        public var update: SQLText
        /// The update with `RETURNING "_pk"[, "_entity"]`, when the IDs are wanted.
        public var updateReturning: SQLText
        /// Whether `updateReturning` returns the rows' `_entity` too.
        public var returnsEntity: Bool
        public var rootEntity: String
    }
    public struct Cleanup: Sendable, Hashable {
        public var nullify: [Nullify] = []
        /// Records objects whose relationships lose doomed members as touched (audit of counts).
        public var relatedTouched: [SQLText] = []
        /// Sets RESTRICT foreign keys of doomed rows to NULL, so deleting in any table order passes.
        public var unlink: [SQLText] = []
        public var joinDeletes: [SQLText] = []
    }

    public var entity: String
    public var table: String
    public var isDiscriminated: Bool
    /// When nothing references the table and the hierarchy has no relationships, the delete is this one statement.
    public var isSimple = false
    public var directDelete = SQLText()
    /// The direct delete with `RETURNING "_pk"[, "_entity"]`.
    public var directDeleteReturning = SQLText()
    public var seed = SQLText()
    /// Run round after round (round r expands the rows of round r − 1) until a round adds no row.
    public var cascades: [Cascade] = []

    /// One cascade relationship's statement; it reads the current round from `temp.strata_round`.
    public struct Cascade: Sendable, Hashable {
        public var statement: SQLText
        /// Set when the destination is a leaf: the rows can be deleted straight from the doomed owners.
        public var leaf: LeafDelete?
    }

    /// Deletes a leaf cascade's rows.
    public struct LeafDelete: Sendable, Hashable {
        public var entity: String
        public var statement: SQLText
        /// The same delete with `RETURNING "_pk"`, when the IDs are wanted.
        public var returningStatement: SQLText
    }
    public var denyChecks: [DenyCheck] = []
    public var beforeDelete = Cleanup()
    public var deletes: [SQLText] = []

    /// The direct delete, with `RETURNING` when asked.
    public func direct(returning: Bool) -> SQLText { returning ? directDeleteReturning : directDelete }
}
