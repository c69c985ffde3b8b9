import ArgumentParser
import Foundation
import Strata

/// `--lock-timeout`, for the commands that write the store (`migrate` has its own, checked the same way).
struct LockOptions: ParsableArguments {
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Seconds to wait for another run's lock.", valueName: "S"))
    var lockTimeout: Double = 60

    func validate() throws { try OptionCheck.lockTimeout(lockTimeout) }
}

/// Range checks of numeric options, at parse time (exit 2), so that no number reaches the library out of range.
enum OptionCheck {
    /// The largest `--lock-timeout`: about 11 days (SQLite's busy timeout is milliseconds in an Int32).
    static let maxLockTimeout: Double = 1_000_000

    static func lockTimeout(_ value: Double) throws {
        guard value.isFinite, value >= 0, value <= maxLockTimeout else {
            throw ValidationError("--lock-timeout must be a number of seconds from 0 to \(Int(maxLockTimeout)), got '\(value)'")
        }
    }

    static func maxSamples(_ value: Int) throws {
        guard value >= 0 else { throw ValidationError("--max-samples must be 0 or more, got '\(value)'") }
    }
}

extension GlobalOptions {
    /// Refuses output paths that name the store, its companion files, or a model or hook file (exit 2),
    /// before any work.
    func checkOutputs(_ outputs: [(option: String, path: String?)], storePath: String?) throws {
        guard outputs.contains(where: { $0.path != nil }) else { return }   // no directory to list
        let protected = StorePath.files(in: models).map { (path: $0, what: "a model file") }
            + StorePath.files(in: migrations).map { (path: $0, what: "a hook file") }
        for case let (option, path?) in outputs {
            try StorePath.checkOutput(path, option: option, storePath: storePath, protectedFiles: protected)
            // The change set is written after the commit and is an app's only record of it: a directory
            // that is not there is found before anything is written.
            guard option == "--changes-out" else { continue }
            var isDirectory: ObjCBool = false
            let directory = PathText.directory(of: path)
            if !directory.isEmpty, !(FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) && isDirectory.boolValue) {
                throw Diagnostic.error("--changes-out '\(path)': the directory '\(directory)' does not exist",
                                       hint: "create it first; nothing was written")
            }
        }
    }

    /// Opens the store for writing under its lock, printing a note while waiting.
    func openLocked(lockTimeout: Double, output: Output) throws -> (store: Store, lock: StoreLock) {
        let path = try storePath()
        return try Store.openLocked(path: path, lockTimeout: lockTimeout, onWait: Self.lockWaitNote(path, output))
    }

    /// The note printed once when a run finds the store's lock taken: `waiting for the lock on app.sqlite (held by pid 12 on host)…`.
    static func lockWaitNote(_ path: String, _ output: Output) -> @Sendable (LockHolder?) -> Void {
        { holder in output.note("waiting for the lock on \(path)" + (holder.map { " (held by \($0))" } ?? "") + "…") }
    }
}
