import Foundation
import Strata

/// The command line's hints for library errors: the library's hints name its API (`Store.open(at:models:)`),
/// the command line's name its flags and commands (`--create`, `--store`, `strata adopt`).
enum CommandLineHints {
    /// `error`'s diagnostics, the first one's hint worded for the command line when the library's is not.
    static func diagnostics(for error: StrataError) -> [Diagnostic] {
        if let run = error as? MigrationRunError { return diagnostics(for: run.underlying) }
        var diagnostics = error.diagnostics
        if let hint = hint(for: error), !diagnostics.isEmpty { diagnostics[0].hint = hint }
        return diagnostics
    }

    static func hint(for error: StrataError) -> String? {
        switch error {
        case StoreError.missing: return "check the path, or pass --create to create a new store there"
        case StoreError.notADatabase, StorePathError.notARegularFile: return "check --store (or STRATA_STORE)"
        case StoreError.notAdopted: return "baseline it with `strata adopt --version N` first"
        default: return nil
        }
    }

    /// `ModelHistory.load(directory:)`, a missing directory hinted with `--models`.
    static func loadModels(directory: String) throws(DiagnosticList) -> ModelHistory {
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
