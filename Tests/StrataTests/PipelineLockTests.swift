import Foundation
import Testing
@testable import Strata
import StrataTestSupport

@Suite struct PipelineLockTests {
    let store = TestStore.directory() + "/app.sqlite"

    @Test func freeLockIsTakenAtOnceAndNamesTheHolder() throws {
        let lock = try StoreLock.acquire(storePath: store, timeout: 0)
        #expect(StoreLock.lockPath(forStore: store) == store + "-strata.lock")
        #expect(FileManager.default.fileExists(atPath: store + "-strata.lock"))
        #expect(!lock.waited)
        let holder = try #require(PipelineSupport.lockFileHolder(store))
        #expect(holder.pid == getpid())
        #expect(holder.host == LockHolder.current.host)
        #expect(holder.since != nil)
        lock.release()
        #expect(PipelineSupport.lockFileHolder(store) == nil)
        lock.release() // idempotent
        // Released: the next locker gets it at once.
        let next = try StoreLock.acquire(storePath: store, timeout: 0)
        #expect(!next.waited)
        next.release()
    }

    @Test func secondLockerTimesOutWithExit5NamingTheHolder() throws {
        let first = try StoreLock.acquire(storePath: store, timeout: 0)
        defer { first.release() }
        let started = Date()
        var seen: LockHolder??
        let error = #expect(throws: PipelineError.self) {
            // flock locks belong to open file descriptions: a second open in one process conflicts.
            try StoreLock.acquire(storePath: store, timeout: 0.3, onWait: { seen = .some($0) })
        }
        // A lower bound only: the whole timeout is waited; a busy machine may take longer, so no upper bound.
        #expect(Date().timeIntervalSince(started) >= 0.3)
        #expect(error?.pipelineExit == .storeBusy)
        #expect(seen??.pid == getpid())
        let message = error?.pipelineMessage ?? ""
        #expect(message.contains("error: the store '\(store)' is busy: pid \(getpid()) on host \(LockHolder.current.host)"))
        #expect(message.contains("holds '\(store)-strata.lock' (waited 0.3s)"))
        #expect(message.contains("raise the lock timeout"))
    }

    @Test func waiterGetsTheLockWhenTheHolderReleasesAndKnowsItWaited() throws {
        let first = try StoreLock.acquire(storePath: store, timeout: 0)
        // Released the moment the waiter says it found the lock taken (an event, not a delay): its next
        // attempt gets it. The 10 s timeout only bounds a broken lock; the test never waits for it.
        var waitedFor: LockHolder?
        let second = try StoreLock.acquire(storePath: store, timeout: 10, onWait: { waitedFor = $0; first.release() })
        defer { second.release() }
        #expect(second.waited)
        #expect(waitedFor?.pid == getpid())
        #expect(PipelineSupport.lockFileHolder(store)?.pid == getpid())
    }

    @Test func killedHolderLeavesNoStaleLock() throws {
        let lockPath = StoreLock.lockPath(forStore: store)
        // A shell that locks the file and then becomes `sleep` (same process, same descriptor).
        let holder = try PipelineSupport.spawn("/bin/sh", ["-c", "exec 9>>\"$0\"; flock 9; exec sleep 60", lockPath])
        var busy = false
        Wait.until {
            busy = (try? StoreLock.acquire(storePath: store, timeout: 0))
                .map { $0.release(); return false } ?? true
            return busy
        }
        #expect(busy)
        let error = #expect(throws: PipelineError.self) { try StoreLock.acquire(storePath: store, timeout: 0.1) }
        #expect(error?.pipelineExit == .storeBusy)
        #expect(error?.pipelineMessage.contains("another process holds") == true)

        PipelineSupport.kill9(holder)
        // The OS released the flock with the process: taken at once, no wait.
        let lock = try StoreLock.acquire(storePath: store, timeout: 2)
        #expect(PipelineSupport.lockFileHolder(store)?.pid == getpid())
        #expect(!lock.waited)
        lock.release()
    }

    @Test func lockHeldByChildProcessIsWaitedFor() throws {
        let lockPath = StoreLock.lockPath(forStore: store)
        // flock(1) holds the lock while its child `cat` reads stdin: closing the pipe ends both.
        let input = Pipe()
        let holder = try PipelineSupport.spawn("/usr/bin/flock", [lockPath, "cat"], stdin: input)
        let held = Wait.until {
            guard let lock = try? StoreLock.acquire(storePath: store, timeout: 0) else { return true }
            lock.release()
            return false
        }
        #expect(held, "flock never took the lock")
        // The holder lets go once we have started waiting (an event, not a delay); 10 s bounds a broken lock.
        let lock = try StoreLock.acquire(storePath: store, timeout: 10, onWait: { _ in try? input.fileHandleForWriting.close() })
        #expect(lock.waited)
        lock.release()
        holder.waitUntilExit()
    }

    @Test func missingDirectoryIsExit2() throws {
        let error = #expect(throws: StoreError.self) {
            try StoreLock.acquire(storePath: "/nonexistent-strata-dir/app.sqlite", timeout: 0)
        }
        #expect(error?.pipelineExit == .invalidInput)
    }

    @Test func holderFileRoundTrips() {
        let holder = LockHolder(pid: 42, host: "build-7", since: "2024-05-01T10:00:00Z")
        #expect(LockHolder(fileText: holder.fileText) == holder)
        #expect(holder.description == "pid 42 on host build-7 (since 2024-05-01T10:00:00Z)")
        #expect(LockHolder(fileText: "") == nil)
        #expect(LockHolder(fileText: "pid: 1\n") == nil)
    }
}
