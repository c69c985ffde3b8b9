import Foundation
import Strata

/// Draws the library's progress (``ProgressState``s from a ``ProgressCounter``) as one self-overwriting line
/// on a terminal (stderr), never on stdout.
///
/// Exists only when the descriptor is a terminal and progress is enabled, so piped output,
/// CI logs and `--format json` runs stay free of bars:
/// ```swift
/// let sink = TerminalProgressBar.standardError(enabled: !global.noProgress)   // nil when not a TTY
/// ```
final class TerminalProgressBar: ProgressSink, @unchecked Sendable {
    let fileDescriptor: Int32
    private let mutex = NSLock()

    /// A bar on stderr, or nil when disabled (`--no-progress`), when stderr is not a terminal, or when `TERM=dumb`.
    /// `TERM` is read alone: `ProcessInfo.environment` copies the whole environment into a dictionary
    /// (0.36 M instructions of the add-column migrate of Benchmarks/small_command.py, every run, terminal or not).
    static func standardError(enabled: Bool = true) -> TerminalProgressBar? {
        TerminalProgressBar(fileDescriptor: STDERR_FILENO, enabled: enabled, term: getenv("TERM").map { String(cString: $0) })
    }

    /// A bar on `fileDescriptor`, or nil when it is disabled, stdout, not a terminal, or `term` is `dumb`.
    init?(fileDescriptor: Int32, enabled: Bool = true, term: String? = nil) {
        guard enabled, fileDescriptor != STDOUT_FILENO, isatty(fileDescriptor) == 1, term != "dumb" else { return nil }
        self.fileDescriptor = fileDescriptor
    }

    func draw(_ state: ProgressState) {
        write("\r" + fitted(state.rendered()) + "\u{1B}[K")
    }

    func end(_ state: ProgressState) {
        write("\r" + fitted(state.rendered()) + "\u{1B}[K\n")
    }

    /// Clears the bar's line, so that a message printed next starts at the left edge (the next draw
    /// puts the bar back).
    func clearLine() {
        write("\r\u{1B}[K")
    }

    /// Cuts the line to the terminal's width so that `\r` can overwrite it.
    private func fitted(_ line: String) -> String {
        var size = winsize()
        let columns = ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : 100
        return line.count < columns ? line : String(line.prefix(max(1, columns - 1)))
    }

    private func write(_ text: String) {
        mutex.lock()
        defer { mutex.unlock() }
        DescriptorWriter.write(text, to: fileDescriptor)
    }
}
