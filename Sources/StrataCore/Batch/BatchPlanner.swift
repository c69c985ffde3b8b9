/// Turns batch requests into SQL (pure: no database). `BatchExecutor` (in Strata) runs the plans.
public struct BatchPlanner: Sendable {
    public let model: Model
    public let layout: StoreLayout

    public init(model: Model, layout: StoreLayout) {
        self.model = model
        self.layout = layout
    }

    var compiler: PredicateCompiler { PredicateCompiler(model: model, layout: layout) }

    /// The temporary table holding the keys a batch matched, when they must be known before the
    /// change (touched-row recording, delete-rule propagation).
    public static let keysTable = TableName("strata_batch_keys", schema: "temp")
    /// The audit's record of rows a batch changed.
    public static let touchedTable = TableName("strata_touched", schema: "temp")

    public static let createTouchedTable: SQLText = """
        CREATE TEMP TABLE IF NOT EXISTS "strata_touched" ("table" TEXT NOT NULL, "pk" INTEGER NOT NULL, \
        PRIMARY KEY ("table", "pk")) WITHOUT ROWID
        """

    /// The storage of an entity, or an `.invalid` error naming it.
    func storage(of entity: String) throws(BatchError) -> EntityStorage {
        guard model.entity(entity) != nil, let storage = layout.storage(of: entity) else {
            let hint = NameSuggestion.hint(for: entity, in: model.entityNames)
            throw .invalid(.error("unknown entity '\(entity)'", at: nil, hint: hint ?? "entities: \(model.entityNames.joined(separator: ", "))"))
        }
        return storage
    }

    /// `filter AND (predicate)` over alias `t`, or nil when every row of the table qualifies.
    func condition(entity: String, predicate: String?, includesSubentities: Bool, context: PredicateContext,
                   origin: SourceLocation?) throws(BatchError) -> (SQLText?, argumentsUsed: Int) {
        var parts: [SQLText] = []
        if let filter = compiler.entityFilter(for: entity, includesSubentities: includesSubentities) { parts.append(filter) }
        var used = 0
        // An empty predicate is an error (the parser says so, located), never "all rows" (SPEC §10).
        if let predicate {
            do throws(PredicateCompileError) {
                let (statement, count) = try compiler.compileCondition(predicate, entity: entity, context: context, firstArgument: 0,
                                                                       origin: origin ?? SourceLocation(file: "predicate", line: 1, column: 1))
                used = count
                if let statement { parts.append(statement) }
            } catch {
                throw .invalid(error.diagnostic)
            }
        }
        guard !parts.isEmpty else { return (nil, used) }
        if parts.count == 1 { return (parts[0], used) }
        return (parts[0] + " AND " + parts[1].parenthesized, used)
    }

    /// The expression naming each row's own entity: `t."_entity"` in a hierarchy table, else the entity name.
    static func entityExpression(_ storage: EntityStorage, alias: String) -> SQLText {
        storage.isDiscriminated ? "\(ColumnName("_entity", qualifier: alias))" : .bind(.text(storage.root))
    }

    // MARK: Update

    /// Plans a batch update: the predicate and the assignments, type-checked.
    /// - Throws: `BatchError.invalid` with a located diagnostic.
    public func planUpdate(_ request: BatchUpdateRequest, context: PredicateContext) throws(BatchError) -> BatchUpdatePlan {
        let storage = try storage(of: request.entity)
        guard !request.propertiesToUpdate.isEmpty else {
            throw .invalid(.error("nothing to update: propertiesToUpdate is empty", hint: "give at least one attribute to set (`--set favorite=true` on the command line)"))
        }
        let (condition, predicateArguments) = try condition(entity: request.entity, predicate: request.predicate,
                                                            includesSubentities: request.includesSubentities,
                                                            context: context, origin: request.predicateOrigin)
        var nextArgument = predicateArguments
        var assignments: [SQLText] = []
        for name in request.propertiesToUpdate.keys.sorted() {
            let origin = request.valueOrigins[name]
            do throws(PredicateCompileError) {
                let target = try compiler.assignmentTarget(name, of: request.entity, origin: request.keyOrigins[name] ?? origin)
                let value: SQLText
                // Literals are bound in SQLite's storage form; PostgreSQL converts them to the column's type.
                let type = model.attribute(name, of: request.entity)?.attribute.type ?? .string
                switch request.propertiesToUpdate[name]! {
                case .literal(let text):
                    value = .native(.bind(try compiler.literalValue(text, for: name, of: request.entity, origin: origin)), type)
                case .value(let v):
                    value = .native(.bind(try compiler.checkedValue(v, for: name, of: request.entity, origin: origin)), type)
                case .expression(let text):
                    let (statement, used) = try compiler.compileValue(text, for: name, of: request.entity, context: context,
                                                                      firstArgument: nextArgument,
                                                                      origin: origin ?? SourceLocation(file: "value", line: 1, column: 1))
                    nextArgument += used
                    value = statement
                }
                assignments.append("\(ColumnName(target)) = " + value)
            } catch {
                throw .invalid(error.diagnostic)
            }
        }
        if nextArgument < request.arguments.count {
            throw .invalid(.error("\(request.arguments.count) arguments given but the request uses \(nextArgument)",
                                  hint: "remove the extra arguments or add %@ placeholders"))
        }
        return BatchUpdatePlan(entity: request.entity, table: storage.table, rootEntity: storage.root,
                               isDiscriminated: storage.isDiscriminated, condition: condition,
                               assignments: assignments.joined(separator: ", "))
    }
}

