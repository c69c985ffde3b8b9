import Foundation
import GRDB

extension SQLStepRunner {
    /// What an `sql:` step did inside a hook.
    struct StepResult {
        /// The entities whose tables it wrote (SPEC §11.4 "What a raw step wrote").
        var entities: [String]
        /// Rows its statements changed.
        var changes: Int
        /// How it wrote each table, for the foreign-key check.
        var writes: [String: SQLAuthorizer.TableWrite]
    }

    /// Runs one `sql:` step of `hook` in the caller's transaction, on the store's recorded `layout`.
    /// - Throws: `DiagnosticList` (a placeholder naming nothing: exit 2), `SQLStepError` (exit 2 or 3),
    ///   `DatabaseError` (I/O: exit 1).
    static func runStep(_ step: SQLStep, of hook: Hook, in db: Database, layout: StoreLayout, context: PredicateContext,
                        progress: ProgressSink?) throws -> StepResult {
        guard step.hasSQLiteText else {
            // Stopped before any step by the pre-check; never PostgreSQL's text run on SQLite.
            let index = hook.steps.firstIndex { if case .sql(let s) = $0 { return s == step } else { return false } } ?? 0
            throw DiagnosticList([SQLPreCheck.noSQLiteText(hook, step: index + 1, at: step.origin)])
        }
        let expanded: ExpandedSQL
        do {
            expanded = try step.expanded(layout: layout, variables: context.variables, now: context.now)
        } catch {
            throw DiagnosticList([error.withSource(hook.source)])
        }
        let authorizer = SQLAuthorizer.install(on: db, layout: layout)
        let counter = progress.map { ProgressCounter(label: "\(hook.id) sql", total: nil, sink: $0) }
        let outcome = try db.reportingEstimatedProgress(counter) {
            try run(expanded, of: step, source: hook.source, in: db, authorizer: authorizer)
        }
        db.clearSchemaCache()   // the step may have created or dropped its own tables
        return StepResult(entities: entities(writtenIn: outcome.writtenTables, layout: layout), changes: outcome.changes,
                          writes: outcome.writes)
    }

    /// The foreign-key check after a hook's `sql:` steps (they run with foreign keys off, SPEC §11.4): a
    /// dangling reference is a 1700 violation, exit 3, and the step rolls back. Only the tables a write could
    /// break are checked (rows inserted or foreign-key columns updated in a child table; rows deleted or keys
    /// updated in a parent table), so an UPDATE of plain columns costs no scan.
    static func checkForeignKeys(of hook: Hook, writes: [String: SQLAuthorizer.TableWrite], in db: Database) throws {
        guard !writes.isEmpty else { return }
        let keys = try Row.fetchAll(db, sql: """
            SELECT m."name", f."from", f."table", f."to" FROM "sqlite_master" m, pragma_foreign_key_list(m."name") f
            WHERE m."type" = 'table'
            """)
        var children: [String] = []
        for key in keys {
            let child: String = key[0], from: String = key[1], parent: String = key[2]
            let to: String? = key[3]
            var affected = false
            if let w = writes[child.lowercased()], w.inserted || w.columns.contains(from.lowercased()) { affected = true }
            if let w = writes[parent.lowercased()] {
                // A key given by name is checked when that column changed; the parent's primary key (no name) whenever it was updated.
                affected = affected || w.deleted || (to.map { w.columns.contains($0.lowercased()) } ?? !w.columns.isEmpty)
            }
            if affected && !children.contains(child) { children.append(child) }
        }
        var found: [String] = []
        var total = 0
        for child in children {
            let check: SQLText = #"SELECT "table", "rowid", "parent" FROM pragma_foreign_key_check(\#(child))"#
            let rows = try Row.fetchAll(db, sql: check.sql, arguments: StatementArguments(check.arguments.map(\.databaseValue)))
            total += rows.count
            for row in rows.prefix(max(0, 20 - found.count)) {
                let table: String = row[0], parent: String = row[2]
                let rowid: Int64? = row[1]
                found.append("\(table) row \(rowid.map(String.init) ?? "?") → \(parent)")
            }
        }
        guard total > 0 else { return }
        let origin = hook.steps.compactMap { step -> SourceLocation? in if case .sql(let s) = step { return s.origin } else { return nil } }.first
        var error = SQLStepError(.violation(code: 1700),
                                 "hook '\(hook.id)' left \(total) reference\(total == 1 ? "" : "s") to missing objects: "
                                    + found.joined(separator: ", ") + (total > found.count ? ", …" : ""),
                                 at: origin, hint: "the step was rolled back; delete or relink the referring rows in the same hook")
        error.source = hook.source
        throw error
    }
}

extension SQLStepRunner {
    /// Runs `body` (a transaction) with foreign keys off, as every version step does (`StepExecutor.transaction`),
    /// and turns them back on after it: a late hook's work is checked the same way.
    static func foreignKeysOff(_ db: Database, _ body: () throws -> Void) throws {
        try db.execute(sql: "PRAGMA foreign_keys = OFF")
        guard try Int.fetchOne(db, sql: "PRAGMA foreign_keys") == 0 else { throw MigrationError.foreignKeysStillOn }
        do {
            try body()
        } catch {
            try? db.execute(sql: "PRAGMA foreign_keys = ON")
            throw error
        }
        try StepExecutor.restoreForeignKeys(db)
    }
}
