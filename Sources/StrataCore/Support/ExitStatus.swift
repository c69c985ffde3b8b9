/// The process exit codes of SPEC §8, shared by the library's errors and the CLI.
public enum ExitStatus: Int32, Sendable, Codable, CaseIterable {
    case success = 0
    /// I/O, SQLite, disk full.
    case runtimeFailure = 1
    /// Arguments, YAML, predicates, a file that is not SQLite.
    case invalidInput = 2
    case validationViolations = 3
    case notInferable = 4
    /// Lock timeout.
    case storeBusy = 5
    case drift = 6
    /// `status --check` only.
    case pendingWork = 7
}
