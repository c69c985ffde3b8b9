/// Turns batch inserts into SQL (pure: no database): one `INSERT … SELECT` for a `from:` insert, one
/// `INSERT … VALUES` per literal row. Omitted attributes take the model's defaults; rows of a sub-entity go
/// to its root's table with `_entity` set. `BatchExecutor` runs the plans.
public struct BatchInsertPlanner: Sendable {
    public let model: Model
    public let layout: StoreLayout

    public init(model: Model, layout: StoreLayout) {
        self.model = model
        self.layout = layout
    }

    var compiler: PredicateCompiler { PredicateCompiler(model: model, layout: layout) }

    /// Plans an insert: its statements, type-checked.
    /// - Throws: `BatchError.invalid` with a located diagnostic (abstract or unknown entity, unknown
    ///   property, to-many relationship, wrong type, an omitted non-optional attribute without default).
    public func plan(_ request: BatchInsertRequest, context: PredicateContext) throws(BatchError) -> BatchInsertPlan {
        let storage = try storage(of: request.entity)
        var plan = BatchInsertPlan(entity: request.entity, table: storage.table, isDiscriminated: storage.isDiscriminated,
                                   onConflict: request.onConflict, statements: [])
        var upsert: BatchInsertPlan.Upsert?
        if let source = request.source {
            guard request.objects.isEmpty, request.dictionaryHandler == nil else {
                throw .invalid(.error("a batch insert takes either objects or from:, not both", hint: "split it into two steps"))
            }
            plan.statements = [try insertSelect(request, source: source, storage: storage, context: context, sourceLinks: &plan.sourceLinks,
                                                referenceChecks: &plan.referenceChecks, upsert: &upsert, rowByRow: &plan.rowByRow)]
            plan.upserts = [upsert]
            plan.rowLinks = [[]]
        } else {
            if request.objects.isEmpty && request.dictionaryHandler == nil {
                throw .invalid(.error("batchInsert on \(request.entity) needs objects: or from:",
                                      hint: "objects: [ { name: quick } ] or from: { entity: Recipe } with values:"))
            }
            for (i, row) in request.objects.enumerated() {
                let origins = i < request.objectOrigins.count ? request.objectOrigins[i] : [:]
                let (insert, links) = try insertRow(row, request: request, storage: storage, context: context, origins: origins,
                                                    upsert: &upsert)
                plan.statements.append(insert)
                plan.rowLinks.append(links)
                plan.upserts.append(upsert)
            }
            // A to-one given as a primary key may name no object (handler rows too): checked after the insert.
            plan.referenceChecks = references(storage.relationships.filter { $0.value.kind == .foreignKey && !$0.value.isToMany }
                .map(\.value.column), in: storage.table)
        }
        plan.linkColumns = storage.relationships.values.filter { $0.kind == .inverseForeignKey && !$0.isToMany }
            .map { BatchInsertPlan.LinkColumn(table: $0.table, column: $0.column) }.sorted { ($0.table, $0.column) < ($1.table, $1.column) }
        // One-to-ones stored on the new rows that the insert sets (a handler's rows may set any).
        let given: Set<String>? = request.source != nil ? Set(request.values.keys)
            : request.dictionaryHandler == nil ? Set(request.objects.flatMap(\.keys)) : nil
        let links = RelationshipLinkPlanner(model: model, layout: layout)
        plan.unlinkColumns = storage.relationships.filter { name, link in
            link.kind == .foreignKey && !link.isToMany && given?.contains(name) != false && links.isOneToOne(name, of: request.entity)
        }.map(\.value.column).sorted()
        plan.rowUnlinkColumns = request.source != nil ? [plan.unlinkColumns] : request.objects.map { unlinkColumns(plan, setBy: $0.keys) }
        return plan
    }

    /// The columns of `plan`'s `unlinkColumns` that a row naming `properties` sets (a literal object, a handler's row).
    public func unlinkColumns(_ plan: BatchInsertPlan, setBy properties: some Sequence<String>) -> [String] {
        guard let storage = layout.storage(of: plan.entity) else { return [] }
        let named = Set(properties.compactMap { name in storage.relationships[name].flatMap { $0.kind == .foreignKey ? $0.column : nil } })
        return plan.unlinkColumns.filter(named.contains)
    }

