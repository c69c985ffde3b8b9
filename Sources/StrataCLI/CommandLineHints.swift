import Foundation
import Strata
import StrataPostgres

/// The command line's hints for library errors: the library's hints name its API (`Store.open(at:models:)`),
/// the command line's name its flags and commands (`--create`, `--store`, `strata adopt`); so do StrataPostgres's
/// (`PostgresStore.open(_:models:hooks:options:)`, `ddlLockTimeout` → `--create`, `--ddl-lock-timeout`).
enum CommandLineHints {
    /// `error`'s diagnostics, the first one worded for the command line when the library's names its API.
    static func diagnostics(for error: StrataError) -> [Diagnostic] {
        if let run = error as? MigrationRunError { return diagnostics(for: run.underlying) }
        var diagnostics = error.diagnostics
        guard !diagnostics.isEmpty else { return diagnostics }
        if let hint = hint(for: error) { diagnostics[0].hint = hint }
        if let message = message(for: error) { diagnostics[0].message = message }
        return diagnostics
    }

    static func hint(for error: StrataError) -> String? {
        switch error {
        case StoreError.missing: return "check the path, or pass --create to create a new store there"
        case StoreError.notADatabase, StorePathError.notARegularFile: return "check --store (or STRATA_STORE)"
        case StoreError.notAdopted: return "baseline it with `strata adopt --version N` first"
        case StoreError.exists: return "run `strata migrate` on it, or baseline it with `strata adopt --version N` if it is not a store yet"
        case PipelineError.storeBusy(_, _, let holder, _): return PipelineError.busyHint(holder: holder, raise: "--lock-timeout")
        case PipelineError.databaseBusy: return "retry when the other writer is done, or raise --lock-timeout"
        case PipelineError.backupExists: return "choose another --backup path, remove the file, or pass --force to overwrite it"
        case let late as LateHooksError where late.before:
            return "what a before-hook reads is gone after its step; record it as skipped with `strata repair --skip ID`"
        case is LateHooksError:
            return "check the hook against today's data, then run `strata migrate --run-late-hooks`; a renamed hook file without `id:` is a new hook"
        case is BatchViolationError: return "fix the predicate or the values, or pass --on-violation warn to commit and report"
        case PostgresStoreError.missingStore: return "check the URL and schema, or pass --create to create the store there"
        case PostgresStoreError.busy: return "wait for it to finish, or raise --lock-timeout"
        case let wait as PostgresLockWaitError: return wait.diagnostic(limit: "--ddl-lock-timeout", setting: "--ddl-lock-timeout").hint
        default: return nil
        }
    }

    static func message(for error: StrataError) -> String? {
        switch error {
        case MigrationError.targetBelowCurrent(let current, let target): return "--to \(target) is below the store's version \(current)"
        case MigrationError.unknownVersion(let version, _): return "--to \(version): there is no model version \(version)"
        case let wait as PostgresLockWaitError: return wait.diagnostic(limit: "--ddl-lock-timeout", setting: "--ddl-lock-timeout").message
        default: return nil
        }
    }

    /// `ModelHistory.load(directory:)`, a missing directory hinted with `--models`; the history loaded while the
    /// arguments were parsed when it is this directory's (`ModelPrefetch`).
    static func loadModels(directory: String) throws(DiagnosticList) -> ModelHistory {
        if let prefetch = StrataMain.modelPrefetch, prefetch.directory == directory { return try prefetch.history() }
        return try loadModelsNow(directory: directory)
    }

    /// `ModelHistory.load(directory:)`, a missing directory hinted with `--models`.
    static func loadModelsNow(directory: String) throws(DiagnosticList) -> ModelHistory {
        do {
            return try ModelHistory.load(directory: directory)
        } catch {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) && isDirectory.boolValue
            guard !exists, error.diagnostics.count == 1 else { throw error }
            var diagnostic = error.diagnostics[0]
            diagnostic.hint = "pass --models DIR or run from the project's root"
            throw DiagnosticList([diagnostic])
        }
    }
}
