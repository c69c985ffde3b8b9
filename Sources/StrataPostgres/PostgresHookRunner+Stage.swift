import Foundation
import PostgresNIO
import StrataCore
import Strata

extension PostgresHookRunner {
    /// Runs a Swift stage's registered closure inside the step's transaction (SPEC §11.2), as
    /// `HookRunner.runStage` does on SQLite.
    ///
    /// The closure is synchronous, and the session is async: the closure runs on a thread of its own (never a
    /// Swift-concurrency or NIO thread), and each statement it sends through the context blocks that thread
    /// while a task runs it on the step's session (``PostgresStageBridge``). This task waits for the thread
    /// without holding one. What it wrote is read from `pg_stat_xact_user_tables` before and after, as for an
    /// `sql:` step (SPEC §11.4); with its `writes:`, those entities are audited in full by the caller.
    /// - Returns: its step result and the entities it wrote.
    /// - Throws: `StageError.notRegistered` (exit 7) when this binary does not register it; `StageError.threw`
    ///   (exit 1) when the closure throws something that is not a Strata error (a statement the server
    ///   refused included), or when it wrote Strata's tables or changed the managed schema. The step rolls back.
    func runStage(_ plan: PostgresHookPlan, declaration: SwiftStageDeclaration) async throws
        -> (HookStepResult, ChangeSet, written: [String]) {
        let hook = plan.hook
        guard let registration = options.stages.registration(hook.id) else { throw StageError.notRegistered(ids: [hook.id]) }
        let started = Date()
        let before = try await tableWrites()
        let schemaBefore = try await managedSchema(plan.layout)
        let bridge = PostgresStageBridge(runner: self, plan: plan)
        let stage = StageContext(postgresql: hook.id, model: plan.model, layout: plan.layout, storeUUID: storeUUID,
                                 context: plan.context, isDryRun: options.isDryRun, collectObjectIDs: options.collectObjectIDs,
                                 execute: { try bridge.execute($0) }, batch: { try bridge.batch($0) },
                                 fetch: { try bridge.fetch($0) })
        let body = registration.body
        let box = PostgresStageBridge.Unchecked(stage)
        do {
            try await PostgresStageBridge.onOwnThread { try body(box.value) }
        } catch let error as StrataError {
            throw error
        } catch {
            throw StageError.threw(stage: hook.id, message: "\(error)")
        }
        let after = try await tableWrites()
        // The batch requests' writes are known row by row (recorded as touched rows): not counted as the SQL's.
        let changed = Set(after.filter { ($0.value - (before[$0.key] ?? 0)) != (bridge.batchWrites[$0.key] ?? 0) }.keys)
        if let own = changed.filter({ $0.hasPrefix("strata_") }).sorted().first {
            throw StageError.threw(stage: hook.id, message: "refused: a write to Strata's table \(own)")
        }
        if try await managedSchema(plan.layout) != schemaBefore {
            throw StageError.threw(stage: hook.id, message: "refused: it changed the tables Strata manages")
        }
        let written = Set(plan.layout.entities.values.filter { changed.contains($0.table) }.map(\.root))
        let entities = written.union(declaration.writes).sorted()
        let step = HookStepResult(kind: "swift", entity: entities.joined(separator: ", "), count: stage.batchChanges.rowsAffected,
                                  objectIDs: nil, updatedCounts: stage.batchChanges.changes.updatedCounts,
                                  deletedCounts: stage.batchChanges.changes.deletedCounts, duration: Date().timeIntervalSince(started))
        var changes = stage.batchChanges.changes
        changes.invalidate(entities)
        return (step, changes, entities)
    }
}

/// Runs a stage's statements, sent from its own thread, on the step's session: each call blocks the calling
/// thread on a semaphore while a task runs the statement. Only the stage's thread ever blocks.
final class PostgresStageBridge: @unchecked Sendable {
    let runner: PostgresHookRunner
    let plan: PostgresHookPlan
    /// Rows each table's batch requests wrote, from `pg_stat_xact_user_tables`; changed on the stage's thread
    /// only, read after it ends.
    private(set) var batchWrites: [String: Int64] = [:]

    init(runner: PostgresHookRunner, plan: PostgresHookPlan) {
        self.runner = runner
        self.plan = plan
    }

