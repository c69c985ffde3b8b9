import Foundation
import StrataCore
import Strata

/// Reading objects back from a PostgreSQL store, as ``Store`` does on SQLite: the same predicate language,
/// sort keys, object IDs and values in SQLite's storage form (dates as seconds since 1970, booleans 0/1,
/// decimals as text), so code reading a store does not depend on its engine.
extension PostgresStore {
    /// Reads the objects of `entity` matching a predicate, sorted, at most `limit`, handing them to `body` one
    /// at a time as the server sends them: one statement, values bound, memory flat in the number of results.
    /// It runs in one read-only, repeatable-read transaction (a consistent snapshot) whose statements wait at most
    /// `ddlLockTimeout` seconds for a lock another session holds (`lock_timeout`, as in the store's other calls that take
    /// it): a table a migration or an application holds exclusively ends the read instead of blocking it for ever.
    ///
    /// ```swift
    /// try await store.fetch("Recipe", where: "rating >= %@", arguments: [.number(4)]) { recipe in
    ///     print(recipe.id, recipe.string("name") ?? "")
    /// }
    /// ```
    /// - Parameters: as ``Store``'s fetch: `entity` (with its sub-entities unless `includesSubentities` is false),
    ///   `predicate` (nil for all), `arguments` for `%@`/`%K`, `sortedBy` (the primary key breaks ties), `limit`,
    ///   `context` for `$NOW` and `$VARIABLES`; and `ddlLockTimeout`, the seconds each statement may wait for a lock.
    /// - Throws: `FetchError` (unknown entity or sort attribute, negative limit), `PredicateCompileError`,
    ///   `PostgresRenderError` (exit 2) for a predicate PostgreSQL cannot run, `PostgresLockWaitError` (exit 5) when
    ///   a statement waits longer than `ddlLockTimeout`, `PostgresStoreError` from the server.
    public func fetch(_ entity: String, where predicate: String? = nil, arguments: [PredicateArgument] = [],
                      sortedBy: [PropertySort] = [], limit: Int? = nil, includesSubentities: Bool = true,
                      context: PredicateContext? = nil, ddlLockTimeout: Double = 5,
                      _ body: (FetchedObject) throws -> Void) async throws {
        if let limit, limit < 0 { throw FetchError.negativeLimit(limit) }
        var context = context ?? PredicateContext(now: Date().timeIntervalSince1970)
        context.arguments = arguments
        try await session.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        do {
            try await session.execute(PostgresSchemaSQL.setSearchPath(url.schema, local: true))
            try await session.execute("SET LOCAL lock_timeout = \(keyword: String(Int((ddlLockTimeout * 1000).rounded())))")
            // The recorded model is read in the same snapshot as the rows, under the same lock_timeout.
            let metadata = try await self.metadata()
            let model = try Store.recordedModel(metadata, path: url.description)
            let (statement, storage) = try Store.fetchStatement(entity, where: predicate, sortedBy: sortedBy, limit: limit,
                                                                includesSubentities: includesSubentities, context: context,
                                                                model: model, layout: metadata.layout)
            let plain = PostgresRenderer()
            let renderer = try await PostgresServerFeatures.renderer(for: try plain.rendering(statement).requirements, session: session)
            let rendering = try renderer.rendering(statement)
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
            throw PostgresLockWaitError.lockWait(error, seconds: ddlLockTimeout)
        }
    }

    /// ``fetch(_:where:arguments:sortedBy:limit:includesSubentities:context:ddlLockTimeout:_:)`` collected into an
    /// array: for results you would hold in memory anyway.
    public func fetchAll(_ entity: String, where predicate: String? = nil, arguments: [PredicateArgument] = [],
                         sortedBy: [PropertySort] = [], limit: Int? = nil, includesSubentities: Bool = true,
                         context: PredicateContext? = nil, ddlLockTimeout: Double = 5) async throws -> [FetchedObject] {
        var objects: [FetchedObject] = []
        try await fetch(entity, where: predicate, arguments: arguments, sortedBy: sortedBy, limit: limit,
                        includesSubentities: includesSubentities, context: context, ddlLockTimeout: ddlLockTimeout) { objects.append($0) }
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