    /// The unlinking of the one-to-ones the insert set on its rows, run after it: an object a row that set the key
    /// now links to leaves its earlier partner, whose key becomes NULL, as `setRelationship` does (SPEC §11.4). The
    /// rows that set a key are the new ones (above `before`: one that did not set it holds none) and the existing
    /// ones an `onConflict: update` wrote with a statement that sets it (`updated`, per column of `unlinkColumns`,
    /// bound as one JSON array: a parameter per key would pass the engine's limit, 65,535 on PostgreSQL, with tens
    /// of thousands of updated rows); they keep their links. An existing row the insert wrote without setting the
    /// key is not among them: it loses a partner another row took.
    public func unlinks(_ plan: BatchInsertPlan, above before: Int64, updated: [String: [Int64]]) -> [RelationshipLinkPlan.Unlink] {
        guard !plan.unlinkColumns.isEmpty, let storage = layout.storage(of: plan.entity) else { return [] }
        let pk = ColumnName("_pk", qualifier: "n"), table = TableName(plan.table)
        return plan.unlinkColumns.map { column in
            var setting: SQLText = "\(pk) > \(before)"
            if let rows = updated[column], !rows.isEmpty {
                let keys: SQLText = .bind(.text("[" + rows.map(String.init).joined(separator: ",") + "]"))
                setting = (setting + " OR \(pk) IN (SELECT value FROM " + .function(.jsonEach(.int64), [keys]) + ")").parenthesized
            }
            let key = ColumnName(column, qualifier: "n")
            return RelationshipLinkPlan.Unlink(storage, column: column,
                                               from: "SELECT \(key) FROM \(table) AS n WHERE " + setting + " AND \(key) IS NOT NULL",
                                               keeping: "SELECT \(pk) FROM \(table) AS n WHERE " + setting)
        }
    }

    /// The `INSERT … VALUES` of one row (a literal object or one the handler filled), and the updates that link it
    /// from the destinations of one-to-ones stored on their side (`last_insert_rowid()`, right after the insert).
    /// `upsert` is the row's PostgreSQL form for `onConflict: update` into several uniqueness constraints (as
    /// ``BatchInsertPlan/upserts`` holds for literal rows), else nil.
    public func insertRow(_ row: [String: UpdateValue], request: BatchInsertRequest, context: PredicateContext,
                          origins: [String: SourceLocation] = [:]) throws(BatchError) -> (insert: SQLText, links: [SQLText], upsert: BatchInsertPlan.Upsert?) {
        var upsert: BatchInsertPlan.Upsert?
        let (insert, links) = try insertRow(row, request: request, storage: try storage(of: request.entity), context: context, origins: origins,
                                            upsert: &upsert)
        return (insert, links, upsert)
    }

    /// For a `from:` insert: the update that points each destination of a one-to-one stored on its side at the new
    /// object made from its source row. The new objects are the rows above `before`, made in source `_pk` order.
    public func linkStatement(_ link: BatchInsertPlan.SourceLink, table: String, above before: Int64) -> SQLText {
        let pk = ColumnName("_pk")
        return "UPDATE \(TableName(link.table)) AS x SET \(ColumnName(link.column)) = n.\"newpk\" FROM (SELECT \(pk) AS \"newpk\", "
            + "row_number() OVER (ORDER BY \(pk)) AS \"k\" FROM \(TableName(table)) WHERE \(pk) > \(before)) AS n JOIN ("
            + link.targets + ") AS s ON s.\"k\" = n.\"k\" WHERE x.\(pk) = s.\"target\""
    }

    /// The rows of `plan`'s table whose checked foreign keys name no object: `(_pk, column name, value)`, at
    /// most `limit`. Only rows above `before` (the new ones) are read, or every row when an `onConflict: update`
    /// may have changed existing ones (`before` nil). Steps run with SQLite's foreign keys off (SPEC §11.4):
    /// this is the check SQLite would have made per row, made only where a value can dangle.
    public func danglingReferences(_ plan: BatchInsertPlan, above before: Int64?, limit: Int = 20) -> SQLText? {
        guard !plan.referenceChecks.isEmpty else { return nil }
        let pk = ColumnName("_pk", qualifier: "n")
        let selects = plan.referenceChecks.map { check -> SQLText in
            let column = ColumnName(check.column, qualifier: "n")
            return "SELECT \(pk), \(check.column), \(column) FROM \(TableName(plan.table)) AS n WHERE "
                + (before.map { "\(pk) > \($0) AND " as SQLText } ?? "")
                + "\(column) IS NOT NULL AND NOT EXISTS (SELECT 1 FROM \(TableName(check.parentTable)) AS p WHERE p.\(ColumnName("_pk")) = \(column))"
        }
        return selects.joined(separator: " UNION ALL ") + " LIMIT \(limit)"
    }

