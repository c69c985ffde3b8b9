import Foundation
import GRDB

extension SQLStepRunner {
    /// What an `sql:` step did inside a hook.
    struct StepResult {
        /// The entities whose tables it wrote (SPEC §11.4 "What a raw step wrote").
        var entities: [String]
        /// Rows its statements changed.
        var changes: Int
    }

    /// Runs one `sql:` step of `hook` in the caller's transaction, on the store's recorded `layout`.
    /// - Throws: `DiagnosticList` (a placeholder naming nothing: exit 2), `SQLStepError` (exit 2 or 3),
    ///   `DatabaseError` (I/O: exit 1).
    static func runStep(_ step: SQLStep, of hook: Hook, in db: Database, layout: StoreLayout, context: PredicateContext,
                        progress: ProgressSink?) throws -> StepResult {
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
        return StepResult(entities: entities(writtenIn: outcome.writtenTables, layout: layout), changes: outcome.changes)
    }

    /// `PRAGMA foreign_key_check` after a hook with `sql:` steps (they run with foreign keys off, SPEC §11.4):
    /// a dangling reference is a 1700 violation, exit 3, and the step rolls back.
    static func checkForeignKeys(of hook: Hook, in db: Database, layout: StoreLayout) throws {
        let rows = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check")
        guard !rows.isEmpty else { return }
        let listed = rows.prefix(20).map { row -> String in
            let table: String = row[0], parent: String = row[2]
            let rowid: Int64? = row[1]
            return "\(table) row \(rowid.map(String.init) ?? "?") → \(parent)"
        }
        let origin = hook.steps.compactMap { step -> SourceLocation? in if case .sql(let s) = step { return s.origin } else { return nil } }.first
        var error = SQLStepError(.violation(code: 1700),
                                 "hook '\(hook.id)' left \(rows.count) reference\(rows.count == 1 ? "" : "s") to missing objects: "
                                    + listed.joined(separator: ", ") + (rows.count > listed.count ? ", …" : ""),
                                 at: origin, hint: "the step was rolled back; delete or relink the referring rows in the same hook")
        error.source = hook.source
        throw error
    }
}

extension SQLStepRunner {
    /// Runs `body` (a transaction) with foreign keys off when `condition` holds, as a version step with
    /// `sql:` hooks does (`StepExecutor.transaction`), and turns them back on after it.
    static func foreignKeysOff(_ db: Database, if condition: Bool, _ body: () throws -> Void) throws {
        guard condition else { return try body() }
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
