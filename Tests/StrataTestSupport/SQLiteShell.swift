import Foundation

/// An `sqlite3` shell left in the middle of a write transaction, for hot-journal and snapshot tests.
public struct SQLiteShell {
    public let process: Process
    /// The shell's stdin: closing it ends the shell (and rolls its transaction back).
    public let input: Pipe

    /// Starts `sqlite3 path`, runs `PRAGMA cache_size = 5; BEGIN; <sql>` (the tiny cache makes it spill
    /// changed pages into the store before commit) and returns once the shell says `sql` has run, its
    /// transaction still open: from then on the journal holds every changed page.
    /// - Throws: `Wait.Timeout` when the shell has not got there in 30 s (it is killed then).
    public static func midTransaction(_ path: String, _ sql: String) throws -> SQLiteShell {
        let output = Temporary.directory("sqlite3") + "/stdout"
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [path]
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        process.standardError = FileHandle.nullDevice
        try process.run()
        let shell = SQLiteShell(process: process, input: input)
        input.fileHandleForWriting.write(Data("PRAGMA cache_size = 5;\nBEGIN;\n\(sql);\nSELECT 'done';\n".utf8))
        let done = Wait.until { (try? String(contentsOfFile: output, encoding: .utf8))?.contains("done") == true }
        if !done {
            shell.kill()
            throw Wait.Timeout(event: "sqlite3 running \(sql)")
        }
        return shell
    }

    /// SIGKILL: the transaction stays in the journal, which is hot from then on.
    public func kill() {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
    }
}
