import Foundation
import Strata
import Testing
@testable import StrataCLI

/// The CLI's renderer of the library's progress: a bar only on a terminal's stderr.
@Suite struct TerminalProgressBarTests {
    @Test func terminalBarOnlyOnATerminal() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        #expect(TerminalProgressBar(fileDescriptor: fds[1]) == nil)              // a pipe (CI log, redirect)
        #expect(TerminalProgressBar(fileDescriptor: STDOUT_FILENO) == nil)       // never stdout
        if isatty(STDERR_FILENO) == 0 { #expect(TerminalProgressBar.standardError() == nil) }
        #expect(TerminalProgressBar.standardError(enabled: false) == nil)        // --no-progress

        // A pseudo-terminal gets the bar.
        let (master, slave) = try #require(Self.pseudoTerminal())
        defer { close(master); close(slave) }
        #expect(TerminalProgressBar(fileDescriptor: slave, term: "dumb") == nil)
        let bar = try #require(TerminalProgressBar(fileDescriptor: slave))
        bar.end(ProgressState(label: "copy", unit: "rows", done: 1, total: 2, elapsed: 1))
        var buffer = [UInt8](repeating: 0, count: 512)
        let n = read(master, &buffer, buffer.count)
        let text = String(decoding: buffer[..<max(0, n)], as: UTF8.self)
        #expect(text.contains("copy  [############------------]  1/2 rows  50%  1 rows/s  ETA 0:01\u{1B}[K"))
    }

    /// A pseudo-terminal pair (master, slave), or nil.
    static func pseudoTerminal() -> (Int32, Int32)? {
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        guard master >= 0 else { return nil }
        #if os(Linux)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard ioctl(master, 0x4004_5431 /* TIOCSPTLCK */, &unlock) == 0,
              ioctl(master, 0x8004_5430 /* TIOCGPTN */, &number) == 0 else { close(master); return nil }
        let name = "/dev/pts/\(number)"
        #else
        guard grantpt(master) == 0, unlockpt(master) == 0, let cName = ptsname(master) else { close(master); return nil }
        let name = String(cString: cName)
        #endif
        let slave = open(name, O_RDWR | O_NOCTTY)
        guard slave >= 0 else { close(master); return nil }
        return (master, slave)
    }

}
