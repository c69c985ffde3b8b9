import Foundation
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
    func runStage(_ plan: PostgresHookPlan, declaration: SwiftStageDeclaration) async throws -> (HookStepResult, written: [String]) {
        let hook = plan.hook
        guard let registration = options.stages.registration(hook.id) else { throw StageError.notRegistered(ids: [hook.id]) }
        let started = Date()
        let before = try await tableWrites()
        let schemaBefore = try await managedSchema(plan.layout)
        let bridge = PostgresStageBridge(session: session, renderer: renderer)
        let stage = StageContext(postgresql: hook.id, model: plan.model, layout: plan.layout, storeUUID: storeUUID,
                                 context: plan.context, isDryRun: options.isDryRun) { try bridge.execute($0) }
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
        let changed = Set(after.filter { before[$0.key] != $0.value }.keys)
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
        return (step, entities)
    }
}

/// Runs a stage's statements, sent from its own thread, on the step's session: each call blocks the calling
/// thread on a semaphore while a task runs the statement. Only the stage's thread ever blocks.
final class PostgresStageBridge: Sendable {
    let session: PostgresSession
    let renderer: PostgresRenderer

    init(session: PostgresSession, renderer: PostgresRenderer) {
        self.session = session
        self.renderer = renderer
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
    final class Slot: @unchecked Sendable {
        var outcome: Result<Int, any Error>?
    }

    /// Runs `statement` in the step's transaction and returns the rows it changed. Called on the stage's thread.
    /// - Throws: `StatementError` for a statement an `sql:` step may not run either (transaction control,
    ///   session settings, …) or one the server refused.
    func execute(_ statement: SQLText) throws -> Int {
        let keyword = PostgresStatementSplitter.leadingKeyword(statement) ?? ""
        if let what = PostgresStatementSplitter.refused[keyword] {
            throw StatementError(description: "refused: \(keyword) (\(what))")
        }
        let rendering: PostgresRenderer.Rendering
        do { rendering = try renderer.rendering(statement) } catch { throw StatementError(description: error.message) }
        let result = Slot()
        let done = DispatchSemaphore(value: 0)
        let session = self.session
        Task {
            let outcome: Result<Int, any Error>
            do { outcome = .success(try await session.run(rendering).affected) } catch { outcome = .failure(error) }
            result.outcome = outcome   // read after `done`, which orders it
            done.signal()
        }
        done.wait()
        switch result.outcome {
        case .success(let count): return count
        case .failure(PostgresStoreError.server(let message, let state, _)):
            throw StatementError(description: "PostgreSQL: \(message)" + (state.map { " (SQLSTATE \($0))" } ?? ""))
        case .failure(let error): throw error
        case nil: preconditionFailure("signalled without a result")
        }
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
