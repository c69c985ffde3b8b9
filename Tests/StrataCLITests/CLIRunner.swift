import Foundation
import StrataTestSupport

/// Runs the built `strata` binary.
enum CLI {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        /// Killed by a signal (a crash: SIGILL, SIGSEGV…); `status` is then the signal's number.
        var signaled = false
    }

    static var packageRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }

    /// The `strata` executable next to the test bundle (SwiftPM builds it into the same directory).
    static var binary: String { executable("strata") }

    /// An executable of the package, found as `strata` is (`strata-stages-fixture`: a `strata` with Swift stages).
    static func executable(_ name: String) -> String {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name).path,
            Bundle.main.bundleURL.appendingPathComponent(name).path,
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent(name).path,
            packageRoot + "/.build/debug/" + name,
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates.last!
    }

    /// Runs `strata args…` in `directory` and waits.
    @discardableResult
    static func run(_ args: [String], in directory: String? = nil, environment: [String: String] = [:],
                    executable: String = CLI.binary, standardInput: FileHandle? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = args
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        var env = ProcessInfo.processInfo.environment
        for key in ["STRATA_STORE", "STRATA_MODELS", "STRATA_MIGRATIONS"] { env.removeValue(forKey: key) }
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        if let standardInput { process.standardInput = standardInput }
        try process.run()
        // Both pipes are drained at once: reading one to its end first would deadlock as soon as the
        // child fills the other's buffer (64 KB on Linux).
        let errBox = DataBox()
        let errReader = Thread { errBox.data = readToEnd(err.fileHandleForReading); errBox.done.signal() }
        errReader.start()
        let outData = readToEnd(out.fileHandleForReading)
        errBox.done.wait()
        let errData = errBox.data
        process.waitUntilExit()
        var result = Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                            stderr: String(decoding: errData, as: UTF8.self))
        result.signaled = process.terminationReason == .uncaughtSignal
        return result
    }

    /// A pipe to its end, with `read(2)` retried when a signal interrupts it (a child's SIGCHLD): Foundation's
    /// `readDataToEndOfFile` stops the test process on EINTR.
    static func readToEnd(_ handle: FileHandle) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = read(handle.fileDescriptor, &buffer, buffer.count)
            if n > 0 { data.append(contentsOf: buffer[..<n]) } else if n == 0 || errno != EINTR { return data }
        }
    }

    /// A fresh temporary directory with a copy of the example's models/ (and migrations/ when present).
    static func exampleProject() throws -> String {
        let dir = Temporary.directory("project")
        for folder in ["models", "migrations"] where FileManager.default.fileExists(atPath: packageRoot + "/" + folder) {
            try FileManager.default.copyItem(atPath: packageRoot + "/" + folder, toPath: dir + "/" + folder)
        }
        return dir
    }

    /// A fresh temporary directory with `models/` holding `models` (file name → YAML) and an empty `migrations/`.
    static func project(_ prefix: String, models: [String: String]) throws -> String {
        let dir = Temporary.directory(prefix)
        try FileManager.default.createDirectory(atPath: dir + "/models", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/migrations", withIntermediateDirectories: true)
        for (name, yaml) in models { try yaml.write(toFile: dir + "/models/" + name, atomically: true, encoding: .utf8) }
        return dir
    }

    /// stderr's bytes, filled by the reader thread and published by `done`.
    private final class DataBox: @unchecked Sendable {
        var data = Data()
        let done = DispatchSemaphore(value: 0)
    }

    static func json(_ text: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
    }
}
