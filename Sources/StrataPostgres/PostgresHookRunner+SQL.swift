import StrataCore
import Strata

extension PostgresHookRunner {
    /// An `sql:` step's statements, each sent alone. What it wrote is read from `pg_stat_xact_user_tables`
    /// before and after (SPEC §11.4); a write to a `strata_` table is refused.
    /// - Returns: the rows the statements reported changed, and the entities whose tables they wrote.
    /// - Throws: `PostgresStoreError.violations` (exit 3) for a constraint failure; a `Diagnostic` located at the
    ///   step (exit 2) for any other error of the statement, or a write to Strata's tables. The step rolls back.
    func runSQL(_ statements: [SQLText], hook: String, step: Int, at location: SourceLocation,
                layout: StoreLayout) async throws -> (count: Int, written: [String]) {
        let before = try await tableWrites()
        var count = 0
        for statement in statements {
            do {
                count += try await run(statement).affected
            } catch PostgresStoreError.server(let message, let state, _, _) {
                if let state, state.hasPrefix("23") {
                    let code = Self.violationCodes[state].map { " (\($0))" } ?? ""
                    throw PostgresStoreError.violations(message: "hook '\(hook)' step \(step): the sql: step broke a constraint\(code): \(message)",
                                                        objects: [])
                }
                throw Diagnostic.error("hook '\(hook)' step \(step): PostgreSQL: \(message)" + (state.map { " (SQLSTATE \($0))" } ?? ""),
                                       at: location, hint: "the step was rolled back; fix the statement in the hook file")
            }
        }
        let after = try await tableWrites()
        let changed = Set(after.filter { before[$0.key] != $0.value }.keys)
        if let own = changed.filter({ $0.hasPrefix("strata_") }).sorted().first {
            throw Diagnostic.error("hook '\(hook)' step \(step): the sql: step wrote Strata's table \(own)", at: location,
                                   hint: "Strata's own tables are written by Strata only")
        }
        let written = layout.entities.values.filter { changed.contains($0.table) }.map(\.root)
        return (count, Array(Set(written)).sorted())
    }

    /// Rows inserted, updated and deleted so far in this transaction, per table of the store's schema.
    func tableWrites() async throws -> [String: Int64] {
        let query: SQLText = """
            SELECT relname::text, n_tup_ins + n_tup_upd + n_tup_del FROM pg_stat_xact_user_tables WHERE schemaname = \(store.url.schema)
            """
        var writes: [String: Int64] = [:]
        for row in try await run(query).rows {
            writes[try PostgresSession.decode(row[0], as: String.self, statement: query)]
                = try PostgresSession.decode(row[1], as: Int64.self, statement: query)
        }
        return writes
    }

    /// The managed schema as lines: every column (name, type, nullability, default) of the model's and Strata's
    /// tables, their indexes and constraints.
    func managedSchema(_ layout: StoreLayout) async throws -> [String] {
        let tables = (layout.tables.map(\.name) + [StoreMetadata.table, "strata_history", "strata_hooks"])
            .map { SQLText.bind(.text($0)) }.joined(separator: ", ")
        let schema = store.url.schema
        let query: SQLText = "SELECT table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' "
            + "|| coalesce(column_default, '') FROM information_schema.columns WHERE table_schema = \(schema) AND table_name IN (" + tables + ")"
            + " UNION ALL SELECT tablename || ' ' || indexdef FROM pg_indexes WHERE schemaname = \(schema) AND tablename IN (" + tables + ")"
            + " UNION ALL SELECT c.conrelid::regclass::text || ' ' || c.conname || ' ' || pg_get_constraintdef(c.oid) FROM pg_constraint c"
            + " JOIN pg_class r ON r.oid = c.conrelid JOIN pg_namespace n ON n.oid = r.relnamespace"
            + " WHERE n.nspname = \(schema) AND r.relname IN (" + tables + ") ORDER BY 1"
        return try await run(query).rows.map { try PostgresSession.decode($0[0], as: String.self, statement: query) }
    }

    /// Fails when the hook's `sql:` steps changed the managed schema (SPEC §14.2: re-checked before commit).
    /// - Throws: a `Diagnostic` (exit 2) naming the first difference; the step rolls back.
    func checkManagedSchema(_ layout: StoreLayout, unchangedFrom before: [String], hook: Hook) async throws {
        let after = try await managedSchema(layout)
        guard after != before else { return }
        let removed = before.filter { !after.contains($0) }, added = after.filter { !before.contains($0) }
        let first = removed.first.map { "no longer has \($0)" } ?? added.first.map { "now has \($0)" } ?? "changed"
        throw Diagnostic.error("hook '\(hook.id)': its sql: steps changed the tables Strata manages: the schema \(first)",
                               at: hook.afterLocation,
                               hint: "sql: steps change data; schema changes belong in the model files. The step was rolled back")
    }
}
