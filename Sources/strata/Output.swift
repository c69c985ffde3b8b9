import ArgumentParser
import Foundation
import Strata

/// Where output goes: results to stdout, diagnostics to stderr; in JSON mode exactly one
/// document (with `"schemaVersion": 1`) on stdout, errors included.
enum Output {
    private struct State: Sendable {
        var format: OutputFormat = .text
        var color = false
        var quiet = false
        var exitCode: ExitStatus = .success
        var printedJSON = false
    }
    private static let lock = NSLock()
    nonisolated(unsafe) private static var state = State()

    private static func with<T>(_ body: (inout State) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&state)
    }

    static func configure(format: OutputFormat, color: ColorMode, quiet: Bool) {
        let useColor: Bool
        switch color {
        case .always: useColor = true
        case .never: useColor = false
        case .auto: useColor = isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
        }
        with { $0.format = format; $0.color = useColor; $0.quiet = quiet }
    }

    static var isJSON: Bool { with { $0.format == .json } }
    static var isQuiet: Bool { with { $0.quiet } }
    static var exitCode: ExitStatus { with { $0.exitCode } }

    /// Sets the process's exit code (the worst one wins).
    static func setExitCode(_ code: ExitStatus) {
        with { if $0.exitCode == .success { $0.exitCode = code } }
    }

    /// A line of human output on stdout (suppressed in JSON mode and with --quiet).
    static func line(_ text: String = "") {
        guard !isJSON, !isQuiet else { return }
        print(text)
    }

    /// Human output that --quiet does not suppress (the result a command exists to print).
    static func result(_ text: String) {
        guard !isJSON else { return }
        print(text)
    }

    /// Many result lines (object IDs), written in blocks of about 64 KB rather than one `print` each.
    static func resultLines<Lines: Sequence<String>>(_ lines: Lines) {
        guard !isJSON else { return }
        var block = ""
        block.reserveCapacity(1 << 16)
        for line in lines {
            block += line
            block += "\n"
            if block.utf8.count >= 1 << 16 { print(block, terminator: ""); block.removeAll(keepingCapacity: true) }
        }
        if !block.isEmpty { print(block, terminator: "") }
    }

    /// A diagnostic on stderr.
    static func diagnostic(_ d: Diagnostic) {
        if d.severity == .warning && isQuiet { return }
        var text = d.description
        if with({ $0.color }) {
            let label = d.severity == .error ? "\u{1B}[1;31merror:\u{1B}[0m" : "\u{1B}[1;33mwarning:\u{1B}[0m"
            text = text.replacingOccurrences(of: "\(d.severity.rawValue):", with: label, options: [], range: text.range(of: "\(d.severity.rawValue):"))
        }
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// A message on stderr (progress, notes).
    static func note(_ text: String) {
        guard !isQuiet else { return }
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Prints the command's one JSON document.
    static func json<Body: Encodable>(_ body: @autoclosure () -> Body) {
        guard isJSON else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try! encoder.encode(JSONDocument(body: body()))
        print(String(decoding: data, as: UTF8.self))
        with { $0.printedJSON = true }
    }

    /// Prints an already rendered JSON document (a report in `json` format, which carries `schemaVersion`).
    /// The text is only built in JSON mode (a migration report with many object IDs is large).
    static func jsonText(_ text: @autoclosure () -> String) {
        guard isJSON else { return }
        let text = text()
        print(text, terminator: text.hasSuffix("\n") ? "" : "\n")
        with { $0.printedJSON = true }
    }

    static func flush() { fflush(nil) }

    /// Reports an error and exits with its code.
    static func fail(_ error: Error) -> Never {
        let code: ExitStatus
        var diagnostics: [Diagnostic]
        if let strata = error as? StrataError {
            code = strata.exitCode
            diagnostics = strata.diagnostics
        } else if let cleanExit = error as? CleanExit {
            _ = cleanExit
            print(StrataCommand.fullMessage(for: error))
            exit(0)
        } else {
            let argumentCode = StrataCommand.exitCode(for: error)
            if argumentCode == ArgumentParser.ExitCode.success {
                print(StrataCommand.fullMessage(for: error))
                exit(0)
            }
            code = .invalidInput
            let message = StrataCommand.message(for: error)
            diagnostics = [.error(message.hasPrefix("Error: ") ? String(message.dropFirst(7)) : message,
                                  hint: "see `strata help` for usage")]
            if ProcessInfo.processInfo.environment["STRATA_DEBUG"] != nil { diagnostics.append(.error("\(error)")) }
        }
        for d in diagnostics { diagnostic(d) }
        if isJSON && !with({ $0.printedJSON }) {
            json(ErrorDocument(error: .init(exitCode: Int(code.rawValue), diagnostics: diagnostics.map(JSONDiagnostic.init))))
        }
        flush()
        exit(code.rawValue)
    }
}

/// `{"schemaVersion": 1, …body's keys…}`
struct JSONDocument<Body: Encodable>: Encodable {
    var body: Body
    enum Keys: String, CodingKey { case schemaVersion }
    func encode(to encoder: Encoder) throws {
        try body.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(1, forKey: .schemaVersion)
    }
}

struct ErrorDocument: Encodable {
    struct Failure: Encodable {
        var exitCode: Int
        var diagnostics: [JSONDiagnostic]
    }
    var error: Failure
}

/// A diagnostic in JSON documents.
struct JSONDiagnostic: Encodable {
    var severity: String
    var message: String
    var file: String?
    var line: Int?
    var column: Int?
    var hint: String?

    init(_ d: Diagnostic) {
        severity = d.severity.rawValue
        message = d.message
        file = d.location?.file
        line = d.location?.line
        column = d.location?.column
        hint = d.hint
    }
}
