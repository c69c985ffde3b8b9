import Foundation
import GRDB
@testable import Strata
import Testing

/// One store whatever the path (SPEC §9, issue 12 items 1, 2, 3, 7): steps and hooks re-check the store
/// inside their transaction, the lock is keyed on the resolved file and never followed, outputs are
/// compared by identity, and a new store appears at its path only complete.
@Suite struct StoreIdentityTests {
    static let v1 = """
        version: 1
        entities:
          Item:
            attributes:
              n: { type: int64 }
        """
    static let v2 = """
        version: 2
        entities:
          Item:
            attributes:
              n: { type: int64 }
              m: { type: int64 }
        """
    static let bump = """
        id: bump
        after: 2
        steps:
          - batchUpdate: { entity: Item, propertiesToUpdate: { n: { expression: "n + 1" } } }
        """

    /// Two connections through two hard links: B planned v1 → v2 before A applied it; B's step must find
    /// the store at v2 inside its BEGIN IMMEDIATE and do nothing (before: "duplicate column name: m").
    @Test func aStepAnotherRunAppliedIsSkippedInsideItsTransaction() throws {
        let history = try MigrationSupport.history(Self.v1, Self.v2)
        let a = try MigrationSupport.store(history, at: 1, fill: #"INSERT INTO "Item" ("n") VALUES (1), (2)"#)
        let linked = a.path + "-link.sqlite"
        #expect(link(a.path, linked) == 0)
        let b = try Store.open(path: linked)
        let (planned, steps) = try Migrator.plan(b, history: history, to: 2)
        #expect(steps.count == 1)

        try Migrator.migrate(a, history: history)
        var report = MigrationRunReport(store: b.path, dryRun: false, targetVersion: 2, now: 0)
        let result = try Migrator.run(steps, on: b, from: planned, history: history, hooks: HookSet(hooks: []),
                                      hookOptions: HookRunner.Options(context: PredicateContext(now: 0)), options: MigrationOptions(),
                                      report: &report)
        #expect(result.steps.map(\.skipped) == [true])
        #expect(result.toVersion == 2)
        #expect(report.steps.isEmpty)
        #expect(try MigrationSupport.dump(b, #"SELECT "kind", "fromVersion", "toVersion" FROM "strata_history" ORDER BY "id""#)
                == ["create|NULL|1", "migrate|1|2"])
        #expect(try MigrationSupport.columns(b, "Item").filter { $0 == "m" }.count == 1)
    }