/// The SQL of one batch update.
public struct BatchUpdatePlan: Sendable, Hashable {
    public var entity: String
    public var table: String
    public var rootEntity: String
    public var isDiscriminated: Bool
    /// The rows to update, over alias `t`; nil for all rows of the table.
    public var condition: SQLText?
    /// `"favorite" = ?, "rating" = …`
    public var assignments: SQLText

    var whereClause: SQLText { condition.map { " WHERE " + $0 } ?? "" }

    /// `UPDATE "Recipe" AS t SET … WHERE …` (with `RETURNING "_pk"[, "_entity"]` when asked): the one
    /// statement of a batch update.
    public func update(returning: Bool) -> SQLText {
        "UPDATE \(TableName(table)) AS t SET " + assignments + whereClause
            + (returning ? BatchPlanner.returning(discriminated: isDiscriminated) : "")
    }

    /// Fills the keys table with the matched rows (for touched-row recording).
    public var selectKeys: SQLText {
        let entity = BatchPlanner.entityExpression(
            EntityStorage(entity: entity, root: rootEntity, table: table, isDiscriminated: isDiscriminated, kinds: [],
                          attributeColumns: [:], relationships: [:]), alias: "t")
        return "INSERT INTO \(BatchPlanner.keysTable) (\(BatchPlanner.pkColumn), \(BatchPlanner.entityColumn)) SELECT \(ColumnName("_pk", qualifier: "t")), "
            + entity + " FROM \(TableName(table)) AS t" + whereClause
    }

    /// The update restricted to the rows in the keys table.
    public var updateKeyed: SQLText {
        "UPDATE \(TableName(table)) AS t SET " + assignments
            + " WHERE \(ColumnName("_pk", qualifier: "t")) IN (SELECT \(BatchPlanner.pkColumn) FROM \(BatchPlanner.keysTable))"
    }

    /// Records the keyed rows as touched.
    public var recordTouched: SQLText {
        BatchPlanner.recordingTouched(table, "\(BatchPlanner.pkColumn) FROM \(BatchPlanner.keysTable)")
    }
}

extension PredicateCompiler {
    /// The column an update assigns, or an error for relationships and unknown attributes.
    func assignmentTarget(_ name: String, of entity: String, origin: SourceLocation? = nil) throws(PredicateCompileError) -> String {
        do throws(PredicateSyntaxError) {
            return try targetAttribute(name, of: entity).column
        } catch {
            throw PredicateCompileError(error, in: name, origin: origin ?? SourceLocation(file: "value", line: 1, column: 1))
        }
    }

    /// A literal with an optional origin.
    func literalValue(_ text: String, for attribute: String, of entity: String, origin: SourceLocation?) throws(PredicateCompileError) -> Value {
        do throws(PredicateCompileError) {
            return try literalValue(text, for: attribute, of: entity)
        } catch {
            var diagnostic = error.diagnostic
            if let origin { diagnostic.location = origin; diagnostic.sourceLine = nil }
            throw PredicateCompileError(diagnostic: diagnostic)
        }
    }

    /// A storage-form value checked against the attribute's type (and integer range).
    func checkedValue(_ value: Value, for attribute: String, of entity: String, origin: SourceLocation?) throws(PredicateCompileError) -> Value {
        let location = origin ?? SourceLocation(file: "value", line: 1, column: 1)
        do throws(PredicateSyntaxError) {
            let target = try targetAttribute(attribute, of: entity).attribute
            let type = target.type
            let ok: Bool
            switch value {
            case .null:
                guard target.isOptional else {
                    throw PredicateSyntaxError("\(entity).\(attribute) is not optional: it cannot be set to nil", offset: 0,
                                               hint: "give a value of type \(type.rawValue), or make the attribute optional in the model")
                }
                ok = true
            case .integer(let i):
                if let range = type.integerRange, !range.contains(i) {
                    throw PredicateSyntaxError("\(entity).\(attribute) is \(type.rawValue), but \(i) is out of range (\(range.lowerBound)...\(range.upperBound))", offset: 0)
                }
                ok = type.isNumeric || type == .bool || type == .date
            case .real: ok = type == .double || type == .float || type == .date || type == .decimal
            case .text: ok = type.isTextual || type == .decimal
            case .blob: ok = type == .binary
            }
            guard ok else {
                throw PredicateSyntaxError("\(entity).\(attribute) is \(type.rawValue), but \(value) is not", offset: 0)
            }
            if type == .decimal, let canonical = value.doubleValue.map({ _ in value }) {
                switch canonical {
                case .text(let s): return .text(DecimalText.canonical(s) ?? s)
                case .integer(let i): return .text(String(i))
                case .real(let d): return .text(DecimalText.canonical(String(d)) ?? String(d))
                default: return canonical
                }
            }
            return value
        } catch {
            throw PredicateCompileError(error, in: "", origin: location)
        }
    }
}
