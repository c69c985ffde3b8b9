import Foundation
import Strata
import StrataCore
@testable import StrataPostgres
import StrataTestSupport
import Testing

/// `MATCHES` character classes and `[c]` cover Unicode on PostgreSQL as on SQLite (ICU), whatever the
/// database's ctype: the test server's is `C`, where `\w` and `~*` know ASCII only (`Émile` was no `\w+`).
/// The same requests on both engines (`PostgresLibraryTests.withStores`: items named Émile, apple, Zebra,
/// nil and special).
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresRegexClassTests {
    @Test(arguments: [
        (#"name MATCHES "\\w+""#, [1, 2, 3, 5] as [Int64]),
        (#"name MATCHES "[[:alpha:]]+""#, [1, 2, 3, 5]),
        (#"name MATCHES[c] "émile""#, [1]),
        (#"name MATCHES[c] "[A-Z]+""#, [2, 3, 5]),
        (#"name MATCHES "[A-Z].*""#, [3]),
    ])
    func aPatternMatchesWhatSQLiteMatches(predicate: String, expected: [Int64]) async throws {
        try await PostgresLibraryTests.withStores { sqlite, postgres in
            var request = BatchUpdateRequest(entity: "Item", predicate: predicate, propertiesToUpdate: ["tag": .literal("hit")])
            request.resultType = .updatedObjectIDs
            let context = PredicateContext(now: 1_716_249_600)
            let onSQLite = try await sqlite.execute(request, context: context)
            let onPostgres = try await postgres.execute(request, context: context)
            #expect((onSQLite.objectIDs ?? []).map(\.primaryKey).sorted() == expected)
            #expect((onPostgres.objectIDs ?? []).map(\.primaryKey).sorted() == expected)
        }
    }
}
