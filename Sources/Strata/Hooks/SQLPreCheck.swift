import Foundation
import GRDB
#if canImport(GRDBSQLite)
import GRDBSQLite
#else
import SQLite3
#endif

/// Checks `sql:` steps before any store is touched (SPEC §11.4): every pending statement runs, in step order,
/// in an empty in-memory store with its step's layout, under the `SQLAuthorizer`, inside a transaction that
/// is rolled back, with a limit on the work each statement may do. Used by `migrate` before the first step
/// and by `lint`.
package enum SQLPreCheck {
    /// Hooks that run on one layout, in run order.
    public struct Group: Sendable {
        public var layout: StoreLayout
        public var hooks: [Hook]
        public init(layout: StoreLayout, hooks: [Hook]) {
            self.layout = layout
            self.hooks = hooks
        }
    }

    /// SQLite VM instructions one statement may run on the empty store (a runaway recursive CTE stops here).
    static let instructionLimit: Int32 = 1_000
    static let tickLimit = 200_000

    /// - Parameters:
    ///   - userSchema: `CREATE` statements of the store's own tables, views and triggers (not Strata's), so
    ///     statements that use them compile; none for `lint`.
    /// - Returns: warnings (a step that writes a sub-entity's table without `{{Entity:filter}}`).
    /// - Throws: `DiagnosticList` (exit 2) with one error per failing step: a placeholder naming nothing, a
    ///   statement that does not compile, a refusal, an SQL error.
    ///   - lint: a step without SQLite text is a warning (the project may migrate only PostgreSQL stores), not an error.
    public static func check(_ groups: [Group], variables: [String: String], now: Double,
                             userSchema: [String] = [], lint: Bool = false) throws -> [Diagnostic] {
        var errors: [Diagnostic] = []
        var warnings: [Diagnostic] = []
        // What users' SQL creates (tables of their own, temporary ones: the run keeps one connection) is there
        // for the later steps' hooks too.
        var carried = userSchema
        for group in groups where group.hooks.contains(where: { $0.steps.contains(where: \.isSQL) }) {
            var config = Configuration()
            config.foreignKeysEnabled = false   // as during a step
            config.prepareDatabase { $0.registerStrataFunctions() }
            let queue = try DatabaseQueue(configuration: config)
            try queue.inDatabase { db in
                try StoreMetadata.createTables(db)
                for statement in SchemaSQL.createStatements(for: group.layout) { try db.execute(statement) }
                for statement in carried { try? db.execute(sql: statement) }
                let authorizer = SQLAuthorizer.install(on: db, layout: group.layout)
                try limitingWork(db) {
                    try db.inTransaction(.immediate) {
                        for hook in group.hooks {
                            let context = hook.variables.merging(variables) { _, cli in cli }
                            for (index, step) in hook.steps.enumerated() {
                                guard case .sql(let sql) = step else { continue }
                                guard sql.hasSQLiteText else {
                                    var refusal = noSQLiteText(hook, step: index + 1, at: sql.origin)
                                    if lint { refusal.severity = .warning; warnings.append(refusal) } else { errors.append(refusal) }
                                    continue
                                }
                                do {
                                    let expanded = try sql.expanded(layout: group.layout, variables: context, now: now)
                                    let outcome = try SQLStepRunner.run(expanded, of: sql, source: hook.source, in: db,
                                                                        authorizer: authorizer, precheck: true)
                                    warnings += filterWarnings(sql, written: outcome.writtenTables, layout: group.layout, source: hook.source)
                                } catch let error as Diagnostic {
                                    errors.append(error.withSource(hook.source))
                                    break
                                } catch let error as SQLStepError {
                                    errors += error.diagnostics
                                    break
                                }
                            }
                        }
                        carried = try Self.userSchema(db, layout: group.layout) + Self.userSchema(db, layout: group.layout, temporary: true)
                        return .rollback
                    }
                }
            }
        }
        if !errors.isEmpty { throw DiagnosticList(errors + warnings) }
        return warnings
    }

    /// The refusal of an `sql:` step that gives only PostgreSQL text, on an SQLite store.
    static func noSQLiteText(_ hook: Hook, step: Int, at origin: SourceLocation) -> Diagnostic {
        Diagnostic.error("hook '\(hook.id)' step \(step): this sql: step has no SQLite text", at: origin,
                         hint: "give it as sql: { sqlite: \"…\", postgresql: \"…\" }; an SQLite store cannot run PostgreSQL's SQL")
            .withSource(hook.source)
    }

    /// A step that names a sub-entity's table (`{{Sub}}`, its root's table) and writes it without
    /// `{{Sub:filter}}` changes the rows of every entity in that table: most likely not what was meant.
    static func filterWarnings(_ step: SQLStep, written: Set<String>, layout: StoreLayout, source: String) -> [Diagnostic] {
        guard let pieces = try? step.pieces() else { return [] }
        let lowered = Set(written.map { $0.lowercased() })
        var filtered: Set<String> = []
        for (piece, _) in pieces { if case .placeholder(.filter(let entity)) = piece { filtered.insert(entity) } }
        var warnings: [Diagnostic] = []
        var warned: Set<String> = []
        for (piece, offset) in pieces {
            guard case .placeholder(.table(let entity)) = piece, !filtered.contains(entity), !warned.contains(entity),
                  let storage = layout.storage(of: entity), storage.root != entity,
                  lowered.contains(storage.table.lowercased()) else { continue }
            warned.insert(entity)
            warnings.append(Diagnostic.warning(
                "this step writes {{\(entity)}}, the table '\(storage.table)' that \(entity) shares with the other entities of \(storage.root)'s hierarchy, without {{\(entity):filter}}",
                at: step.location(atUTF8Offset: offset),
                hint: "add `WHERE {{\(entity):filter}}` so that only \(entity)'s rows change").withSource(source))
        }
        return warnings
    }

    /// Runs `body` with SQLite's progress handler interrupting any statement that runs too long.
    static func limitingWork<T>(_ db: Database, _ body: () throws -> T) throws -> T {
        guard let connection = db.sqliteConnection else { return try body() }
        let counter = Counter(limit: tickLimit)
        let unmanaged = Unmanaged.passRetained(counter)
        sqlite3_progress_handler(connection, instructionLimit, { pointer in
            guard let pointer else { return 0 }
            return Unmanaged<Counter>.fromOpaque(pointer).takeUnretainedValue().tick() ? 1 : 0
        }, unmanaged.toOpaque())
        defer {
            sqlite3_progress_handler(connection, 0, nil, nil)
            unmanaged.release()
        }
        return try body()
    }

    /// Counts progress-handler calls over the whole pre-check.
    final class Counter {
        let limit: Int
        var ticks = 0
        init(limit: Int) { self.limit = limit }
        func tick() -> Bool {
            ticks += 1
            return ticks > limit
        }
    }
}

