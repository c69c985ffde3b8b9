import Foundation
import StrataCore
import Strata

/// Fleets whose stores are SQLite files, PostgreSQL stores (`postgres://…` URLs), or both (SPEC §14.1,
/// §14.2): each store through its engine's single-store call, on the fleet's worker threads, one summary.
///
/// The URLs are parsed before any store starts (a bad one is exit 2 for the whole run, nothing touched), and
/// rows name a PostgreSQL store as the messages about a URL given name it: as written, its password replaced
/// by `***` (``PostgresStoreURL/redacted(_:)``), so a row can be pasted back into `--store`.
/// ```swift
/// let fleet = Fleet(stores: ["tenants/a.sqlite", "postgres://deploy@db/shop?schema=b"], jobs: 2)
/// let summary = try fleet.migrateAcrossEngines(models: history, hooks: hooks, options: .init(now: now), postgres: .init())
/// ```
extension Fleet {
    /// `migrate` over the stores; an SQLite store runs exactly as in ``Fleet/migrate(models:hooks:options:backupDirectory:)``
    /// (without backups: a fleet with PostgreSQL stores takes no `--backup-dir`).
    /// - Parameters:
    ///   - options: the SQLite stores' options.
    ///   - postgres: the PostgreSQL stores' options (target, create, dry run and late hooks as in `options`).
    /// - Throws: before any store starts: a `Diagnostic` for an unknown target, `StageError` (exit 2),
    ///   `PostgresStoreError.invalidURL` (exit 2).
    public func migrateAcrossEngines(models: ModelHistory, hooks: HookSet, options: MigrationRun.Options,
                                     postgres: PostgresMigration.Options) throws -> FleetReport {
        _ = try PostgresMigration.targetModel(models, options.target)
        let registrationProblems = options.stages.check(against: hooks)
        if !registrationProblems.isEmpty { throw StageError.registration(registrationProblems) }
        let (fleet, urls) = try withURLs()
        let onLockWait = onLockWait
        return fleet.run(command: "migrate", dryRun: options.dryRun) { path in
            guard let url = urls[path] else {
                var storeOptions = options
                storeOptions.progressSink = nil
                if let onLockWait { storeOptions.onLockWait = { holder in onLockWait(path, holder) } }
                return Self.migrateOne(path, models: models, hooks: hooks, options: storeOptions)
            }
            return Self.attempt(path) {
                let report = try Self.blocking { try await PostgresMigration.run(url, models: models, hooks: hooks, options: postgres) }
                let outcome: FleetStoreResult.Outcome = report.created ? .created : report.nothingToDo ? .upToDate : .migrated
                return (FleetStoreResult(path: path, outcome: outcome, exitCode: .success, fromVersion: report.fromVersion,
                                         toVersion: report.toVersion, hooks: report.hooks.count, violations: 0), nil, [])
            }
        }
    }

    /// `status` over the stores, as ``Fleet/status(history:hooks:check:stages:)`` for SQLite stores; a
    /// PostgreSQL store's row by the same rules (``PostgresStatus/exitCode(check:history:hooks:stages:)``): drift
    /// (exit 6); with `check`, late hooks 6, a pending step that cannot be inferred 4, other pending work 7.
    /// - Throws: `PostgresStoreError.invalidURL` (exit 2) before any store starts.
    public func statusAcrossEngines(history: ModelHistory, hooks: HookSet, check: Bool, stages: Stages = Stages()) throws -> FleetReport {
        let (fleet, urls) = try withURLs()
        return fleet.run(command: "status") { path in
            guard let url = urls[path] else { return Self.statusOne(path, history: history, hooks: hooks, check: check, stages: stages) }
            return Self.attempt(path) {
                let status = try Self.blocking { try await PostgresStatus.read(url, models: history, hooks: hooks) }
                let pending = !status.pendingVersions.isEmpty || !status.pendingHooks.isEmpty || !status.lateHooks.isEmpty
                // The code and diagnostics `strata status` gives this store (and SQLite's rows: statusOne).
                let (code, diagnostics) = status.exitCode(check: check, history: history, hooks: hooks, stages: stages)
                var message: String?
                if let first = status.drift.first {
                    message = "\(status.drift.count) drift item\(status.drift.count == 1 ? "" : "s"): \(first)"
                } else if let first = diagnostics.first {
                    message = first.message
                } else if !status.lateHooks.isEmpty {
                    message = "late hooks: " + status.lateHooks.joined(separator: ", ")
                }
                let drift = !status.drift.isEmpty || !status.hashMatches
                let row = FleetStoreResult(path: path, outcome: drift ? .drift : pending ? .pending : .upToDate,
                                           exitCode: code, fromVersion: status.version, toVersion: status.latestVersion,
                                           hooks: status.pendingHooks.count + status.lateHooks.count, message: message.map(Fleet.oneLine))
                let explained = diagnostics.isEmpty ? message.map { [Diagnostic.error($0)] } ?? [] : diagnostics
                return (row, code == .success ? nil : DiagnosticList(explained), [])
            }
        }
    }

