/// Lines of a source file by number, for the source line a `Diagnostic` shows.
enum SourceLines {
    /// The text of each `wanted` line (numbered from 1) that `text` has, without its line break (`\n` or
    /// `\r\n`), read in one pass over the UTF-8 bytes up to the last line wanted. Splitting the whole text
    /// into lines of `Character`s instead cost 7% of `strata status` on a 117-version history (every file has
    /// a warning), and never split at `\r\n`, which is one `Character`.
    static func lines(_ wanted: Set<Int>, of text: String) -> [Int: String] {
        var found: [Int: String] = [:]
        guard let last = wanted.max() else { return found }
        let bytes = text.utf8
        var number = 1
        var start = bytes.startIndex
        while number <= last {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
            if wanted.contains(number) {
                var line = bytes[start..<end]
                if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
                found[number] = String(Substring(line))
            }
            guard end < bytes.endIndex else { break }
            start = bytes.index(after: end)
            number += 1
        }
        return found
    }
}
