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
            error: waited more than 5 s (--ddl-lock-timeout) for a lock that another session holds; the transaction was \
            rolled back (PostgreSQL: canceling statement due to lock timeout)
              in: ALTER TABLE "Recipe" ADD COLUMN "notes" text
            """)
        #expect((PostgresLockWaitError.lockWait(server, seconds: 0.25) as? PostgresLockWaitError)?.description
            .hasPrefix("error: waited more than 0.25 s") == true)
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
