import ArgumentParser
import Foundation
import Strata

/// `--lock-timeout`, for the commands that write the store (`migrate` has its own, checked the same way).
struct LockOptions: ParsableArguments {
    static let defaultTimeout: Double = 60
    static let help = ArgumentHelp("Seconds to wait for another run's lock. (default: \(Int(defaultTimeout)))", valueName: "S")

    // No default in the declaration, the help says it (NamedOptionValue.swift, "Option defaults").
    @Option(name: .customLong("lock-timeout"), parsing: .unconditional, help: help)
    var lockTimeoutOption: Double?
    var lockTimeout: Double { lockTimeoutOption ?? Self.defaultTimeout }

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

    /// `--max-samples` when not given (`migrate`, `audit`, `batch`).
    static let defaultMaxSamples = 20

    static func maxSamples(_ value: Int) throws {
        guard value >= 0 else { throw ValidationError("--max-samples must be 0 or more, got '\(value)'") }
    }
}

extension GlobalOptions {
    /// Refuses, before any work (exit 2): output paths that name the store, its companion files, or a model or
    /// hook file; a new YAML file in the models or hooks directory (the next run would read it as a model or a
    /// hook); two options naming one file (the later write would replace the earlier, a backup by a report);
    /// a `--report` or `--changes-out` that is a symbolic link loop; and a `--changes-out` that is a directory or whose directory does not exist, also behind a link.
    func checkOutputs(_ outputs: [(option: String, path: String?)], storePath: String?) throws {
        let named = outputs.compactMap { output in output.path.map { (option: output.option, path: $0) } }
        guard !named.isEmpty else { return }   // no directory to list
        let protected = StorePath.files(in: models).map { (path: $0, what: "a model file") }
            + StorePath.files(in: migrations).map { (path: $0, what: "a hook file") }
        var seen: [StorePath.Identity: String] = [:]
        for (option, path) in named {
            // A report or change set is written through a link (Docs/operations.md); a loop leads to no file, and
            // writing "it" would replace a link. (`--backup` refuses any link, exit 1, in Backup.checkDestination.)
            if option != "--backup", StorePath.isLinkLoop(path) {
                throw Diagnostic.error("\(option) '\(path)' is a symbolic link loop: following it never reaches a file",
                                       hint: "fix the link or choose another \(option) path; nothing was written")
            }
            try StorePath.checkOutput(path, option: option, storePath: storePath, protectedFiles: protected)
            let location = StorePath.resolvedLocation(path)
            for (directory, what) in [(models, "models"), (migrations, "hooks")]
            where PathText.directory(of: location) == StorePath.resolvedLocation(directory) && YAMLFolder.isYAML(location) {
                throw Diagnostic.error("\(option) '\(path)' is a YAML file in the \(what) directory '\(directory)', which the next run would read as one of its \(what)",
                                       hint: "write it outside '\(directory)'")
            }
            let identity = StorePath.identity(path)
            if let earlier = seen[identity] {
                throw Diagnostic.error("\(earlier) and \(option) name the same file '\(path)'", hint: "give each output its own path")
            }
            seen[identity] = option
            // The change set is written after the commit and is an app's only record of it. (A report that
            // cannot be written is an error after the run that keeps the run's exit code, SPEC §10; a backup
            // fails before any change, exit 1.)
            guard option == "--changes-out" else { continue }
            if YAMLFolder.exists(location) {
                throw Diagnostic.error("\(option) '\(path)' is a directory", hint: "name a file; nothing was written")
            }
            let directory = PathText.directory(of: location)
            if !directory.isEmpty, !YAMLFolder.exists(directory) {
                // Named as given, unless a link leads elsewhere (`out.json -> /gone/out.json`).
                let given = PathText.directory(of: path)
                let shown = StorePath.resolvedLocation(given.isEmpty ? "." : given) == directory && !given.isEmpty ? given : directory
                throw Diagnostic.error("\(option) '\(path)': the directory '\(shown)' does not exist", hint: "create it first; nothing was written")
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