    /// The hook's marker is read inside the transaction: a hook recorded meanwhile is not applied again.
    @Test func aHookAnotherRunAppliedIsNotAppliedAgain() throws {
        let history = try MigrationSupport.history(Self.v1, Self.v2)
        let store = try MigrationSupport.store(history, at: 1, fill: #"INSERT INTO "Item" ("n") VALUES (1), (2)"#)
        let hook = try HookLoader.load(yaml: Self.bump, file: "migrations/bump.yaml")
        let report = try MigrationRun.run(storePath: store.path, models: history, hooks: HookSet(hooks: [hook]),
                                          options: MigrationRun.Options(now: 0))
        #expect(report.hooks.map(\.id) == ["bump"])
        #expect(try MigrationSupport.dump(store, #"SELECT "n" FROM "Item" ORDER BY "_pk""#) == ["2", "3"])

        let metadata = try store.metadata()
        let again = try store.queue.inDatabase { db in
            try HookRunner.run(hook, in: db, model: history.model(version: 2)!, layout: metadata.layout, storeUUID: metadata.storeUUID,
                               options: HookRunner.Options(context: PredicateContext(now: 0)))
        }
        #expect(again == nil)
        #expect(try MigrationSupport.dump(store, #"SELECT "n" FROM "Item" ORDER BY "_pk""#) == ["2", "3"])
    }

    @Test func aSymlinkedStoreHasTheLockOfItsTarget() throws {
        let dir = TestStore.directory()
        let store = dir + "/app.sqlite"
        _ = FileManager.default.createFile(atPath: store, contents: nil)
        #expect(symlink("app.sqlite", dir + "/link.sqlite") == 0)
        #expect(StoreLock.lockPath(forStore: store) == store + "-strata.lock")
        #expect(StoreLock.lockPath(forStore: dir + "/link.sqlite") == StorePath.resolvedLocation(store) + "-strata.lock")

        let held = try StoreLock.acquire(storePath: store, timeout: 0)
        defer { held.release() }
        let error = #expect(throws: PipelineError.self) { try StoreLock.acquire(storePath: dir + "/link.sqlite", timeout: 0.1) }
        #expect(error?.exitCode == .storeBusy)
    }

    /// `ln -s victim app.sqlite-strata.lock` (or a hard link, or some other file): never followed, written or truncated.
    @Test(arguments: ["symlink", "hardlink", "foreign", "directory", "fifo"])
    func anUnsafeLockFileIsRefusedAndLeftAlone(kind: String) throws {
        let dir = TestStore.directory()
        let store = dir + "/app.sqlite"
        let victim = dir + "/victim.txt"
        try Data("precious data\n".utf8).write(to: URL(fileURLWithPath: victim))
        let lockPath = store + "-strata.lock"
        switch kind {
        case "symlink": #expect(symlink(victim, lockPath) == 0)
        case "hardlink": #expect(link(victim, lockPath) == 0)
        case "foreign": try Data("precious data\n".utf8).write(to: URL(fileURLWithPath: lockPath))
        case "directory": try FileManager.default.createDirectory(atPath: lockPath, withIntermediateDirectories: false)
        default: #expect(mkfifo(lockPath, 0o644) == 0)
        }
        let error = #expect(throws: StorePathError.self) { try StoreLock.acquire(storePath: store, timeout: 0) }
        #expect(error?.exitCode == .invalidInput)
        #expect(error?.description.hasPrefix("error: refusing to use the lock file '\(lockPath)': ") == true, "\(String(describing: error))")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious data\n")
    }

    @Test func aNewLockFileIsNoWiderThanTheStore() throws {
        let dir = TestStore.directory()
        let store = dir + "/app.sqlite"
        _ = FileManager.default.createFile(atPath: store, contents: nil, attributes: [.posixPermissions: 0o600])
        let lock = try StoreLock.acquire(storePath: store, timeout: 0)
        defer { lock.release() }
        var info = stat()
        #expect(stat(store + "-strata.lock", &info) == 0 && info.st_mode & 0o777 == 0o600)
    }

    @Test func aLockFileOfAnEarlierRunIsReused() throws {
        let dir = TestStore.directory()
        let store = dir + "/app.sqlite"
        try Data("pid: 1\nhost: old\n".utf8).write(to: URL(fileURLWithPath: store + "-strata.lock"))
        let lock = try StoreLock.acquire(storePath: store, timeout: 0)
        #expect(PipelineSupport.lockFileHolder(store)?.pid == getpid())
        lock.release()
    }

    @Test func outputsAreComparedByIdentityNotSpelling() throws {
        let dir = TestStore.directory()
        let store = dir + "/app.sqlite"
        _ = FileManager.default.createFile(atPath: store, contents: Data("x".utf8))
        let model = dir + "/4.yaml"
        _ = FileManager.default.createFile(atPath: model, contents: Data("version: 4".utf8))
        #expect(symlink(store, dir + "/sym") == 0)
        #expect(link(store, dir + "/hard") == 0)
        let cases: [(String, String)] = [
            (store, "the store"), (dir + "/./app.sqlite", "the store"), (dir + "/sym", "the store"), (dir + "/hard", "the store"),
            (store + "-wal", "the store's -wal file"), (store + "-journal", "the store's -journal file"),
            (dir + "/../" + (dir as NSString).lastPathComponent + "/app.sqlite-shm", "the store's -shm file"),
            (store + "-strata.lock", "the store's lock file"), (dir + "/sym-strata.lock", "the store's lock file"),
            (model, "a model file"),
        ]
        for (output, what) in cases {
            let error = #expect(throws: StorePathError.self) {
                try StorePath.checkOutput(output, option: "--report", storePath: dir + "/sym", protectedFiles: [(model, "a model file")])
            }
            #expect(error?.description == "error: --report '\(output)' is \(what); Strata never writes over it\nhint: choose another --report path", "\(output)")
        }
        try StorePath.checkOutput(dir + "/report.txt", option: "--report", storePath: store, protectedFiles: [(model, "a model file")])
    }

    @Test func aStoreIsCreatedCompleteOrNotAtAll() throws {
        let dir = TestStore.directory()
        let path = dir + "/new.sqlite"
        let model = try ModelLoader.load(yaml: Self.v1, file: "models/1.yaml")
        // A creation killed earlier (its pid is dead) left a half-built temporary file: the next one removes it.
        let leftover = dir + "/.new.sqlite.strata-create-999999999-dead"
        _ = FileManager.default.createFile(atPath: leftover, contents: Data("half".utf8))
        _ = FileManager.default.createFile(atPath: leftover + "-journal", contents: Data("half".utf8))
        // The transaction fails: nothing appears at the path.
        struct Boom: Error {}
        #expect(throws: Boom.self) { try StoreCreator.create(at: path, model: model) { _, _ in throw Boom() } }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == [])
        let store = try StoreCreator.create(at: path, model: model)
        #expect(try store.metadata().version == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["new.sqlite"])
    }

    @Test func aStoreIsCreatedThroughASymlinkToANewFile() throws {
        let dir = TestStore.directory()
        try FileManager.default.createDirectory(atPath: dir + "/releases", withIntermediateDirectories: false)
        #expect(symlink("releases/app.sqlite", dir + "/current.sqlite") == 0)
        let model = try ModelLoader.load(yaml: Self.v1, file: "models/1.yaml")
        let store = try StoreCreator.create(at: dir + "/current.sqlite", model: model)
        #expect(try store.metadata().version == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/releases") == ["app.sqlite"])
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dir + "/current.sqlite") == "releases/app.sqlite")
        #expect(throws: StoreError.self) { try StoreCreator.create(at: dir + "/current.sqlite", model: model) }
    }

    @Test(arguments: ["fifo", "directory"])
    func aStorePathThatIsNotARegularFileIsRefusedAtOnce(kind: String) throws {
        let dir = TestStore.directory()
        let path = dir + "/app.sqlite"
        if kind == "fifo" { #expect(mkfifo(path, 0o644) == 0) } else { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false) }
        for readOnly in [true, false] {
            let error = #expect(throws: StorePathError.self) { try Store.open(path: path, readOnly: readOnly) }
            #expect(error?.exitCode == .invalidInput)
        }
        #expect(throws: StorePathError.self) { try Preflight.checkFile(atPath: path, forWriting: false) }
    }
}
