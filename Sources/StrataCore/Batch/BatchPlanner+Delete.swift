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
    public static let doomedTable = "temp.strata_doomed"

    /// `round` is the cascade level that added the row (0: matched by the request), so each level expands
    /// only the rows the previous one added (semi-naive evaluation: no level re-reads the whole set).
    public static let createDoomedTable = """
        CREATE TEMP TABLE IF NOT EXISTS "strata_doomed" ("table" TEXT NOT NULL, "pk" INTEGER NOT NULL, \
        "entity" TEXT NOT NULL, "cascaded" INTEGER NOT NULL DEFAULT 0, "round" INTEGER NOT NULL DEFAULT 0, \
        PRIMARY KEY ("table", "pk")) WITHOUT ROWID;
        CREATE TEMP TABLE IF NOT EXISTS "strata_round" ("r" INTEGER NOT NULL)
        """

    /// The round being computed, read by the cascade statements (so their text and arguments are fixed).
    public static let roundTable = "temp.strata_round"

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
        let whereSQL = condition.map { SQLStatement(" WHERE " + $0.sql, $0.arguments) } ?? SQLStatement("")
        let table = SQLIdentifier.quote(storage.table)
        let entity = Self.entityExpression(storage, alias: "t")
        var plan = BatchDeletePlan(entity: request.entity, table: storage.table, isDiscriminated: storage.isDiscriminated)
        plan.directDelete = SQLStatement("DELETE FROM \(table) AS t\(whereSQL.sql)", whereSQL.arguments)
        plan.isSimple = isSimpleDelete(storage)
        plan.seed = SQLStatement(
            "INSERT INTO \(Self.doomedTable) (\"table\", \"pk\", \"entity\") SELECT ?, t.\(SQLIdentifier.quote("_pk")), \(entity.sql) FROM \(table) AS t\(whereSQL.sql)",
            [.text(storage.table)] + entity.arguments + whereSQL.arguments)
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
            plan.deletes.append(SQLStatement(
                "DELETE FROM \(SQLIdentifier.quote(t.name)) WHERE \(SQLIdentifier.quote("_pk")) IN (SELECT \"pk\" FROM \(Self.doomedTable) WHERE \"table\" = ?)",
                [.text(t.name)]))
        }
        return plan
    }

    /// Rows of `table` in the doomed set, optionally only of some entities: `SELECT k."pk" FROM … WHERE …`.
    func doomed(_ table: String, kinds: [String]? = nil) -> SQLStatement {
        var sql = "SELECT k.\"pk\" FROM \(Self.doomedTable) AS k WHERE k.\"table\" = ?"
        var args: [Value] = [.text(table)]
        if let kinds {
            sql += " AND k.\"entity\" IN (\(kinds.map { _ in "?" }.joined(separator: ", ")))"
            args += kinds.map(Value.text)
        }
        return SQLStatement(sql, args)
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
        let d = Self.entityExpression(destination, alias: "d")
        let head = "INSERT OR IGNORE INTO \(Self.doomedTable) (\"table\", \"pk\", \"entity\", \"cascaded\", \"round\") SELECT ?, d.\(SQLIdentifier.quote("_pk")), \(d.sql), 1, (SELECT \"r\" FROM \(Self.roundTable)) FROM \(SQLIdentifier.quote(destination.table)) AS d WHERE "
        let headArgs: [Value] = [.text(destination.table)] + d.arguments
        var owners = doomed(source.table, kinds: kinds(source))
        owners.sql += " AND k.\"round\" = (SELECT \"r\" - 1 FROM \(Self.roundTable))"
        return BatchDeletePlan.Cascade(statement: cascadeStatement(head: head, headArgs: headArgs, owners: owners, link: link, source: source))
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
        return .init(entity: destination.entity, statement: SQLStatement(
            "DELETE FROM \(SQLIdentifier.quote(destination.table)) WHERE \(SQLIdentifier.quote(link.column)) IN (\(owners.sql))", owners.arguments))
    }

    func cascadeStatement(head: String, headArgs: [Value], owners: SQLStatement, link: RelationshipStorage, source: EntityStorage) -> SQLStatement {
        switch link.kind {
        case .foreignKey:
            let sql = head + "d.\(SQLIdentifier.quote("_pk")) IN (SELECT s.\(SQLIdentifier.quote(link.column)) FROM \(SQLIdentifier.quote(source.table)) AS s WHERE s.\(SQLIdentifier.quote("_pk")) IN (\(owners.sql)))"
            return SQLStatement(sql, headArgs + owners.arguments)
        case .inverseForeignKey:
            return SQLStatement(head + "d.\(SQLIdentifier.quote(link.column)) IN (\(owners.sql))", headArgs + owners.arguments)
        case .joinTable:
            let sql = head + "d.\(SQLIdentifier.quote("_pk")) IN (SELECT j.\(SQLIdentifier.quote(link.otherColumn ?? "target")) FROM \(SQLIdentifier.quote(link.table)) AS j WHERE j.\(SQLIdentifier.quote(link.column)) IN (\(owners.sql)))"
            return SQLStatement(sql, headArgs + owners.arguments)
        }
    }

    /// Doomed `entity` objects whose deny relationship holds an object that is not doomed:
    /// rows of (object entity, object pk, related entity, related pk).
    func deny(from entity: String, _ relationship: String, _ source: EntityStorage, _ link: RelationshipStorage,
              to destination: EntityStorage) -> BatchDeletePlan.DenyCheck {
        let d = Self.entityExpression(destination, alias: "d")
        var sql = "SELECT k.\"entity\", k.\"pk\", \(d.sql), d.\(SQLIdentifier.quote("_pk")) FROM \(Self.doomedTable) AS k "
        switch link.kind {
        case .foreignKey:
            sql += "JOIN \(SQLIdentifier.quote(source.table)) AS s ON s.\(SQLIdentifier.quote("_pk")) = k.\"pk\" JOIN \(SQLIdentifier.quote(destination.table)) AS d ON d.\(SQLIdentifier.quote("_pk")) = s.\(SQLIdentifier.quote(link.column)) "
        case .inverseForeignKey:
            sql += "JOIN \(SQLIdentifier.quote(destination.table)) AS d ON d.\(SQLIdentifier.quote(link.column)) = k.\"pk\" "
        case .joinTable:
            sql += "JOIN \(SQLIdentifier.quote(link.table)) AS j ON j.\(SQLIdentifier.quote(link.column)) = k.\"pk\" JOIN \(SQLIdentifier.quote(destination.table)) AS d ON d.\(SQLIdentifier.quote("_pk")) = j.\(SQLIdentifier.quote(link.otherColumn ?? "target")) "
        }
        var args = d.arguments
        sql += "WHERE k.\"table\" = ?"
        args.append(.text(source.table))
        if let kinds = kinds(source) {
            sql += " AND k.\"entity\" IN (\(kinds.map { _ in "?" }.joined(separator: ", ")))"
            args += kinds.map(Value.text)
        }
        let notDoomed = doomed(destination.table)
        sql += " AND d.\(SQLIdentifier.quote("_pk")) NOT IN (\(notDoomed.sql)) ORDER BY k.\"pk\", d.\(SQLIdentifier.quote("_pk"))"
        args += notDoomed.arguments
        return .init(entity: entity, relationship: relationship, query: SQLStatement(sql, args))
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
                let condition = SQLStatement(
                    "x.\(SQLIdentifier.quote(link.column)) IN (\(pointing.sql)) AND x.\(SQLIdentifier.quote("_pk")) NOT IN (\(alive.sql))",
                    pointing.arguments + alive.arguments)
                // Only `nullify` leaves referring rows alive: under `cascade` they are doomed too, under `deny`
                // a living one blocks the delete, and `noAction` leaves the reference dangling.
                if rule == .nullify {
                    var sets = "\(SQLIdentifier.quote(link.column)) = NULL"
                    if let inverse, let order = destination.relationships[inverse.relationship.name]?.orderColumn {
                        sets += ", \(SQLIdentifier.quote(order)) = NULL"
                    }
                    cleanup.nullify.append(.init(
                        touched: SQLStatement("INSERT OR IGNORE INTO \(Self.touchedTable) (\"table\", \"pk\") SELECT ?, x.\(SQLIdentifier.quote("_pk")) FROM \(SQLIdentifier.quote(source.table)) AS x WHERE \(condition.sql)",
                                              [.text(source.table)] + condition.arguments),
                        update: SQLStatement("UPDATE \(SQLIdentifier.quote(source.table)) AS x SET \(sets) WHERE \(condition.sql)", condition.arguments),
                        returning: " RETURNING \(SQLIdentifier.quote("_pk"))" + (source.isDiscriminated ? ", \(SQLIdentifier.quote("_entity"))" : ""),
                        rootEntity: source.root))
                }
                // Objects on the other side whose to-many (or to-one) lost a doomed member.
                cleanup.relatedTouched.append(SQLStatement(
                    "INSERT OR IGNORE INTO \(Self.touchedTable) (\"table\", \"pk\") SELECT ?, s.\(SQLIdentifier.quote(link.column)) FROM \(SQLIdentifier.quote(source.table)) AS s WHERE s.\(SQLIdentifier.quote("_pk")) IN (\(alive.sql)) AND s.\(SQLIdentifier.quote(link.column)) IS NOT NULL AND s.\(SQLIdentifier.quote(link.column)) NOT IN (\(pointing.sql))",
                    [.text(destination.table)] + alive.arguments + pointing.arguments))
            }
        }
        for t in layout.tables {
            if t.kind == .entity {
                for c in t.columns where c.onDelete == "RESTRICT" {
                    let mine = doomed(t.name)
                    cleanup.unlink.append(SQLStatement(
                        "UPDATE \(SQLIdentifier.quote(t.name)) SET \(SQLIdentifier.quote(c.name)) = NULL WHERE \(SQLIdentifier.quote("_pk")) IN (\(mine.sql)) AND \(SQLIdentifier.quote(c.name)) IS NOT NULL",
                        mine.arguments))
                }
                continue
            }
            guard let sourceTable = t.column("source")?.references, let targetTable = t.column("target")?.references else { continue }
            let sources = doomed(sourceTable), targets = doomed(targetTable)
            cleanup.relatedTouched.append(SQLStatement(
                "INSERT OR IGNORE INTO \(Self.touchedTable) (\"table\", \"pk\") SELECT ?, j.\"target\" FROM \(SQLIdentifier.quote(t.name)) AS j WHERE j.\"source\" IN (\(sources.sql)) AND j.\"target\" NOT IN (\(targets.sql))",
                [.text(targetTable)] + sources.arguments + targets.arguments))
            cleanup.relatedTouched.append(SQLStatement(
                "INSERT OR IGNORE INTO \(Self.touchedTable) (\"table\", \"pk\") SELECT ?, j.\"source\" FROM \(SQLIdentifier.quote(t.name)) AS j WHERE j.\"target\" IN (\(targets.sql)) AND j.\"source\" NOT IN (\(sources.sql))",
                [.text(sourceTable)] + targets.arguments + sources.arguments))
            cleanup.joinDeletes.append(SQLStatement(
                "DELETE FROM \(SQLIdentifier.quote(t.name)) WHERE \"source\" IN (\(sources.sql)) OR \"target\" IN (\(targets.sql))",
                sources.arguments + targets.arguments))
        }
        return cleanup
    }
}