    /// What a stage's statement did wrong on PostgreSQL; not a Strata error, so the stage reports it as
    /// `StageError.threw` (exit 1), as SQLite reports its errors.
    struct StatementError: Error, CustomStringConvertible {
        var description: String
    }

    /// A value handed to the stage's thread, which alone uses it until the thread ends.
    final class Unchecked<T>: @unchecked Sendable {
        let value: T
        init(_ value: T) { self.value = value }
    }

    /// A statement's outcome, written by its task before it signals and read by the stage's thread after.
    final class Slot<T>: @unchecked Sendable {
        var outcome: Result<T, any Error>?
    }

    /// Runs `statement` in the step's transaction and returns the rows it changed. Called on the stage's thread.
    /// - Throws: `StatementError` for a statement an `sql:` step may not run either (transaction control,
    ///   session settings, …) or one the server refused.
    func execute(_ statement: SQLText) throws -> Int {
        return try run(statement) { $0.affected }
    }

    /// The column names and rows of one query, its values in SQLite's storage forms. Called on the stage's thread.
    func fetch(_ statement: SQLText) throws -> (columns: [String], rows: [[Value]]) {
        try run(statement) { result in
            let columns = result.rows.first.map { row in row.map(\.columnName) } ?? []
            return (columns, try result.rows.map { row in try row.map { try PostgresCellValue.value($0, statement: statement) } })
        }
    }

    /// Runs `statement` (refused as in an `sql:` step) and reads its result with `read`, in the task.
    func run<T: Sendable>(_ statement: SQLText,
                          _ read: @escaping @Sendable ((rows: [PostgresRandomAccessRow], affected: Int)) throws -> T) throws -> T {
        let keyword = PostgresStatementSplitter.leadingKeyword(statement) ?? ""
        if let what = PostgresStatementSplitter.refused[keyword] {
            throw StatementError(description: "refused: \(keyword) (\(what))")
        }
        let rendering: PostgresRenderer.Rendering
        do { rendering = try runner.renderer.rendering(statement) } catch { throw StatementError(description: error.message) }
        let session = runner.session
        do {
            return try blocking { try read(try await session.run(rendering)) }
        } catch PostgresStoreError.server(let message, let state, _, _) {
            throw StatementError(description: "PostgreSQL: \(message)" + (state.map { " (SQLSTATE \($0))" } ?? ""))
        }
    }

    /// Runs a batch request as a hook step does (its rows recorded for the audit). Called on the stage's thread.
    /// - Throws: `BatchError.invalid` (exit 2) for a request that does not check; the runner's errors.
    func batch(_ request: StageBatchRequest) throws -> BatchResult {
        let runner = self.runner, plan = self.plan
        let planner = BatchPlanner(model: plan.model, layout: plan.layout)
        let base = plan.context
        let (result, writes): (BatchResult, [String: Int64]) = try blocking {
            let before = try await runner.tableWrites()
            var context = base
            let result: BatchResult
            switch request {
            case .update(let update):
                context.arguments = update.arguments
                result = try await runner.run(try planner.planUpdate(update, context: context), update)
            case .delete(let delete):
                context.arguments = delete.arguments
                result = try await runner.run(try planner.planDelete(delete, context: context), delete, layout: plan.layout)
            }
            let after = try await runner.tableWrites()
            return (result, after.reduce(into: [:]) { $0[$1.key] = $1.value - (before[$1.key] ?? 0) })
        }
        batchWrites.merge(writes) { $0 + $1 }
        return result
    }

    /// Runs `body` in a task and blocks the calling thread (the stage's) until it ends.
    func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let result = Slot<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            do { result.outcome = .success(try await body()) } catch { result.outcome = .failure(error) }
            done.signal()   // orders the write above before the read below
        }
        done.wait()
        guard let outcome = result.outcome else { preconditionFailure("signalled without a result") }
        return try outcome.get()
    }

    /// Runs `body` on a new thread and waits for it without blocking the caller's.
    static func onOwnThread(_ body: @escaping @Sendable () throws -> Void) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let thread = Thread {
                do {
                    try body()
                    continuation.resume()
                } catch {
                    continuation.resume(throwing: error)
                }
            }
            thread.name = "strata swift stage"
            thread.stackSize = 8 << 20
            thread.start()
        }
    }
}
