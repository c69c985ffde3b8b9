import Foundation
import GRDB
import Testing
@testable import Strata

@Suite struct PipelineBackupTests {
    @Test func backupIsAConsistentCopyIncludingTheWAL() throws {
        let path = try PipelineSupport.makeStore(rows: 1_000, wal: true)
        let store = try Store.open(path: path)
        try store.queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
            try PipelineSupport.insert(db, rows: 234, from: 1_001)
        }
        let rows = try store.queue.read(PipelineSupport.items)
        let target = TestStore.directory() + "/backup.sqlite"
        let progress = ProgressCounter(label: "backup", total: nil, unit: "pages", sink: nil)
        let result = try Backup.write(from: store, to: target, progress: progress)
        #expect(result.path == target)
        #expect(result.bytes == HotJournal.fileSize(target) && result.bytes > 0)
        #expect(progress.current.done == progress.current.total)
        #expect(try PipelineSupport.items(target) == rows)
        let copy = try Store.open(path: target)
        try Preflight.checkIntegrity(copy, full: true)
        #expect(try copy.metadata() == store.metadata())
        // No temporary file is left next to the backup.
        let directory = (target as NSString).deletingLastPathComponent
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.contains("strata-tmp") }.isEmpty)
    }

    @Test func existingBackupIsNotOverwrittenWithoutForce() throws {
        let store = try Store.open(path: try PipelineSupport.makeStore(rows: 10))
        let target = TestStore.directory() + "/backup.sqlite"
        try Data("precious".utf8).write(to: URL(fileURLWithPath: target))
        let error = #expect(throws: PipelineError.self) { try Backup.write(from: store, to: target) }
        #expect(error?.pipelineExit == .invalidInput)
        #expect(error?.pipelineMessage == """
            error: the backup file '\(target)' already exists
            hint: choose another backup path, remove the file, or allow overwriting it (forceBackup)
            """)
        #expect(FileManager.default.contents(atPath: target) == Data("precious".utf8))

        try Backup.write(from: store, to: target, force: true)
        #expect(try PipelineSupport.items(target) == store.queue.read(PipelineSupport.items))
    }

    @Test func destinationChecksSayWhatToDo() throws {
        let path = try PipelineSupport.makeStore(rows: 1)
        let missing = #expect(throws: PipelineError.self) {
            try Backup.checkDestination("/nonexistent-strata-dir/b.sqlite", force: false, storePath: path)
        }
        #expect(missing?.pipelineExit == .runtimeFailure)
        #expect(missing?.pipelineMessage.contains("the directory '/nonexistent-strata-dir' does not exist; the store was not changed") == true)

        // The store, its journals and its lock file are refused as input errors (exit 2), even with force.
        for (target, what) in [(path, "the store"), (path + "-journal", "the store's -journal file"),
                               (path + "-strata.lock", "the store's lock file")] {
            let itself = #expect(throws: StorePathError.self) { try Backup.checkDestination(target, force: true, storePath: path) }
            #expect(itself?.exitCode == .invalidInput)
            #expect(itself?.description == "error: --backup '\(target)' is \(what); Strata never writes over it\nhint: choose another --backup path")
        }

        let directory = TestStore.directory()
        chmod(directory, 0o555)
        defer { chmod(directory, 0o755) }
        let readOnly = #expect(throws: PipelineError.self) {
            try Backup.checkDestination(directory + "/b.sqlite", force: false, storePath: path)
        }
        #expect(readOnly?.pipelineMessage.contains("is not writable") == true)
    }

    @Test func storeIsUnchangedByABackup() throws {
        let path = try PipelineSupport.makeStore(rows: 500)
        let before = PipelineSupport.storeHashes(path)
        let store = try Store.open(path: path)
        try Backup.write(from: store, to: TestStore.directory() + "/b.sqlite")
        try store.queue.close()
        #expect(PipelineSupport.storeHashes(path) == before)
    }
}
