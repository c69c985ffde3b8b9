import Foundation
import GRDB

/// Reading objects back, and where they live for code that queries with GRDB directly.
extension Store {
    /// Reads the objects of `entity` matching a predicate, sorted, at most `limit`, one at a time through a
    /// cursor: one SQL statement (the predicate compiled against the store's recorded model and layout, values
    /// bound), rows streamed from SQLite, so memory stays flat for any number of results.
    ///
    /// ```swift
    /// let names = try store.fetch("Recipe", where: "rating >= %@", arguments: [.number(4)],
    ///                             sortedBy: [PropertySort("name")], limit: 10) { cursor in
    ///     var names: [String] = []
    ///     while let recipe = try cursor.next() { names.append("\(recipe["name"]!)") }
    ///     return names
    /// }
    /// ```
    /// - Parameters:
    ///   - entity: the entity; with `includesSubentities` (default) its sub-entities' objects too, each with its
    ///     own entity's attributes.
    ///   - predicate: the predicate language of hooks and `strata batch` (`$NOW`, `%@`, key paths…); nil for all.
    ///   - arguments: the `%@` / `%K` values.
    ///   - sortedBy: attributes to sort by; the primary key breaks ties.
    ///   - limit: at most this many objects; nil for all.
    ///   - context: `$NOW` and `$VARIABLES` (default: now, none); its `arguments` are replaced by `arguments`.
    ///   - body: reads the cursor, inside one read transaction (a consistent snapshot).
    /// - Returns: what `body` returns.
    /// - Throws: ``FetchError`` (unknown entity or sort attribute, negative limit), `PredicateCompileError`
    ///   located at `predicate:1:COL`, `StoreError`.
    public func fetch<T>(_ entity: String, where predicate: String? = nil, arguments: [PredicateArgument] = [],
                         sortedBy: [PropertySort] = [], limit: Int? = nil, includesSubentities: Bool = true,
                         context: PredicateContext? = nil, _ body: (ObjectCursor) throws -> T) throws -> T {
        if let limit, limit < 0 { throw FetchError.negativeLimit(limit) }
        var context = context ?? PredicateContext(now: Date().timeIntervalSince1970)
        context.arguments = arguments
        let path = self.path
        return try wrap {
            try queue.read { db in
                guard let metadata = try StoreMetadata.read(db) else { throw StoreError.notAdopted(path: path) }
                let model = try Self.recordedModel(metadata, path: path)
                let (statement, storage) = try Self.fetchStatement(entity, where: predicate, sortedBy: sortedBy, limit: limit,
                                                                 includesSubentities: includesSubentities, context: context,
                                                                 model: model, layout: metadata.layout)
                let rows = try Row.fetchCursor(db, statement)
                return try body(ObjectCursor(rows: rows, layout: metadata.layout, entity: storage, storeUUID: metadata.storeUUID,
                                                 storePath: path))
            }
        }
    }

    /// ``fetch(_:where:arguments:sortedBy:limit:includesSubentities:context:_:)`` collected into an array:
    /// for results you would hold in memory anyway.
    public func fetchAll(_ entity: String, where predicate: String? = nil, arguments: [PredicateArgument] = [],
                         sortedBy: [PropertySort] = [], limit: Int? = nil, includesSubentities: Bool = true,
                         context: PredicateContext? = nil) throws -> [FetchedObject] {
        try fetch(entity, where: predicate, arguments: arguments, sortedBy: sortedBy, limit: limit,
                  includesSubentities: includesSubentities, context: context) { try $0.all() }
    }

    /// The table holding `entity`'s objects, as recorded in the store (a created store and a migrated one may
    /// name tables differently: ask, do not hard-code). Sub-entities share their root's table, with the
    /// entity's name in column `_entity`; every table's primary key is `_pk`.
    /// - Throws: ``FetchError/unknownEntity(_:hint:)``, `StoreError`.
    public func table(for entity: String) throws -> String {
        try metadata().layout.fetchStorage(of: entity).table
    }

