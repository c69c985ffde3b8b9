import Foundation
import GRDB
import Synchronization
import Testing
@testable import Strata
import StrataTestSupport

/// A batch request runs with a page cache of at least 8 MiB, then the connection gets its own setting back
/// (`Database.withBatchPageCache`: fewer spills of changed pages, each behind a journal sync).
@Suite struct BatchPageCacheTests {
    static func cacheSize(_ db: Database) throws -> Int? { try Int.fetchOne(db, sql: "PRAGMA cache_size") }

    /// SQLite's default (-2000 KiB) and a smaller cache in pages are raised for the body and put back after it;
    /// a larger cache, in either unit, is left as it is.
    @Test(arguments: [(-2_000, -8_192), (1_000, -8_192), (-20_000, -20_000), (4_000, 4_000), (-8_192, -8_192)])
    func theCacheIsRaisedForTheBodyOnly(_ setting: Int, _ during: Int) throws {
        let queue = try DatabaseQueue(path: Temporary.directory("page-cache") + "/db.sqlite")
        let seen: Int? = try queue.inDatabase { db in
            try db.execute(sql: "PRAGMA cache_size = \(setting)")   // 4,000 pages of 4 KiB: 16,000 KiB
            return try db.withBatchPageCache { try Self.cacheSize(db) }
        }
        #expect(seen == during)
        #expect(try queue.inDatabase { try Self.cacheSize($0) } == setting)
    }

    /// The setting comes back also when the body throws.
    @Test func theSettingComesBackWhenTheBodyThrows() throws {
        let queue = try DatabaseQueue(path: Temporary.directory("page-cache") + "/db.sqlite")
        struct Failed: Error {}
        #expect(throws: Failed.self) { try queue.inDatabase { db in try db.withBatchPageCache { throw Failed() } } }
        #expect(try queue.inDatabase { try Self.cacheSize($0) } == -2_000)
    }

    /// `Store.execute` raises it around its transaction, and gives the store's connection its setting back.
    @Test func aBatchRequestRunsInsideTheRaisedCache() async throws {
        let fixture = try PredicateFixture.make()
        let statements = Mutex<[String]>([])
        try fixture.store.queue.inDatabase { db in
            db.trace { event in
                let sql = "\(event)"
                if sql.hasPrefix("PRAGMA cache_size") || sql.hasPrefix("BEGIN") || sql.hasPrefix("COMMIT") {
                    statements.withLock { $0.append(sql) }
                }
            }
        }
        let request = BatchUpdateRequest(entity: "Recipe", predicate: "rating >= 4", propertiesToUpdate: ["rating": .literal("4")])
        let result = try await fixture.store.execute(request, context: PredicateContext(now: PredicateFixture.now), model: fixture.model)
        #expect(result.count == 3)
        let traced = statements.withLock { $0 }
        #expect(traced == ["PRAGMA cache_size", "PRAGMA cache_size = -8192", "BEGIN IMMEDIATE TRANSACTION",
                                               "COMMIT TRANSACTION", "PRAGMA cache_size = -2000"])
        let after = try await fixture.store.queue.read { try Self.cacheSize($0) }
        #expect(after == -2_000)
    }
}