    /// Whether an insert value is `$source` itself (the source row's `_pk`).
    static func isSourceItself(_ expression: String) -> Bool {
        guard var parser = try? PredicateParser(expression, arguments: []),
              case .variable("source", _)? = try? parser.parseWholeExpression() else { return false }
        return true
    }

    /// The foreign keys among `columns` of `table` that SQLite enforces (a `REFERENCES` clause), in column order.
    func references(_ columns: [String], in table: String) -> [BatchInsertPlan.ReferenceCheck] {
        let spec = layout.table(table)
        return Set(columns).sorted().compactMap { column in
            spec?.column(column)?.references.map { BatchInsertPlan.ReferenceCheck(column: column, parentTable: $0) }
        }
    }

    // MARK: Pieces

    /// The storage of a concrete entity.
    func storage(of entity: String) throws(BatchError) -> EntityStorage {
        guard let e = model.entity(entity), let storage = layout.storage(of: entity) else {
            let hint = NameSuggestion.hint(for: entity, in: model.entityNames)
            throw .invalid(.error("unknown entity '\(entity)'", hint: hint ?? "entities: \(model.entityNames.joined(separator: ", "))"))
        }
        if e.isAbstract {
            let concrete = model.hierarchy(of: entity).filter { !$0.isAbstract }.map(\.name)
            throw .invalid(.error("\(entity) is abstract: it has no objects of its own to insert",
                                  hint: concrete.isEmpty ? "make it concrete in the model" : "insert one of its sub-entities: \(concrete.joined(separator: ", "))"))
        }
        return storage
    }

    /// Columns and values of the properties a row leaves out: the model's defaults; an error for an
    /// omitted non-optional attribute without one.
    func defaults(for entity: String, given: Set<String>, origin: SourceLocation?) throws(BatchError) -> [(String, SQLText)] {
        let storage = layout.storage(of: entity)!
        var result: [(String, SQLText)] = []
        for (_, attribute) in model.allAttributes(of: entity) where !given.contains(attribute.name) {
            guard let column = storage.attributeColumns[attribute.name] else { continue }
            if let value = attribute.defaultValue {
                result.append((column, .native(.bind(value), attribute.type)))
            } else if !attribute.isOptional {
                throw .invalid(.error("\(entity).\(attribute.name) is not optional and has no default, but the insert does not set it",
                                      at: origin, hint: "give \(attribute.name) a value, or a default in the model"))
            }
        }
        return result
    }

