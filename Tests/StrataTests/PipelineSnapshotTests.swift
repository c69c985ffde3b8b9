import Foundation
import GRDB
import Testing
@testable import Strata
import StrataTestSupport

@Suite struct PipelineSnapshotTests {
    @Test func rollbackStoreIsCopiedAndLeftByteIdentical() throws {
        let path = try PipelineSupport.makeStore(rows: 2_000)
        let rows = try PipelineSupport.items(path)
        let before = PipelineSupport.storeHashes(path)
        let snapshot = try Snapshot.make(of: path)
        defer { snapshot.remove() }
        #expect(PipelineSupport.storeHashes(path) == before)
        #expect(!FileManager.default.fileExists(atPath: path + "-journal"))
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(snapshot.path != path)
        #expect(try PipelineSupport.items(snapshot.path) == rows)
        #expect(try snapshot.store.metadata().version == 1)
        try Preflight.checkIntegrity(snapshot.store, full: true)
    }

    @Test func walStoreWithUncheckpointedWALIsLeftByteIdentical() throws {
        let path = try PipelineSupport.makeStore(rows: 1_000, wal: true)
        // A live writer whose last 500 rows sit in the -wal only.
        var config = Configuration()
        config.label = "writer"
        let writer = try DatabaseQueue(path: path, configuration: config)
        try writer.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
            try PipelineSupport.insert(db, rows: 500, from: 1_001)
        }
        let rows = try writer.read(PipelineSupport.items)
        let before = PipelineSupport.storeHashes(path)
        #expect(before[1] != nil)

        let snapshot = try Snapshot.make(of: path)
        defer { snapshot.remove() }
        #expect(PipelineSupport.storeHashes(path) == before)
        // What the writer sees, its -wal included.
        #expect(try PipelineSupport.items(snapshot.path) == rows)
        // Writes to the snapshot never reach the store.
        try snapshot.store.write { try $0.execute(sql: #"DELETE FROM "Item""#) }
        #expect(PipelineSupport.storeHashes(path) == before)
        try writer.close()
    }

    @Test func closedWALStoreIsLeftByteIdentical() throws {
        let path = try PipelineSupport.makeStore(rows: 300, wal: true)
        let before = PipelineSupport.storeHashes(path)
        let snapshot = try Snapshot.make(of: path)
        snapshot.remove()
        #expect(PipelineSupport.storeHashes(path) == before)
        #expect(!FileManager.default.fileExists(atPath: snapshot.path))
    }

    @Test func snapshotIsConsistentWhileAnotherConnectionWrites() throws {
        let path = try PipelineSupport.makeStore(rows: 1_000, wal: true)
        let writer = try DatabaseQueue(path: path)
        let stop = ManagedAtomicFlag()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            var next = 1_001
            while !stop.isSet {
                // Transactions of exactly 100 rows: a consistent copy holds a multiple of 100.
                try? writer.write { try PipelineSupport.insert($0, rows: 100, from: next) }
                next += 100
            }
            done.signal()
        }
        defer { stop.set(); done.wait(); try? writer.close() }
        for _ in 0..<5 {
            let progress = ProgressCounter(label: "snapshot", total: nil, unit: "pages", sink: nil)
            let snapshot = try Snapshot.make(of: path, progress: progress)
            let count = try PipelineSupport.rowCount(snapshot.path)
            #expect(count % 100 == 0 && count >= 1_000)
            #expect(progress.current.done > 0 && progress.current.done == progress.current.total)
            try Preflight.checkIntegrity(snapshot.store)
            snapshot.remove()
        }
    }

    @Test func snapshotSeesOnlyWhatAnotherProcessCommitted() throws {
        let path = try PipelineSupport.makeStore(rows: 1_000, wal: true)
        // 100 more committed rows, then 5,000 rows of a transaction left open (spilled into the -wal, uncommitted).
        let committer = try DatabaseQueue(path: path)
        try committer.write { try PipelineSupport.insert($0, rows: 100, from: 1_001) }
        try committer.close()
        let committed = try PipelineSupport.items(path)
        let writer = try SQLiteShell.midTransaction(path, """
            WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 5000) \
            INSERT INTO "Item" ("name", "n") SELECT hex(randomblob(40)), i FROM s
            """)
        defer { writer.kill() }
        #expect(HotJournal.fileSize(path + "-wal") > 100_000)

        let snapshot = try Snapshot.make(of: path)
        defer { snapshot.remove() }
        #expect(try PipelineSupport.items(snapshot.path) == committed)
        try Preflight.checkIntegrity(snapshot.store, full: true)
    }

    @Test func hotJournalIsRefusedBeforeOpeningAndLeftAlone() throws {
        let path = try PipelineSupport.storeWithHotJournal()
        #expect(HotJournal.isHot(storePath: path))
        let before = [PipelineSupport.hash(path), PipelineSupport.hash(path + "-journal")]
        let error = #expect(throws: StoreError.self) { try Snapshot.make(of: path) }
        #expect(error?.pipelineExit == .runtimeFailure)
        #expect(error?.pipelineMessage.contains("has a hot rollback journal (a writer died mid-transaction)") == true)
        #expect([PipelineSupport.hash(path), PipelineSupport.hash(path + "-journal")] == before)

        // A real run (any read-write open) rolls it back; then the dry run works on the original rows.
        let recovered = try Store.open(path: path)
        try Preflight.checkIntegrity(recovered, full: true)
        try recovered.queue.close()
        #expect(!HotJournal.isHot(storePath: path))
        let snapshot = try Snapshot.make(of: path)
        defer { snapshot.remove() }
        let changed = try snapshot.store.queue.read {
            try Int.fetchOne($0, sql: #"SELECT count(*) FROM "Item" WHERE "name" LIKE '%-changed'"#)
        }
        #expect(changed == 0)
    }

    @Test func liveWritersJournalIsNotHot() throws {
        let path = try PipelineSupport.makeStore(rows: 5_000)
        let writer = try PipelineSupport.writerMidTransaction(path)
        defer { writer.kill() }
        #expect(HotJournal.fileSize(path + "-journal") > 0)
        #expect(!HotJournal.isHot(storePath: path))
    }

    @Test func notSQLiteIsExit2() throws {
        let path = TestStore.directory() + "/notes.sqlite"
        try Data("just some text, definitely not a database file".utf8).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: StoreError.self) { try Snapshot.make(of: path) }
        #expect(error?.pipelineExit == .invalidInput)
        #expect(error?.pipelineMessage.contains("is not an SQLite database") == true)
    }

    @Test func missingStoreIsExit2() throws {
        let error = #expect(throws: StoreError.self) { try Snapshot.make(of: TestStore.directory() + "/none.sqlite") }
        #expect(error?.pipelineExit == .invalidInput)
    }
}

/// A flag shared with a background thread.
final class ManagedAtomicFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
    func set() { lock.lock(); value = true; lock.unlock() }
}
