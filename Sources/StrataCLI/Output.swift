import ArgumentParser
import Foundation
import Strata

/// Where output goes: results to stdout, diagnostics to stderr; in JSON mode exactly one
/// document (with `"schemaVersion": 1`) on stdout, errors included.
///
/// One value, made in `main` from the parsed options (or, when parsing fails, from the arguments
/// themselves) and handed to the command's `run(output:)`. It keeps the exit code the run has set.
final class Output: @unchecked Sendable {
    let isJSON: Bool
    let isQuiet: Bool
    private let color: Bool
    private let lock = NSLock()       // guards the two below: a lock-wait note may come from another thread
    private var code: ExitStatus = .success
    private var printedJSON = false

    init(format: OutputFormat, color: ColorMode, quiet: Bool) {
        isJSON = format == .json
        isQuiet = quiet
        switch color {
        case .always: self.color = true
        case .never: self.color = false
        case .auto: self.color = isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
        }
    }

    /// The output the options ask for.
    convenience init(_ options: GlobalOptions) {
        self.init(format: options.format, color: options.color, quiet: options.quiet)
    }

    /// The process's exit code so far.
    var exitCode: ExitStatus { lock.withLock { code } }

    /// Sets the process's exit code (the worst one wins).
    func setExitCode(_ code: ExitStatus) {
        lock.withLock { if self.code == .success { self.code = code } }
    }

    /// A line of human output on stdout (suppressed in JSON mode and with --quiet).
    func line(_ text: String = "") {
        guard !isJSON, !isQuiet else { return }
        print(text)
    }

    /// Human output that --quiet does not suppress (the result a command exists to print).
    func result(_ text: String) {
        guard !isJSON else { return }
        print(text)
    }

    /// Many result lines (object IDs), written in blocks of about 64 KB rather than one `print` each.
    func resultLines<Lines: Sequence<String>>(_ lines: Lines) {
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
    func diagnostic(_ d: Diagnostic) {
        if d.severity == .warning && isQuiet { return }
        var text = d.description
        if color {
            let label = d.severity == .error ? "\u{1B}[1;31merror:\u{1B}[0m" : "\u{1B}[1;33mwarning:\u{1B}[0m"
            text = text.replacingOccurrences(of: "\(d.severity.rawValue):", with: label, options: [], range: text.range(of: "\(d.severity.rawValue):"))
        }
        DescriptorWriter.write(text + "\n", to: STDERR_FILENO)
    }

    /// A message on stderr (progress, notes).
    func note(_ text: String) {
        guard !isQuiet else { return }
        DescriptorWriter.write(text + "\n", to: STDERR_FILENO)
    }

    /// Prints the command's one JSON document.
    func json<Body: Encodable>(_ body: @autoclosure () -> Body) {
        guard isJSON else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try! encoder.encode(JSONDocument(body: body()))
        print(String(decoding: data, as: UTF8.self))
        lock.withLock { printedJSON = true }
    }

    /// Prints an already rendered JSON document (a report in `json` format, which carries `schemaVersion`).
    /// The text is only built in JSON mode (a migration report with many object IDs is large).
    func jsonText(_ text: @autoclosure () -> String) {
        guard isJSON else { return }
        let text = text()
        print(text, terminator: text.hasSuffix("\n") ? "" : "\n")
        lock.withLock { printedJSON = true }
    }

    func flush() { fflush(nil) }

    /// Flushes standard output after a run that otherwise succeeded: text it could not take (a full disk, a
    /// closed descriptor) makes the run exit 1 with an error, so that a pipeline never takes a lost report or
    /// JSON document for success. A run that failed keeps its own exit code.
    func flushAfterSuccess() {
        // fflush(NULL) fails when a stream cannot take what is left in its buffer: on a full disk, standard
        // output always has some (it is written in blocks, and the last block waits for this call).
        let failed = fflush(nil) != 0
        guard failed, exitCode == .success else { return }
        diagnostic(.error("standard output could not be written: what the command printed is incomplete",
                          hint: "is the disk it goes to full, or standard output closed? The command itself succeeded"))
        setExitCode(.runtimeFailure)
    }

    /// The exit code and diagnostics of an error that stops a command (not an argument parser's clean exit).
    static func failure(for error: Error) -> Report.Failure {
        if let strata = error as? StrataError {
            return Report.Failure(exitCode: strata.exitCode, diagnostics: CommandLineHints.diagnostics(for: strata))
        }
        let message = StrataCommand.message(for: error)
        var diagnostics: [Diagnostic] = [.error(message.hasPrefix("Error: ") ? String(message.dropFirst(7)) : message,
                                                hint: "see `strata help` for usage")]
        if ProcessInfo.processInfo.environment["STRATA_DEBUG"] != nil { diagnostics.append(.error("\(error)")) }
        return Report.Failure(exitCode: .invalidInput, diagnostics: diagnostics)
    }

    /// Reports an error and exits with its code.
    func fail(_ error: Error) -> Never {
        SignalCleanup.waitIfTerminating()
        if error is CleanExit || (!(error is StrataError) && StrataCommand.exitCode(for: error) == ArgumentParser.ExitCode.success) {
            print(StrataCommand.fullMessage(for: error))
            exit(0)
        }
        let failure = Self.failure(for: error)
        let (code, diagnostics) = (failure.exitCode, failure.diagnostics)
        for d in diagnostics { diagnostic(d) }
        if isJSON && !lock.withLock({ printedJSON }) {
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

