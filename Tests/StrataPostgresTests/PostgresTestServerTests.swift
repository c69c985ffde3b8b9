import Foundation
import StrataTestSupport
import Testing

@Suite struct PostgresTestServerTests {
    /// CI sets `STRATA_REQUIRE_POSTGRES=1`: there, a server that cannot start is a failure, not a skip.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["STRATA_REQUIRE_POSTGRES"] == "1"))
    func theServerStartsWhereItIsRequired() {
        #expect(PostgresTestServer.isAvailable, "\(PostgresTestServer.unavailableReason)")
    }

    @Test(.enabled(if: PostgresTestServer.isAvailable))
    func theServerAnswers() throws {
        #expect(try PostgresTestServer.psql("SELECT current_setting('server_version_num')::int >= 130000") == "t")
    }
}
