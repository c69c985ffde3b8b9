import Foundation
import StrataCore
import Strata

/// Reading objects back from a PostgreSQL store, as ``Store`` does on SQLite: the same predicate language,
/// sort keys, object IDs and values in SQLite's storage form (dates as seconds since 1970, booleans 0/1,
/// decimals as text), so code reading a store does not depend on its engine.
extension PostgresStore {
    /// Reads the objects of `entity` matching a predicate, sorted, at most `limit`, handing them to `body` one
    /// at a time as the server sends them: one statement, values bound, memory flat in the number of results.
    /// It runs in one read-only, repeatable-read transaction (a consistent snapshot).
    ///
    /// ```swift
    /// try await store.fetch("Recipe", where: "rating >= %@", arguments: [.number(4)]) { recipe in
    ///     print(recipe.id, recipe.string("name") ?? "")
    /// }
    /// ```
    /// - Parameters: as ``Store``'s fetch: `entity` (with its sub-entities unless `includesSubentities` is false),
    ///   `predicate` (nil for all), `arguments` for `%@`/`%K`, `sortedBy` (the primary key breaks ties), `limit`,
    ///   `context` for `$NOW` and `$VARIABLES`.
    /// - Throws: `FetchError` (unknown entity or sort attribute, negative limit), `PredicateCompileError`,
    ///   `PostgresRenderError` (exit 2) for a predicate PostgreSQL cannot run, `PostgresStoreError` from the server.
    public func fetch(_ entity: String, where predicate: String? = nil, arguments: [PredicateArgument] = [],
                      sortedBy: [PropertySort] = [], limit: Int? = nil, includesSubentities: Bool = true,
                      context: PredicateContext? = nil, _ body: (FetchedObject) throws -> Void) async throws {
        if let limit, limit < 0 { throw FetchError.negativeLimit(limit) }
        var context = context ?? PredicateContext(now: Date().timeIntervalSince1970)
        context.arguments = arguments
        let metadata = try await self.metadata()
        let model = try Store.recordedModel(metadata, path: url.description)
        let (statement, storage) = try Store.fetchStatement(entity, where: predicate, sortedBy: sortedBy, limit: limit,
                                                            includesSubentities: includesSubentities, context: context,
                                                            model: model, layout: metadata.layout)
        let plain = PostgresRenderer()
        let renderer = try await PostgresServerFeatures.renderer(for: try plain.rendering(statement).requirements, session: session)
        let rendering = try renderer.rendering(statement)
        try await session.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        do {
            try await session.execute(PostgresSchemaSQL.setSearchPath(url.schema, local: true))
            var reader: FetchedObjectReader?
            try await session.stream(rendering) { row in
                if reader == nil {
                    reader = FetchedObjectReader(layout: metadata.layout, entity: storage, storeUUID: metadata.storeUUID,
                                                 columnNames: (0..<row.count).map { row[$0].columnName })
                }
                try body(try reader!.object { try PostgresCellValue.value(row[$0], statement: statement) })
            }
            try await session.execute("COMMIT")
        } catch {
            try? await session.execute("ROLLBACK")
            throw error
        }
    }

    /// ``fetch(_:where:arguments:sortedBy:limit:includesSubentities:context:_:)`` collected into an array:
    /// for results you would hold in memory anyway.
    public func fetchAll(_ entity: String, where predicate: String? = nil, arguments: [PredicateArgument] = [],
                         sortedBy: [PropertySort] = [], limit: Int? = nil, includesSubentities: Bool = true,
                         context: PredicateContext? = nil) async throws -> [FetchedObject] {
        var objects: [FetchedObject] = []
        try await fetch(entity, where: predicate, arguments: arguments, sortedBy: sortedBy, limit: limit,
                        includesSubentities: includesSubentities, context: context) { objects.append($0) }
        return objects
    }

    /// The table holding `entity`'s objects, as recorded in the store (in the URL's schema); sub-entities share
    /// their root's table, with the entity's name in column `_entity`; every table's primary key is `_pk`.
    /// - Throws: `FetchError.unknownEntity`, `PostgresStoreError`.
    public func table(for entity: String) async throws -> String {
        try await metadata().layout.fetchStorage(of: entity).table
    }

    /// The column holding `entity.property`: an attribute, or a to-one relationship stored as a foreign key.
    /// - Throws: `FetchError` (unknown entity or property, a relationship stored in another table), `PostgresStoreError`.
    public func column(for entity: String, property: String) async throws -> String {
        try await metadata().layout.column(for: entity, property: property)
    }
}