/// The SQL of one batch delete, in execution order.
public struct BatchDeletePlan: Sendable, Hashable {
    public struct DenyCheck: Sendable, Hashable {
        public var entity: String
        public var relationship: String
        public var query: SQLStatement
    }
    public struct Nullify: Sendable, Hashable {
        /// Records the rows about to be nullified as touched.
        public var touched: SQLStatement
        public var update: SQLStatement
        /// Appended to `update` when their IDs are wanted.
        public var returning: String
        public var rootEntity: String
    }
    public struct Cleanup: Sendable, Hashable {
        public var nullify: [Nullify] = []
        /// Records objects whose relationships lose doomed members as touched (audit of counts).
        public var relatedTouched: [SQLStatement] = []
        /// Sets RESTRICT foreign keys of doomed rows to NULL, so deleting in any table order passes.
        public var unlink: [SQLStatement] = []
        public var joinDeletes: [SQLStatement] = []
    }

    public var entity: String
    public var table: String
    public var isDiscriminated: Bool
    /// When nothing references the table and the hierarchy has no relationships, the delete is this one statement.
    public var isSimple = false
    public var directDelete = SQLStatement("")
    public var seed = SQLStatement("")
    /// Run round after round (round r expands the rows of round r − 1) until a round adds no row.
    public var cascades: [Cascade] = []

    /// One cascade relationship's statement; it reads the current round from `temp.strata_round`.
    public struct Cascade: Sendable, Hashable {
        public var statement: SQLStatement
        /// Set when the destination is a leaf: the rows can be deleted straight from the doomed owners.
        public var leaf: LeafDelete?
    }

    /// Deletes a leaf cascade's rows (`RETURNING "_pk"` appended when their IDs are wanted).
    public struct LeafDelete: Sendable, Hashable {
        public var entity: String
        public var statement: SQLStatement
    }
    public var denyChecks: [DenyCheck] = []
    public var beforeDelete = Cleanup()
    public var deletes: [SQLStatement] = []

    var returningClause: String {
        " RETURNING \(SQLIdentifier.quote("_pk"))" + (isDiscriminated ? ", \(SQLIdentifier.quote("_entity"))" : "")
    }

    /// The direct delete, with `RETURNING` when asked.
    public func direct(returning: Bool) -> SQLStatement {
        returning ? SQLStatement(directDelete.sql + returningClause, directDelete.arguments) : directDelete
    }
}
