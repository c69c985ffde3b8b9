import Foundation
import Yams

extension HookLoader {
    /// `- sql: |` followed by one or more statements. The step keeps the map of its text in the file, so an
    /// error in the third statement of a literal, folded, plain or quoted text points at its line and column.
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
        let start = ModelParser.stringStart(body, &r)
        let map = start.layout?.map(of: text)   // read once: every placeholder is located
        // A block's node is its `|` or `>` indicator: the step starts at its first content line.
        let first = map?.position(ofScalarOffset: 0)
        var step = SQLStep(text: text, origin: first.map { SourceLocation(file: r.file, line: $0.line, column: $0.column) } ?? start)
        step.map = map
        return .sql(step)
    }
}
