/// Where each character of a YAML scalar's text is written in its file.
///
/// YAML does not keep a scalar's text column for column: a block (`|`, `>`) drops the indentation, a folded
/// block and a multi-line plain or quoted scalar join lines with a space (or keep line breaks around blank
/// lines) and drop each line's leading white space, and quoted scalars decode escapes (`\"`, `''`, `\u00e9`).
/// So an offset into the text (a predicate's unknown name, a statement of an `sql:` step) is placed by
/// reading the scalar as written: each file line's content, decoded, is found in the text in order, past the
/// separators (spaces and line breaks) folding put between lines.
///
/// Only the file's text and the scalar's start are kept; the lines are read when an error is placed.
public struct ScalarLayout: Sendable {
    /// How the scalar is written.
    public enum Style: Sendable { case plain, singleQuoted, doubleQuoted, literal, folded }

    let fileText: String
    let style: Style
    /// The node's mark: the first character of a plain scalar, the opening quote, or the `|`/`>` indicator.
    let line: Int, column: Int

    init(fileText: String, style: Style, line: Int, column: Int) {
        self.fileText = fileText
        self.style = style
        self.line = line
        self.column = column
    }

    /// A run of text scalars written one after the other on one file line.
    struct Run: Hashable, Sendable {
        var offset: Int, line: Int, column: Int, count: Int
    }

    /// Where a text's runs are in the file, read once: for a text placed at many offsets (an `sql:` step's
    /// placeholders).
    public struct Map: Sendable, Hashable {
        let runs: [Run]

        /// The 1-based line and column of the Unicode scalar `offset` into the text, or nil when nothing of
        /// the text was found in the file.
        public func position(ofScalarOffset offset: Int) -> (line: Int, column: Int)? {
            guard let first = runs.first else { return nil }
            // The last run starting at or before `offset` (runs are in text order).
            var low = 0, high = runs.count
            while low < high {
                let middle = (low + high) / 2
                if runs[middle].offset <= offset { low = middle + 1 } else { high = middle }
            }
            // Before the first run: the text's leading line breaks, which have no column of their own.
            guard low > 0 else { return (first.line, first.column) }
            let run = runs[low - 1]
            return (run.line, run.column + (offset - run.offset))
        }
    }

    /// The map of `text` (the scalar's text) in the file.
    public func map(of text: String) -> Map { Map(runs: runs(of: Array(text.unicodeScalars))) }

    /// The 1-based line and column of the Unicode scalar `offset` into `text` (the scalar's text), or nil when
    /// the file does not hold `text` as this scalar (nothing of it could be found).
    public func position(ofScalarOffset offset: Int, in text: String) -> (line: Int, column: Int)? {
        map(of: text).position(ofScalarOffset: offset)
    }

    /// One file line's content as the text holds it: each scalar with its 1-based file column.
    typealias Piece = [(scalar: Unicode.Scalar, column: Int)]

    /// The runs of `text` found in the file, in text order; it stops where the file stops matching the text.
    func runs(of text: [Unicode.Scalar]) -> [Run] {
        var runs: [Run] = []
        var position = 0
        for (number, piece) in pieces(bound: text.count) {
            guard position < text.count else { break }
            if piece.isEmpty { continue }   // a blank line: a line break in the text
            var start = position
            var matched = 0
            while true {
                matched = Self.commonPrefix(piece, text, from: start)
                // The whole line, or the text's end (a plain scalar's last line may go on with a comment or `,`).
                if matched == piece.count || (matched > 0 && start + matched == text.count) { break }
                guard start < text.count, [" ", "\n", "\t"].contains(text[start]) else { return runs }
                start += 1
            }
            for i in 0..<matched {
                let column = piece[i].column
                if let last = runs.last, last.line == number, last.offset + last.count == start + i, last.column + last.count == column {
                    runs[runs.count - 1].count += 1
                } else {
                    runs.append(Run(offset: start + i, line: number, column: column, count: 1))
                }
            }
            position = start + matched
        }
        return runs
    }

    static func commonPrefix(_ piece: Piece, _ text: [Unicode.Scalar], from start: Int) -> Int {
        var n = 0
        while n < piece.count, start + n < text.count, piece[n].scalar == text[start + n] { n += 1 }
        return n
    }