    /// `INSERT INTO "T" (…) SELECT … FROM "S" AS t WHERE … ORDER BY t."_pk"`: the one statement of a `from:` insert.
    func insertSelect(_ request: BatchInsertRequest, source: BatchInsertSource, storage: EntityStorage,
                      context: PredicateContext, sourceLinks: inout [BatchInsertPlan.SourceLink],
                      referenceChecks: inout [BatchInsertPlan.ReferenceCheck], upsert: inout BatchInsertPlan.Upsert?,
                      rowByRow: inout BatchInsertPlan.RowByRowUpsert?) throws(BatchError) -> SQLText {
        let sourceStorage = try BatchPlanner(model: model, layout: layout).storage(of: source.entity)
        var context = context
        context.arguments = source.arguments
        let (condition, used) = try BatchPlanner(model: model, layout: layout).condition(
            entity: source.entity, predicate: source.predicate, includesSubentities: source.includesSubentities,
            context: context, origin: source.predicateOrigin)
        var next = used
        var columns: [ColumnName] = []
        var values: [SQLText] = []
        var links: [(table: String, column: String, value: SQLText)] = []
        var checked: [String] = []
        if storage.isDiscriminated {
            columns.append(ColumnName("_entity"))
            values.append("\(request.entity)")
        }
        for name in request.values.keys.sorted() {
            let origin = request.valueOrigins[name]
            do throws(PredicateCompileError) {
                let target: PredicateCompiler.InsertTarget
                do throws(PredicateSyntaxError) {
                    target = try compiler.insertTarget(name, of: request.entity)
                } catch {
                    throw PredicateCompileError(error, in: name, origin: request.keyOrigins[name] ?? origin ?? SourceLocation(file: "value", line: 1, column: 1))
                }
                let (statement, count) = try compiler.compileInsertValue(
                    request.values[name]!, for: name, of: request.entity, source: source.entity, context: context,
                    firstArgument: next, origin: origin ?? SourceLocation(file: "value", line: 1, column: 1))
                next += count
                if case .inverseToOne(let table, let column, _) = target {
                    links.append((table, column, statement))
                } else {
                    columns.append(ColumnName(target.column))
                    values.append(statement)
                    // `$source` is a `_pk` read from the destination's table by this same statement: it cannot dangle.
                    if case .toOne = target, !Self.isSourceItself(request.values[name]!) { checked.append(target.column) }
                }
            } catch {
                throw .invalid(error.diagnostic)
            }
        }
        if next < source.arguments.count {
            throw .invalid(.error("\(source.arguments.count) arguments given but the insert uses \(next)",
                                  hint: "remove the extra arguments or add %@ placeholders"))
        }
        let named = columns
        for (column, value) in try defaults(for: request.entity, given: Set(request.values.keys), origin: nil) {
            columns.append(ColumnName(column))
            values.append(value)
        }
        var sql: SQLText = "INSERT INTO \(TableName(storage.table)) "
        sql += columns.isEmpty ? "(\(ColumnName("_pk"))) SELECT NULL" : "(\(columns)) SELECT " + values.joined(separator: ", ")
        sql += " FROM \(TableName(sourceStorage.table)) AS t WHERE "
        sql += condition.map { $0.parenthesized } ?? .keyword(.true)
        sql += " ORDER BY t.\(ColumnName("_pk"))"
        if !links.isEmpty && request.onConflict != .fail {
            throw .invalid(.error("\(request.entity) has a one-to-one stored on the other side (\(links.map(\.column).joined(separator: ", "))): an insert that sets it cannot skip or merge rows",
                                  hint: "remove onConflict, or link the objects afterwards with a setRelationship step"))
        }
        let whereClause = condition.map { $0.parenthesized } ?? .keyword(.true)
        referenceChecks = references(checked, in: storage.table)
        sourceLinks = links.map { link in
            BatchInsertPlan.SourceLink(table: link.table, column: link.column,
                                       targets: "SELECT " + link.value + " AS \"target\", row_number() OVER (ORDER BY t.\(ColumnName("_pk"))) AS \"k\" FROM \(TableName(sourceStorage.table)) AS t WHERE " + whereClause)
        }
        if request.onConflict == .update {
            upsert = self.upsert(columns: columns, values: values, from: TableName(sourceStorage.table), where: whereClause,
                                 table: storage.table, setting: named, discriminated: storage.isDiscriminated)
            rowByRow = rowByRowUpsert(columns: columns, values: values, from: TableName(sourceStorage.table), where: whereClause,
                                      table: storage.table, setting: named, discriminated: storage.isDiscriminated)
        }
        return sql + conflictClause(request.onConflict, table: storage.table, setting: named)
    }

    func insertRow(_ row: [String: UpdateValue], request: BatchInsertRequest, storage: EntityStorage, context: PredicateContext,
                   origins: [String: SourceLocation], upsert: inout BatchInsertPlan.Upsert?) throws(BatchError) -> (insert: SQLText, links: [SQLText]) {
        var columns: [ColumnName] = []
        var values: [SQLText] = []
        var links: [SQLText] = []
        if storage.isDiscriminated {
            columns.append(ColumnName("_entity"))
            values.append("\(request.entity)")
        }
        for name in row.keys.sorted() {
            let origin = origins[name]
            do throws(PredicateCompileError) {
                let target: PredicateCompiler.InsertTarget
                do throws(PredicateSyntaxError) {
                    target = try compiler.insertTarget(name, of: request.entity)
                } catch {
                    throw PredicateCompileError(error, in: name, origin: request.keyOrigins[name] ?? origin ?? SourceLocation(file: "value", line: 1, column: 1))
                }
                let value = try rowValue(row[name]!, name: name, target: target, entity: request.entity, context: context, origin: origin)
                if case .inverseToOne(let table, let column, _) = target {
                    // The destination (if any) points at the new row; a nil leaves every destination as it is.
                    if value.boundValue != .null {
                        links.append("UPDATE \(TableName(table)) SET \(ColumnName(column)) = " + .function(.lastInsertedKey(table: storage.table), [])
                                     + " WHERE \(ColumnName("_pk")) = " + value)
                    }
                } else {
                    columns.append(ColumnName(target.column))
                    values.append(value)
                }
            } catch {
                throw .invalid(error.diagnostic)
            }
        }
        let named = columns
        for (column, value) in try defaults(for: request.entity, given: Set(row.keys), origin: nil) {
            columns.append(ColumnName(column))
            values.append(value)
        }
        var sql: SQLText = "INSERT INTO \(TableName(storage.table)) "
        sql += columns.isEmpty ? "(\(ColumnName("_pk"))) VALUES (NULL)" : "(\(columns)) VALUES (" + values.joined(separator: ", ") + ")"
        if !links.isEmpty && request.onConflict != .fail {
            throw .invalid(.error("\(request.entity) has a one-to-one stored on the other side: an insert that sets it cannot skip or merge rows",
                                  hint: "remove onConflict, or link the objects afterwards with a setRelationship step"))
        }
        if request.onConflict == .update {
            upsert = self.upsert(columns: columns, values: values, table: storage.table, setting: named, discriminated: storage.isDiscriminated)
        }
        return (sql + conflictClause(request.onConflict, table: storage.table, setting: named), links)
    }

