import Foundation

/// Errors about a fleet's list of stores and its options (exit 2), found before any store starts.
public enum FleetError: StrataError, Sendable {
    /// The glob or list names no store (`source` is the option as given: `--stores 'tenants/*.db'`).
    case noStores(source: String)
    /// `--stores-from FILE` cannot be read.
    case unreadableList(path: String, detail: String)
    /// A line of `--stores-from` that is not a path.
    case badLine(SourceLocation, String)
    /// A file (or folder) the glob matches whose name is not UTF-8 text (`path` with its bytes escaped, `\xE9`).
    case notUTF8Name(source: String, path: String)
    /// `--backup-dir` is missing, not a directory or not writable.
    case backupDirectory(path: String, detail: String)
    /// Two stores would get the same backup file (`--backup-dir`).
    case backupCollision(path: String, first: String, second: String)

    public var exitCode: ExitStatus { .invalidInput }

    public var diagnostics: [Diagnostic] {
        switch self {
        case .noStores(let source):
            return [.error("\(source) names no store",
                           hint: "check the pattern or the list (quote a glob so the shell leaves it to strata); "
                               + "-wal, -shm, -journal, -strata.lock and Strata's temporary files never count")]
        case let .notUTF8Name(source, path):
            return [.error("\(source) matches '\(path)', whose name is not UTF-8 text",
                           hint: "rename it to a UTF-8 name (Strata names every store as UTF-8 text in its messages, reports and JSON)")]
        case let .unreadableList(path, detail):
            return [.error("cannot read --stores-from '\(path)': \(detail)", hint: "give a file with one store path a line, or - for standard input")]
        case let .badLine(location, detail):
            return [.error("this line is not a store path: \(detail)", at: location, hint: "one store path a line; # starts a comment line")]
        case let .backupDirectory(path, detail):
            return [.error("--backup-dir '\(path)': \(detail)", hint: "create the directory first; each store's backup is written into it")]
        case let .backupCollision(path, first, second):
            return [.error("--backup-dir: the stores '\(first)' and '\(second)' would both be backed up to '\(path)'",
                           hint: "list each store under one spelling")]
        }
    }

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