    /// The column holding `entity.property`: an attribute, or a to-one relationship stored as a foreign key
    /// (the destination's `_pk`).
    /// - Throws: ``FetchError`` (unknown entity or property, a relationship stored in another table), `StoreError`.
    public func column(for entity: String, property: String) throws -> String {
        try metadata().layout.column(for: entity, property: property)
    }

    /// `SELECT t.* FROM <table> AS t WHERE <kinds> AND <predicate> ORDER BY <keys>, t._pk LIMIT ?`.
    package static func fetchStatement(_ entity: String, where predicate: String?, sortedBy: [PropertySort], limit: Int?,
                               includesSubentities: Bool, context: PredicateContext, model: Model,
                               layout: StoreLayout) throws -> (SQLText, EntityStorage) {
        guard let storage = layout.storage(of: entity), model.entity(entity) != nil else {
            throw FetchError.unknownEntity(entity, hint: NameSuggestion.hint(for: entity, in: model.entityNames))
        }
        let alias = PredicateCompiler.tableAlias
        let compiler = PredicateCompiler(model: model, layout: layout)
        var conditions: [SQLText] = []
        if let filter = compiler.entityFilter(for: entity, includesSubentities: includesSubentities) { conditions.append(filter) }
        if let predicate {
            conditions.append(try compiler.compile(predicate, entity: entity, context: context))
        } else if !context.arguments.isEmpty {
            throw Diagnostic.error("\(context.arguments.count) arguments given without a predicate",
                                   hint: "remove the arguments or add a predicate with %@ placeholders")
        }
        var keys: [SQLText] = []
        for sort in sortedBy {
            guard let column = storage.attributeColumns[sort.property] else {
                throw FetchError.unknownProperty(entity: entity, property: sort.property,
                                                 hint: NameSuggestion.hint(for: sort.property, in: storage.attributeColumns.keys))
            }
            // Text sorts in code-point order and nil sorts first on both engines (SQLite's BINARY order).
            let type = model.attribute(sort.property, of: entity)?.attribute.type
            let order: SQLText = type == .string || type == .uri ? .keyword(.codePointOrder) : ""
            keys.append("\(ColumnName(column, qualifier: alias))" + order + .keyword(sort.ascending ? .ascending : .descending))
        }
        keys.append("\(ColumnName("_pk", qualifier: alias))")
        let head: SQLText = "SELECT \(keyword: alias).* FROM \(TableName(storage.table)) AS \(keyword: alias)"
        var tail: SQLText = " ORDER BY " + keys.joined(separator: ", ")
        if let limit { tail += " LIMIT \(limit)" }
        let filter: SQLText = conditions.isEmpty ? "" : " WHERE " + conditions.map(\.parenthesized).joined(separator: " AND ")
        return (head + filter + tail, storage)
    }

    /// The store's recorded model (parsed once per distinct model text).
    package static func recordedModel(_ metadata: StoreMetadata, path: String) throws -> Model {
        try RecordedModels.shared.model(metadata.modelYAML) {
            do {
                return try ModelLoader.load(yaml: metadata.modelYAML, file: "\(path) (recorded model)")
            } catch {
                throw StoreError.other("the store's recorded model cannot be read: \(error)")
            }
        }
    }
}

/// Parsed recorded models by their YAML text: a fetch compiles against the model without parsing it each time.
/// Measured (debug build, this machine): parsing the recipes example's v4 model takes 1.8 ms, a whole fetch of
/// a few rows with the model cached 1.1 ms; parsing on every fetch would more than double its cost.
final class RecordedModels: @unchecked Sendable {
    static let shared = RecordedModels()
    private let lock = NSLock()
    private var models: [String: Model] = [:]

    func model(_ yaml: String, parse: () throws -> Model) throws -> Model {
        lock.lock()
        if let model = models[yaml] { lock.unlock(); return model }
        lock.unlock()
        let model = try parse()
        lock.lock(); defer { lock.unlock() }
        if models.count >= 16 { models.removeAll() }
        models[yaml] = model
        return model
    }
}