    /// One value of a literal row.
    func rowValue(_ value: UpdateValue, name: String, target: PredicateCompiler.InsertTarget, entity: String,
                  context: PredicateContext, origin: SourceLocation?) throws(PredicateCompileError) -> SQLText {
        let location = origin ?? SourceLocation(file: "value", line: 1, column: 1)
        switch target {
        case .toOne(_, let destination), .inverseToOne(_, _, let destination):
            // A to-one relationship takes the destination's primary key (or nil); the audit reports a dangling one (1700).
            switch value {
            case .value(.null), .value(.integer): return .bind(value.storageValue!)
            case .literal(let text):
                if let pk = Int64(text) { return .bind(.integer(pk)) }
                fallthrough
            default:
                throw PredicateCompileError(diagnostic: .error("\(entity).\(name) is a relationship to \(destination): give the primary key of a \(destination), or nil",
                                                               at: location))
            }
        case .attribute:
            let type = model.attribute(name, of: entity)?.attribute.type ?? .string
            switch value {
            case .literal(let text):
                return .native(.bind(try compiler.literalValue(text, for: name, of: entity, origin: origin)), type)
            case .value(let v): return .native(.bind(try compiler.checkedValue(v, for: name, of: entity, origin: origin)), type)
            case .expression(let text):
                // An object has no source row: its expressions are constants ($NOW, $VAR, now(), arithmetic).
                do throws(PredicateSyntaxError) {
                    var parser = try PredicateParser(text, arguments: context.arguments)
                    if HookChecker.readsRow(try parser.parseWholeExpression()) {
                        throw PredicateSyntaxError("an expression in objects: cannot read a row (there is none)", offset: 0,
                                                   hint: "use literals, $VARIABLES, $NOW or now() here; to copy from other objects, use from: and values:")
                    }
                } catch {
                    throw PredicateCompileError(error, in: text, origin: location)
                }
                let (statement, _) = try compiler.compileValue(text, for: name, of: entity, context: context, origin: location)
                return statement
            }
        }
    }

    /// `ON CONFLICT …` for the uniqueness constraints of `table`: nothing (fail), `DO NOTHING` (ignore), or one
    /// `DO UPDATE SET` of the columns the insert names (not the defaults it fills) per unique index (update).
    func conflictClause(_ policy: BatchInsertConflictPolicy, table: String, setting columns: [ColumnName]) -> SQLText {
        switch policy {
        case .fail: return ""
        case .ignore: return " ON CONFLICT DO NOTHING"
        case .update:
            let unique = layout.table(table)?.indexes.filter(\.isUnique) ?? []
            let assigned = columns.filter { $0.name != "_entity" }
            guard !unique.isEmpty else { return "" }
            guard !assigned.isEmpty else { return " ON CONFLICT DO NOTHING" }
            let set = assigned.map { c -> SQLText in "\(c) = \(c.qualified(by: "excluded"))" }.joined(separator: ", ")
            return unique.map { index -> SQLText in
                " ON CONFLICT (\(index.columns.map { ColumnName($0) })) DO UPDATE SET " + set
            }.joined()
        }
    }
}

extension UpdateValue {
    /// The value of a `.value`, else nil.
    var storageValue: Value? { if case .value(let v) = self { return v } else { return nil } }
}