    /// The file's lines from the scalar's, each with its 1-based number and its content as the text holds it.
    /// `bound` (the text's length) limits how much of a plain scalar's first line is read.
    func pieces(bound: Int) -> [(line: Int, piece: Piece)] {
        var lines = fileText.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(line - 1)
            .lazy.map { Array(($0.hasSuffix("\r") ? $0.dropLast() : $0).unicodeScalars) }.makeIterator()
        guard let first = lines.next() else { return [] }
        var result: [(line: Int, piece: Piece)] = []
        var number = line
        func numbered(_ scalars: ArraySlice<Unicode.Scalar>) -> Piece {
            scalars.indices.map { (scalars[$0], $0 + 1) }
        }
        switch style {
        case .plain:
            result.append((number, Self.trimmed(numbered(first.dropFirst(column - 1).prefix(bound)))))
            while let next = lines.next() {
                number += 1
                result.append((number, Self.trimmed(numbered(next[...]).drop { $0.scalar == " " || $0.scalar == "\t" })))
            }
        case .singleQuoted, .doubleQuoted:
            var (piece, closed) = decoded(first, from: column)   // 0-based: the scalar after the opening quote
            result.append((number, piece))
            while !closed, let next = lines.next() {
                number += 1
                (piece, closed) = decoded(next, from: next.firstIndex { $0 != " " && $0 != "\t" } ?? next.count)
                result.append((number, piece))
            }
        case .literal, .folded:
            var indentation: Int?
            while let next = lines.next() {
                number += 1
                let spaces = next.prefix { $0 == " " }.count
                if spaces == next.count { result.append((number, [])); continue }   // a blank line
                let indent = indentation ?? spaces
                indentation = indent
                guard spaces >= indent else { break }   // the block has ended
                result.append((number, Self.trimmed(numbered(next.dropFirst(indent)))))
            }
        }
        return result
    }

    /// The piece without trailing spaces and tabs (YAML drops them before a line break).
    static func trimmed<C: Collection>(_ piece: C) -> Piece where C.Element == (scalar: Unicode.Scalar, column: Int) {
        var result = Array(piece)
        while let last = result.last, last.scalar == " " || last.scalar == "\t" { result.removeLast() }
        return result
    }

    /// A quoted scalar's content on `line` from 0-based index `start`, decoded, and whether the closing quote is
    /// on this line. A decoded escape has the column of its backslash (or of the first quote of `''`).
    func decoded(_ line: [Unicode.Scalar], from start: Int) -> (Piece, closed: Bool) {
        var piece: Piece = []
        var escaped = false   // whether the last scalar came from an escape (white space that stays)
        var i = start
        while i < line.count {
            let c = line[i]
            if style == .singleQuoted {
                guard c == "'" else { piece.append((c, i + 1)); escaped = false; i += 1; continue }
                guard i + 1 < line.count, line[i + 1] == "'" else { return (piece, true) }
                piece.append(("'", i + 1)); escaped = true; i += 2
                continue
            }
            if c == "\"" { return (piece, true) }
            guard c == "\\" else { piece.append((c, i + 1)); escaped = false; i += 1; continue }
            guard i + 1 < line.count else { return (piece, false) }   // an escaped line break: no separator
            let (scalar, length) = Self.escape(line, at: i + 1)
            if let scalar { piece.append((scalar, i + 1)); escaped = true }
            i += 1 + length
        }
        // The line breaks here: its trailing white space is dropped, unless an escape ends it.
        return (escaped ? piece : Self.trimmed(piece), false)
    }

    /// The character a double-quoted escape stands for (the letter after `\` at `index`) and how many
    /// scalars it takes after the backslash.
    static func escape(_ line: [Unicode.Scalar], at index: Int) -> (Unicode.Scalar?, length: Int) {
        let simple: [Unicode.Scalar: UInt32] = [
            "0": 0, "a": 7, "b": 8, "t": 9, "\t": 9, "n": 0x0A, "v": 0x0B, "f": 0x0C, "r": 0x0D, "e": 0x1B,
            " ": 0x20, "\"": 0x22, "/": 0x2F, "\\": 0x5C, "N": 0x85, "_": 0xA0, "L": 0x2028, "P": 0x2029,
        ]
        let c = line[index]
        if let value = simple[c] { return (Unicode.Scalar(value), 1) }
        let digits = c == "x" ? 2 : c == "u" ? 4 : c == "U" ? 8 : 0
        guard digits > 0, index + digits < line.count,
              let value = UInt32(String(String.UnicodeScalarView(line[(index + 1)...(index + digits)])), radix: 16) else {
            return (nil, 1)
        }
        return (Unicode.Scalar(value), 1 + digits)
    }
}
