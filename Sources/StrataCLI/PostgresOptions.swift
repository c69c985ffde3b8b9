import ArgumentParser

/// Options of `migrate`, `batch`, `audit`, `meta set`, `repair` and `adopt` that only a PostgreSQL store uses
/// (SPEC §14.2). An SQLite store accepts and ignores them, so one deploy command serves both engines.
struct PostgresOptions: ParsableArguments {
    // No default in the declaration, the help says it (NamedOptionValue.swift, "Option defaults").
    @Option(name: .customLong("ddl-lock-timeout"), parsing: .unconditional,
            help: ArgumentHelp("PostgreSQL: seconds each statement may wait for a lock another session holds before its transaction rolls back (exit 5). (default: 5)",
                               valueName: "SECONDS"))
    var ddlLockTimeoutOption: Double?
    var ddlLockTimeout: Double { ddlLockTimeoutOption ?? 5 }

    func validate() throws { try OptionCheck.ddlLockTimeout(ddlLockTimeout) }
}

extension OptionCheck {
    /// `--ddl-lock-timeout`: from 1 ms (PostgreSQL's `lock_timeout` 0 would mean "wait forever") to `maxLockTimeout`.
    static func ddlLockTimeout(_ value: Double) throws {
        guard value.isFinite, value >= 0.001, value <= maxLockTimeout else {
            throw ValidationError("--ddl-lock-timeout must be a number of seconds from 0.001 to \(Int(maxLockTimeout)), got '\(value)'")
        }
    }
}
