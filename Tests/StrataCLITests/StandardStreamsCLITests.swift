import Foundation
import Testing

/// A standard error that cannot take the messages (on a full disk, or closed) loses them, and the run keeps
/// its exit code; it stopped the process with SIGILL before (Foundation's `FileHandle.write(_:)`).
@Suite struct StandardStreamsCLITests {
    /// Runs `strata args…` in `directory` with standard error on `/dev/full` or closed (`nil`).
    static func run(_ args: [String], in directory: String, standardError: FileHandle?) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = args
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.standardOutput = FileHandle.nullDevice
        if let standardError {
            process.standardError = standardError
        } else {
            // A closed descriptor 2: the child closes it before `strata` starts.
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "exec \"$0\" \"$@\" 2>&-", CLI.binary] + args
        }
        try process.run()
        process.waitUntilExit()
        return process
    }

    @Test(arguments: [true, false])
    func errorsWithNowhereToGoKeepTheExitCode(full: Bool) throws {
        let dir = try CLI.project("streams", models: ["1.yaml": "version: 1\nentities:\n  R:\n    attributes:\n      n: { type: nope }\n"])
        let stderr: FileHandle? = full ? FileHandle(forWritingAtPath: "/dev/full") : nil
        #expect(full == (stderr != nil))
        for args in [["lint"], ["status", "--store", "missing.sqlite"], ["migrate", "--lock-timeout", "abc"]] {
            let process = try Self.run(args, in: dir, standardError: stderr)
            #expect(process.terminationReason == .exit, "\(args)")
            #expect(process.terminationStatus == 2, "\(args)")
        }
    }

    /// Standard output on a full disk: a run that otherwise succeeded exits 1 and says so (it exited 0 with
    /// the document lost); a run that failed keeps its own exit code.
    @Test func standardOutputOnAFullDiskIsExit1OnlyForARunThatSucceeded() throws {
        let dir = try CLI.exampleProject()
        #expect(try CLI.run(["migrate", "--create", "--store", "app.sqlite", "--quiet"], in: dir).status == 0)
        for (args, status) in [(["status", "--store", "app.sqlite", "--format", "json"], Int32(1)), (["status", "--store", "app.sqlite"], 1),
                               (["status", "--store", "missing.sqlite"], 2)] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CLI.binary)
            process.arguments = args
            process.currentDirectoryURL = URL(fileURLWithPath: dir)
            process.standardOutput = FileHandle(forWritingAtPath: "/dev/full")
            let err = Pipe()
            process.standardError = err
            try process.run()
            let stderr = String(decoding: CLI.readToEnd(err.fileHandleForReading), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == status, "\(args): \(stderr)")
            let message = """
                error: standard output could not be written: what the command printed is incomplete
                hint: is the disk it goes to full, or standard output closed? The command itself succeeded

                """
            #expect((stderr == message) == (status == 1), "\(args): \(stderr)")
        }
    }
}

