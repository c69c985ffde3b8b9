import Strata

extension MigrateCommand {
    /// `migrate --backup PATH` on a PostgreSQL store: exit 2 before connecting (Docs/postgresql.md, "Backups").
    /// On SQLite a step rebuilds tables in the file, so a copy is the way back; on PostgreSQL every step, its
    /// hooks and its metadata commit in one transaction (DDL included), so a step that fails leaves the schema
    /// at the version before it. A copy of a database is the server's business (`pg_dump`, base backups,
    /// point-in-time recovery), which Strata does not drive: its credentials, version and output are the operator's.
    static let postgresBackupRefused = Diagnostic.error(
        "migrate --backup is not available on a PostgreSQL store: each step commits in one transaction with its hooks, "
            + "so a step that fails leaves the schema at the version before it; nothing was written",
        hint: "for a copy before migrating, run pg_dump --schema=NAME first (see \"Backups\" in Docs/postgresql.md), then migrate without --backup")
}
