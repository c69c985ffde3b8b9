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
            }
        }
        return .sql(SQLStep(text: text, origin: origin, lineOrigins: lineOrigins))
    }
}
