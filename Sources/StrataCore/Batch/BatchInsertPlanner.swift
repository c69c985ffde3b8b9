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
        if let source = request.source {
            guard request.objects.isEmpty, request.dictionaryHandler == nil else {
                throw .invalid(.error("a batch insert takes either objects or from:, not both", hint: "split it into two steps"))
            }
            plan.statements = [try insertSelect(request, source: source, storage: storage, context: context)]
        } else {
            if request.objects.isEmpty && request.dictionaryHandler == nil {
                throw .invalid(.error("batchInsert on \(request.entity) needs objects: or from:",
                                      hint: "objects: [ { name: quick } ] or from: { entity: Recipe } with values:"))
            }
            for (i, row) in request.objects.enumerated() {
                let origins = i < request.objectOrigins.count ? request.objectOrigins[i] : [:]
                plan.statements.append(try insertRow(row, request: request, storage: storage, context: context, origins: origins))
            }
        }
        return plan
    }

    /// The `INSERT … VALUES` of one row (a literal object or one the handler filled).
    public func insertRow(_ row: [String: UpdateValue], request: BatchInsertRequest, context: PredicateContext,
                          origins: [String: SourceLocation] = [:]) throws(BatchError) -> SQLText {
        try insertRow(row, request: request, storage: try storage(of: request.entity), context: context, origins: origins)
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
    func defaults(for entity: String, given: Set<String>, origin: SourceLocation?) throws(BatchError) -> [(String, Value)] {
        let storage = layout.storage(of: entity)!
        var result: [(String, Value)] = []
        for (_, attribute) in model.allAttributes(of: entity) where !given.contains(attribute.name) {
            guard let column = storage.attributeColumns[attribute.name] else { continue }
            if let value = attribute.defaultValue {
                result.append((column, value))
            } else if !attribute.isOptional {
                throw .invalid(.error("\(entity).\(attribute.name) is not optional and has no default, but the insert does not set it",
                                      at: origin, hint: "give \(attribute.name) a value, or a default in the model"))
            }
        }
        return result
    }

    /// `INSERT INTO "T" (…) SELECT … FROM "S" AS t WHERE … ORDER BY t."_pk"`: the one statement of a `from:` insert.
    func insertSelect(_ request: BatchInsertRequest, source: BatchInsertSource, storage: EntityStorage,
                      context: PredicateContext) throws(BatchError) -> SQLText {
        let sourceStorage = try BatchPlanner(model: model, layout: layout).storage(of: source.entity)
        var context = context
        context.arguments = source.arguments
        let (condition, used) = try BatchPlanner(model: model, layout: layout).condition(
            entity: source.entity, predicate: source.predicate, includesSubentities: source.includesSubentities,
            context: context, origin: source.predicateOrigin)
        var next = used
        var columns: [ColumnName] = []
        var values: [SQLText] = []
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
                columns.append(ColumnName(target.column))
                values.append(statement)
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
            values.append(.bind(value))
        }
        var sql: SQLText = "INSERT INTO \(TableName(storage.table)) "
        sql += columns.isEmpty ? "(\(ColumnName("_pk"))) SELECT NULL" : "(\(columns)) SELECT " + values.joined(separator: ", ")
        sql += " FROM \(TableName(sourceStorage.table)) AS t WHERE "
        sql += condition.map { $0.parenthesized } ?? "1"
        sql += " ORDER BY t.\(ColumnName("_pk"))"
        return sql + conflictClause(request.onConflict, table: storage.table, setting: named)
    }

    func insertRow(_ row: [String: UpdateValue], request: BatchInsertRequest, storage: EntityStorage, context: PredicateContext,
                   origins: [String: SourceLocation]) throws(BatchError) -> SQLText {
        var columns: [ColumnName] = []
        var values: [SQLText] = []
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
                columns.append(ColumnName(target.column))
                values.append(try rowValue(row[name]!, name: name, target: target, entity: request.entity, context: context, origin: origin))
            } catch {
                throw .invalid(error.diagnostic)
            }
        }
        let named = columns
        for (column, value) in try defaults(for: request.entity, given: Set(row.keys), origin: nil) {
            columns.append(ColumnName(column))
            values.append(.bind(value))
        }
        var sql: SQLText = "INSERT INTO \(TableName(storage.table)) "
        sql += columns.isEmpty ? "(\(ColumnName("_pk"))) VALUES (NULL)" : "(\(columns)) VALUES (" + values.joined(separator: ", ") + ")"
        return sql + conflictClause(request.onConflict, table: storage.table, setting: named)
    }

    /// One value of a literal row.
    func rowValue(_ value: UpdateValue, name: String, target: PredicateCompiler.InsertTarget, entity: String,
                  context: PredicateContext, origin: SourceLocation?) throws(PredicateCompileError) -> SQLText {
        let location = origin ?? SourceLocation(file: "value", line: 1, column: 1)
        switch target {
        case .toOne(_, let destination):
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
            switch value {
            case .literal(let text): return .bind(try compiler.literalValue(text, for: name, of: entity, origin: origin))
            case .value(let v): return .bind(try compiler.checkedValue(v, for: name, of: entity, origin: origin))
            case .expression(let text):
                // An object has no source row: its expressions are constants ($NOW, $VAR, now(), arithmetic).
                do throws(PredicateSyntaxError) {
                    var parser = try PredicateParser(text, arguments: context.arguments)
                    if HookChecker.refersToRow(try parser.parseWholeExpression()) {
                        throw PredicateSyntaxError("an expression in objects: cannot read a row (there is none)", offset: 0,
                                                   hint: "use literals, $VARIABLES or $NOW here; to copy from other objects, use from: and values:")
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

/// The SQL of one batch insert.
public struct BatchInsertPlan: Sendable, Hashable {
    public var entity: String
    public var table: String
    public var isDiscriminated: Bool
    public var onConflict: BatchInsertConflictPolicy
    /// One `INSERT … SELECT` (`from:`), or one `INSERT … VALUES` per literal row.
    public var statements: [SQLText]
}
