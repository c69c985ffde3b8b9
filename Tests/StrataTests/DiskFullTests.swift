import Foundation
import GRDB
@testable import Strata
import Testing

/// Out of space (`SQLITE_FULL`) on every write path says so (issue 12 item 19): a batch or a hook's batch
/// statement gets the documented "out of space … the store is unchanged" message, not SQLite's raw text
/// and SQL, and the store's bytes are unchanged. `PRAGMA max_page_count` provokes it on one connection.
@Suite struct DiskFullTests {
    static let long = String(repeating: "x", count: 3_000)
    static let grow: [String: UpdateValue] = ["name": .literal(long)]

    static func cappedStore(rows: Int) throws -> (store: Store, before: [String?]) {
        let path = try PipelineSupport.makeStore(rows: rows)
        let before = PipelineSupport.storeHashes(path)
        let store = try Store.open(path: path)
        try store.queue.inDatabase { db in
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count")!
            _ = try Int.fetchOne(db, sql: "PRAGMA max_page_count = \(pages + 2)")
        }
        return (store, before)
    }

    static func expectOutOfSpace(_ error: PipelineError?, path: String) {
        #expect(error?.exitCode == .runtimeFailure)
        #expect(error?.description == """
            error: out of space while writing '\(path)' (database or disk is full); the step was rolled back and the store is unchanged
            hint: free disk space (a table rebuild needs room for a second copy of the table) and rerun
            """)
    }

    @Test func aBatchThatRunsOutOfSpaceSaysSo() async throws {
        let (store, before) = try Self.cappedStore(rows: 2_000)
        let request = BatchUpdateRequest(entity: "Item", predicate: nil, propertiesToUpdate: Self.grow)
        let error = await #expect(throws: PipelineError.self) { try await store.execute(request, audit: .none) }
        Self.expectOutOfSpace(error, path: store.path)
        try store.queue.close()
        #expect(PipelineSupport.storeHashes(store.path) == before)
    }

    @Test func aHookThatRunsOutOfSpaceInsideAStepSaysSo() throws {
        let v2 = PipelineSupport.yaml.replacingOccurrences(of: "version: 1", with: "version: 2")
        let history = try MigrationSupport.history(PipelineSupport.yaml, v2)
        let (store, before) = try Self.cappedStore(rows: 2_000)
        let hook = try HookLoader.load(yaml: """
            id: grow
            after: 2
            steps:
              - batchUpdate: { entity: Item, propertiesToUpdate: { name: "\(Self.long)" } }
            """, file: "migrations/grow.yaml")
        let error = #expect(throws: PipelineError.self) {
            try Migrator.migrate(store, history: history, hooks: HookSet(hooks: [hook]),
                                 hookOptions: HookRunner.Options(context: PredicateContext(now: 0), audit: .none), options: MigrationOptions())
        }
        Self.expectOutOfSpace(error, path: store.path)
        try store.queue.close()
        #expect(PipelineSupport.storeHashes(store.path) == before)
    }
}