extension SQLPreCheck {
    /// `migrate`'s check before the first step: late hooks on the store's layout, then each step's before-hooks
    /// on its source layout and after-hooks on its destination layout, with the store's own tables, views and triggers.
    static func checkPending(store: Store, metadata: StoreMetadata, steps: [VersionStep], late: [Hook], hooks: HookSet,
                             variables: [String: String], now: Double) throws {
        var groups: [Group] = []
        if !late.isEmpty { groups.append(Group(layout: metadata.layout, hooks: late)) }
        for step in steps {
            // In step order: before-hooks on the version below (its layout), then after-hooks on the step's (SPEC §11.4).
            groups.append(Group(layout: step.sourceLayout, hooks: hooks.hooks(before: step.toVersion)))
            groups.append(Group(layout: step.destinationLayout, hooks: hooks.hooks(after: step.toVersion)))
        }
        guard groups.contains(where: { $0.hooks.contains { $0.steps.contains(where: \.isSQL) } }) else { return }
        let schema = try store.wrap { try store.queue.read { try userSchema($0, layout: metadata.layout) } }
        _ = try check(groups, variables: variables, now: now, userSchema: schema)
    }

    /// The `CREATE` statements of what the user added to the store: tables (not the model's, not Strata's),
    /// their indexes, views and triggers (those on model tables too: they write when a step writes).
    /// - Parameter temporary: read the connection's temporary objects instead (replayed as ordinary ones).
    static func userSchema(_ db: Database, layout: StoreLayout, temporary: Bool = false) throws -> [String] {
        let modelTables = Set(layout.tables.map { $0.name.lowercased() })
        let master = TableName(temporary ? "sqlite_temp_master" : "sqlite_master")
        let query: SQLText = """
            SELECT "type", "tbl_name", "sql" FROM \(master)
            WHERE "sql" IS NOT NULL AND "name" NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND "tbl_name" NOT LIKE 'strata\\_%' ESCAPE '\\'
            ORDER BY CASE "type" WHEN 'table' THEN 0 WHEN 'index' THEN 1 WHEN 'view' THEN 2 ELSE 3 END, "rowid"
            """
        let rows = try Row.fetchAll(db, sql: query.sql)
        return rows.compactMap { row -> String? in
            let type: String = row[0], table: String = row[1]
            if type != "trigger" && modelTables.contains(table.lowercased()) { return nil }
            return row[2]
        }
    }
}

extension SQLPreCheck {
    /// `lint`'s check: every hook's `sql:` steps on a new store's layout of the model it runs against (N for
    /// `after: N`, the version below for `before: N`), in run order.
    /// - Returns: errors and warnings, located in the hook files.
    public static func lint(_ hooks: HookSet, models: ModelHistory, variables: [String: String]) -> [Diagnostic] {
        var groups: [Group] = []
        for version in models.versions {
            for pending in [hooks.hooks(before: version), hooks.hooks(after: version)] {
                guard let first = pending.first, let model = HookChecker.model(for: first, in: models),
                      pending.contains(where: { $0.steps.contains(where: \.isSQL) }) else { continue }
                groups.append(Group(layout: LayoutBuilder.layout(for: model), hooks: pending))
            }
        }
        do {
            return try check(groups, variables: variables, now: Date().timeIntervalSince1970, lint: true)
        } catch let error as DiagnosticList {
            return error.diagnostics
        } catch {
            return [Diagnostic.error("the pre-check of sql: steps failed: \(error)")]
        }
    }
}
