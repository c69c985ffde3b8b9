import Foundation
import Yams

extension HookLoader {
    /// `- sql: |` followed by one or more statements. Records where each line of a literal block starts in
    /// the file, so an error in the third statement points at its line.
    static func parseSQLStep(_ body: Node, _ r: inout YAMLReader) -> HookStep? {
        if case .mapping = body {
            // `sql: { sqlite: "…", postgresql: "…" }`: one text per engine (SPEC §14.2).
            guard let entries = r.entries(of: body, what: "sql", allowed: ["sqlite", "postgresql"]) else { return nil }
            var texts: [String: SQLStep] = [:]
            for (engine, _, value) in entries {
                guard case .sql(let step)? = parseSQLStep(value, &r, nested: true) else { return nil }
                texts[engine] = step
            }
            guard var step = texts["sqlite"] ?? texts["postgresql"] else {
                r.error("sql: gives no text", at: body, hint: "give the step's SQL under sqlite:, postgresql: or both")
                return nil
            }
            // A PostgreSQL-only step: an SQLite store refuses it before any step runs (SQLPreCheck).
            step.hasSQLiteText = texts["sqlite"] != nil
            step.postgresql = texts["postgresql"]
            return .sql(step)
        }
        return parseSQLStep(body, &r, nested: false)
    }

    /// Where each content line of a folded block (its indicator on 1-based line `indicator`) lands in its `text`:
    /// YAML joins the lines with a space (or keeps line breaks around blank and more-indented lines), so each
    /// line's content is found in the text, in order, past those separators.
    static func folded(_ text: String, fileLines: [Substring], after indicator: Int, indentation: Int,
                       file: String) -> [SQLStep.FoldedLine] {
        let scalars = Array(text.unicodeScalars)
        var result: [SQLStep.FoldedLine] = []
        var position = 0
        for (index, fileLine) in fileLines.enumerated().dropFirst(indicator) {
            let line = fileLine.hasSuffix("\r") ? fileLine.dropLast() : fileLine
            let spaces = line.prefix { $0 == " " }.count
            if spaces == line.count { continue }   // a blank line: a line break in the text
            guard spaces >= indentation, position < scalars.count else { break }   // the block has ended
            var content = Array(line.dropFirst(indentation).unicodeScalars)
            while content.last == " " || content.last == "\t" { content.removeLast() }
            var start = position
            while start < scalars.count, !scalars[start...].starts(with: content) {
                guard scalars[start] == " " || scalars[start] == "\n" else { return result }   // not as expected: keep what is known
                start += 1
            }
            guard start < scalars.count else { return result }
            result.append(SQLStep.FoldedLine(offset: start, location: SourceLocation(file: file, line: index + 1, column: indentation + 1)))
            position = start + content.count
        }
        return result
    }

    static func parseSQLStep(_ body: Node, _ r: inout YAMLReader, nested: Bool) -> HookStep? {
        guard case .scalar(let scalar) = body else {
            r.error("sql must be text: one or more SQL statements", at: body,
                    hint: nested ? "write the engine's statements as text" : "write `sql: |` and the statements below it, or `sql: { sqlite: …, postgresql: … }`")
            return nil
        }
        let text = scalar.string
        if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            r.error("sql is empty", at: body, hint: "write one or more SQL statements")
            return nil
        }
        var origin = ModelParser.stringStart(body, &r)
        var lineOrigins: [SourceLocation] = []
        var foldedLines: [SQLStep.FoldedLine] = []
        if scalar.style == .literal || scalar.style == .folded {
            // The node's mark is the `|` or `>` indicator; the content starts on the next line, at the block's indentation.
            let fileLines = r.text.split(separator: "\n", omittingEmptySubsequences: false)
            let first = origin.line   // 1-based line of the indicator: content lines follow it
            let indentation = fileLines.dropFirst(first).first { !$0.allSatisfy { $0 == " " || $0 == "\r" } }?
                .prefix { $0 == " " }.count ?? 0
            origin = SourceLocation(file: r.file, line: first + 1, column: indentation + 1)
            if scalar.style == .literal {
                // Each line of the text is a line of the file; a folded block joins lines, so only its start is known.
                let count = text.split(separator: "\n", omittingEmptySubsequences: false).count
                lineOrigins = (0..<count).map { SourceLocation(file: r.file, line: first + 1 + $0, column: indentation + 1) }
            } else {
                foldedLines = folded(text, fileLines: fileLines, after: first, indentation: indentation, file: r.file)
            }
        }
        var step = SQLStep(text: text, origin: origin, lineOrigins: lineOrigins)
        step.foldedLines = foldedLines
        return .sql(step)
    }
}
