import StrataCore
@testable import StrataPostgres
import Testing

/// The messages and exit codes of a lock wait past `--ddl-lock-timeout` and of missing privileges.
@Suite struct PostgresOperationErrorsTests {
    @Test func aLockTimeoutBecomesALockWaitWithExit5() throws {
        let server = PostgresStoreError.server(message: "canceling statement due to lock timeout", sqlState: "55P03",
                                               statement: #"ALTER TABLE "Recipe" ADD COLUMN "notes" text"#)
        let error = try #require(PostgresLockWaitError.lockWait(server, seconds: 5) as? PostgresLockWaitError)
        #expect(error.exitCode == .storeBusy)
        #expect(error.description == """
            error: waited more than 5 s (lock_timeout) for a lock that another session holds; the transaction was \
            rolled back (PostgreSQL: canceling statement due to lock timeout)
              in: ALTER TABLE "Recipe" ADD COLUMN "notes" text
            """)
        // Library terms (SPEC §13): no command-line flag; the command line names its own.
        #expect(error.diagnostics.map(\.hint) == ["find the holder in pg_locks / pg_stat_activity; retry when it has finished, or raise ddlLockTimeout"])
        #expect(error.diagnostic(limit: "--ddl-lock-timeout", setting: "--ddl-lock-timeout").message.hasPrefix("waited more than 5 s (--ddl-lock-timeout) for a lock"))
        #expect((PostgresLockWaitError.lockWait(server, seconds: 0.25) as? PostgresLockWaitError)?.description
            .hasPrefix("error: waited more than 0.25 s") == true)
    }

    /// SPEC §13: errors the library throws speak in its terms; `strata` replaces the hints with its flags
    /// (PostgresCLITests, PostgresLockCLITests check the command line's).
    @Test func theLibrarysErrorsNameNoCommandLineFlag() {
        #expect(PostgresStoreError.missingStore(store: "postgres://app@db:5432/shop?schema=s").diagnostics.map(\.hint)
            == ["check the URL and schema, or create the store (PostgresStore.open(_:models:hooks:options:) creates a missing one)"])
        #expect(PostgresStoreError.busy(store: "postgres://app@db:5432/shop?schema=s", holder: nil).diagnostics.map(\.hint)
            == ["wait for it to finish, or raise the lock timeout"])
        let wait = PostgresLockWaitError(seconds: 0.5, statement: nil, message: "canceling statement due to lock timeout")
        #expect(wait.diagnostics.map(\.message) == ["waited more than 0.5 s (lock_timeout) for a lock that another session holds; "
                                                    + "the transaction was rolled back (PostgreSQL: canceling statement due to lock timeout)"])
        #expect(wait.diagnostics.map(\.hint) == ["find the holder in pg_locks / pg_stat_activity; retry when it has finished, or raise ddlLockTimeout"])
    }

    @Test func otherErrorsPassUnchanged() {
        let other = PostgresStoreError.server(message: "syntax error", sqlState: "42601", statement: nil)
        #expect(PostgresLockWaitError.lockWait(other, seconds: 5) as? PostgresStoreError == other)
        #expect(PostgresLockWaitError.lockWait(PostgresStoreError.busy(store: "s", holder: nil), seconds: 5) as? PostgresStoreError
            == .busy(store: "s", holder: nil))
    }

    @Test func missingPrivilegesAreNamedWithTheirGrants() {
        let error = PostgresPrivilegeError(store: "postgres://app@db:5432/prod?schema=shop", role: "app", missing: [
            .schema(privilege: "CREATE", schema: "shop"),
            .tableOwnership(table: "Recipe", owner: "deploy"),
            .tableOwnership(table: "strata_metadata", owner: "deploy"),
        ])
        #expect(error.exitCode == .runtimeFailure)
        #expect(error.diagnostics.map(\.headline) == ["""
            error: role "app" lacks CREATE on schema "shop", ownership of table "Recipe" (owned by deploy), ownership of table \
            "strata_metadata" (owned by deploy) in postgres://app@db:5432/prod?schema=shop; nothing was written
            """])
        #expect(error.diagnostics.first?.hint
                == #"GRANT CREATE ON SCHEMA "shop" TO "app"; GRANT "deploy" TO "app", or ALTER TABLE … OWNER TO "app""#)
        let database = PostgresPrivilegeError(store: "s", role: "app", missing: [.databaseCreate(database: "prod")])
        #expect(database.diagnostics.first?.hint == #"GRANT CREATE ON DATABASE "prod" TO "app", or create the schema first"#)
    }
}