    /// `audit` over the stores, as ``Fleet/audit(history:scope:failOn:maxSamples:variables:now:)`` for SQLite
    /// stores; a PostgreSQL store is audited as `strata audit` does there (one read-only transaction).
    /// `ddlLockTimeout` bounds each statement's wait for a lock another session holds on a PostgreSQL store (exit 5).
    /// - Throws: `PostgresStoreError.invalidURL` (exit 2) before any store starts.
    public func auditAcrossEngines(history: ModelHistory?, scope: AuditScope, failOn: Set<AuditCode>?, maxSamples: Int = 0,
                                   variables: [String: String] = [:], now: Double = Date().timeIntervalSince1970,
                                   ddlLockTimeout: Double = 5) throws -> FleetReport {
        let (fleet, urls) = try withURLs()
        return fleet.run(command: "audit") { path in
            guard let url = urls[path] else {
                return Self.auditOne(path, history: history, scope: scope, failOn: failOn, maxSamples: maxSamples,
                                     variables: variables, now: now)
            }
            return Self.attempt(path) {
                let result = try Self.blocking {
                    let store = try await PostgresStore.open(url)
                    do {
                        var auditor = try await Auditor(store: store, history: history)
                        auditor.variables = variables
                        auditor.now = now
                        let result = try await auditor.run(on: store, scope: scope, maxSamples: maxSamples, lockTimeout: ddlLockTimeout)
                        await store.close()
                        return result
                    } catch {
                        await store.close()
                        throw error
                    }
                }
                return (Self.auditRow(path, result: result, failOn: failOn), nil, [])
            }
        }
    }

    /// This fleet with each PostgreSQL store named as it was written, its password replaced by `***` (each
    /// store once, by its first spelling: `postgres://` and `postgresql://` spellings of one URL are one
    /// store), and those URLs parsed, by name.
    func withURLs() throws -> (Fleet, [String: PostgresStoreURL]) {
        var fleet = self
        var urls: [String: PostgresStoreURL] = [:]
        var seen: Set<String> = []
        fleet.stores = []
        for store in stores {
            guard PostgresStoreURL.isPostgres(store) else {
                fleet.stores.append(store)
                continue
            }
            let url = try PostgresStoreURL(parsing: store)
            guard seen.insert(url.description).inserted else { continue }
            let name = PostgresStoreURL.redacted(store)
            urls[name] = url
            fleet.stores.append(name)
        }
        return (fleet, urls)
    }

    /// Runs `body` to its end on the calling thread: a fleet worker's own thread, never one of the
    /// cooperative pool's, so blocking it is safe.
    static func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let box = BlockingResult<T>()
        Task {
            do { box.result = .success(try await body()) } catch { box.result = .failure(error) }
            box.done.signal()
        }
        box.done.wait()
        return try box.result!.get()
    }
}

/// What an async call returned to a thread that waits for it (written once, before `done` is signalled).
private final class BlockingResult<T: Sendable>: @unchecked Sendable {
    var result: Result<T, any Error>?
    let done = DispatchSemaphore(value: 0)
}
