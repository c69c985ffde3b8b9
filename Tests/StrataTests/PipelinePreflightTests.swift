import Foundation
import GRDB
import Testing
@testable import Strata

@Suite struct PipelinePreflightTests {
    @Test func missingDirectoryAndStoreAreExit2() throws {
        let noDir = #expect(throws: StoreError.self) {
            try Preflight.checkFile(atPath: "/nonexistent-strata-dir/app.sqlite", forWriting: true)
        }
        #expect(noDir?.pipelineExit == .invalidInput)
        #expect(noDir?.pipelineMessage.contains("the directory of '/nonexistent-strata-dir/app.sqlite' does not exist") == true)

        let path = TestStore.directory() + "/app.sqlite"
        let noFile = #expect(throws: StoreError.self) { try Preflight.checkFile(atPath: path, forWriting: true) }
        #expect(noFile?.pipelineExit == .invalidInput)
        // The library's words, not the command line's (no `--create`): CommandLineHints adds the flag.
        #expect(noFile?.pipelineMessage == """
            error: no store at '\(path)'
            hint: check the path, or create the store (Store.open(at:models:) creates a missing one)
            """)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test(arguments: ["plain text, not a database at all", "SQLite format 2\u{0}and more bytes here"])
    func notSQLiteIsExit2(content: String) throws {
        let path = TestStore.directory() + "/app.sqlite"
        try Data(content.utf8).write(to: URL(fileURLWithPath: path))
        for forWriting in [true, false] {
            let error = #expect(throws: StoreError.self) { try Preflight.checkFile(atPath: path, forWriting: forWriting) }
            #expect(error?.pipelineExit == .invalidInput)
            #expect(error?.pipelineMessage.contains("is not an SQLite database") == true)
        }
        #expect(FileManager.default.contents(atPath: path) == Data(content.utf8))
    }

    @Test func readOnlyFileOrDirectoryIsExit1ForARealRunOnly() throws {
        let path = try PipelineSupport.makeStore(rows: 10)
        try Preflight.checkFile(atPath: path, forWriting: true)

        chmod(path, 0o444)
        let file = #expect(throws: StoreError.self) { try Preflight.checkFile(atPath: path, forWriting: true) }
        #expect(file?.pipelineExit == .runtimeFailure)
        #expect(file?.pipelineMessage == """
            error: the store '\(path)' is read-only
            hint: check the permissions of the file and its directory
            """)
        try Preflight.checkFile(atPath: path, forWriting: false) // a dry run only reads
        chmod(path, 0o644)

        let directory = (path as NSString).deletingLastPathComponent
        chmod(directory, 0o555)
        defer { chmod(directory, 0o755) }
        let dir = #expect(throws: StoreError.self) { try Preflight.checkFile(atPath: path, forWriting: true) }
        #expect(dir?.pipelineExit == .runtimeFailure)
    }

    @Test func hotJournalIsRefusedForADryRunOnly() throws {
        let path = try PipelineSupport.storeWithHotJournal()
        let error = #expect(throws: StoreError.self) { try Preflight.checkFile(atPath: path, forWriting: false) }
        #expect(error?.pipelineExit == .runtimeFailure)
        #expect(error?.pipelineMessage.contains("run `strata status` or `strata migrate` (a real run) once to recover it") == true)
        try Preflight.checkFile(atPath: path, forWriting: true) // a real run recovers it by opening the store
    }

    @Test func corruptDatabaseIsRefusedWithExit1AndNotChanged() throws {
        let path = try PipelineSupport.makeStore(rows: 3_000)
        // Scribble over the b-tree header of the last pages (the Item table's leaves).
        let size = HotJournal.fileSize(path)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        for page in [size / 4096 - 1, size / 4096 - 3] {
            try handle.seek(toOffset: UInt64(page * 4096))
            handle.write(Data(repeating: 0x7f, count: 64))
        }
        try handle.close()
        let before = PipelineSupport.storeHashes(path)

        try Preflight.checkFile(atPath: path, forWriting: true) // the header is fine
        let store = try Store.open(path: path)
        let error = #expect(throws: StoreError.self) { try Preflight.checkIntegrity(store) }
        #expect(error?.pipelineExit == .runtimeFailure)
        let message = error?.pipelineMessage ?? ""
        #expect(message.hasPrefix("error: the store '\(path)' is corrupt: "))
        #expect(message.hasSuffix("hint: restore it from a backup; Strata will not migrate a corrupt store"))
        #expect(throws: StoreError.self) { try Preflight.checkIntegrity(store, full: true) }
        try store.queue.close()
        #expect(PipelineSupport.storeHashes(path) == before)
    }

    @Test func healthyStorePassesIntegrity() throws {
        let store = try Store.open(path: try PipelineSupport.makeStore(rows: 100))
        try Preflight.checkIntegrity(store)
        try Preflight.checkIntegrity(store, full: true)
    }

    @Test func storeNewerThanTheNewestModelIsExit6() throws {
        let model = try ModelLoader.load(yaml: PipelineSupport.yaml, file: "1.yaml")
        let history = ModelHistory(models: [model])
        let store = try Store.open(path: try PipelineSupport.makeStore(rows: 1))
        var metadata = try store.metadata()
        try Preflight.checkVersion(metadata, history: history, path: store.path)
        metadata.version = 5
        let error = #expect(throws: PipelineError.self) { try Preflight.checkVersion(metadata, history: history, path: store.path) }
        #expect(error?.pipelineExit == .drift)
        #expect(error?.pipelineMessage == """
            error: the store '\(store.path)' is at version 5, newer than the newest model (1): it was written by a later app version
            hint: deploy the model files of version 5 (or later); Strata never migrates a store backwards
            """)
    }

    @Test func diskFullDuringARebuildIsExit1AndLeavesTheStoreUnchanged() throws {
        let path = try PipelineSupport.makeStore(rows: 20_000)
        let before = PipelineSupport.storeHashes(path)
        let store = try Store.open(path: path)
        // Room for 80 more pages: a rebuild-sized write (a second copy of the table) cannot fit.
        try store.queue.inDatabase { db in
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count")!
            _ = try Int.fetchOne(db, sql: "PRAGMA max_page_count = \(pages + 80)")
        }
        let progress = ProgressCounter(label: "copying Item", total: 20_000, sink: nil)
        let error = #expect(throws: PipelineError.self) {
            try store.write { db in
                try db.execute(sql: #"CREATE TABLE "_strata_new_Item" ("_pk" INTEGER PRIMARY KEY AUTOINCREMENT, "name" TEXT, "n" INTEGER)"#)
                // One INSERT … SELECT, as a rebuild copies (progress: SQLite's estimate of the rows read).
                try db.reportingEstimatedProgress(progress) {
                    try db.execute(sql: #"INSERT INTO "_strata_new_Item" ("_pk", "name", "n") SELECT "_pk", "name", "n" FROM "Item""#)
                }
            }
        }
        #expect(error?.pipelineExit == .runtimeFailure)
        #expect(error?.pipelineMessage == """
            error: out of space while writing '\(path)' (database or disk is full); the step was rolled back and the store is unchanged
            hint: free disk space (a table rebuild needs room for a second copy of the table) and rerun
            """)
        #expect(progress.current.done > 0 && progress.current.done < 20_000)
        let tables = try store.queue.read { try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE name LIKE '_strata_new%'") }
        #expect(tables.isEmpty)
        try Preflight.checkIntegrity(store, full: true)
        try store.queue.close()
        #expect(try PipelineSupport.rowCount(path) == 20_000)
        #expect(PipelineSupport.storeHashes(path) == before)
    }
}
