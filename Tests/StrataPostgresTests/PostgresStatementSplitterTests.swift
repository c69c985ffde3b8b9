import Foundation
import StrataCore
import Testing

/// Splitting users' PostgreSQL text at top-level semicolons, and `sql: { sqlite:, postgresql: }` in hook files.
@Suite struct PostgresStatementSplitterTests {
    @Test func splitsOnlyAtTopLevelSemicolons() {
        let text: SQLText = """
            UPDATE "T" SET a = 'x;''y'; -- a comment; still a comment
            SELECT E'it\\'s;', "we;ird", $$a;b$$, $fn$ c; $$ $fn$ /* x; /* nested; */ y; */ ;
            ;  INSERT INTO \(TableName("Item", schema: "\"app\"")) VALUES (\(Value.text("a;b")))
            """
        #expect(PostgresStatementSplitter.split(text).map(\.sql) == [
            #"UPDATE "T" SET a = 'x;''y'"#,
            " -- a comment; still a comment\nSELECT E'it\\'s;', \"we;ird\", $$a;b$$, $fn$ c; $$ $fn$ /* x; /* nested; */ y; */ ",
            #"  INSERT INTO "app"."Item" VALUES (?)"#,
        ])
        #expect(PostgresStatementSplitter.split(text).map(PostgresStatementSplitter.leadingKeyword) == ["UPDATE", "SELECT", "INSERT"])
    }

    @Test func hookFilesGiveOneTextPerEngine() throws {
        let history = try ModelHistory.load(yaml: ["1.yaml": "version: 1\nentities:\n  A:\n    attributes:\n      n: { type: int16 }\n"])
        let hooks = try HookSet.load(yaml: ["a.yaml": """
            after: 1
            steps:
              - sql: { sqlite: "UPDATE {{A}} SET {{A.n}} = 1", postgresql: "UPDATE {{A}} SET {{A.n}} = 2" }
              - sql: "UPDATE {{A}} SET {{A.n}} = 3"
            """], models: history)
        guard case .sql(let both) = hooks.hooks[0].steps[0], case .sql(let plain) = hooks.hooks[0].steps[1] else {
            Issue.record("not sql steps"); return
        }
        #expect(both.text == "UPDATE {{A}} SET {{A.n}} = 1" && both.postgresql?.text == "UPDATE {{A}} SET {{A.n}} = 2")
        #expect(plain.text == "UPDATE {{A}} SET {{A.n}} = 3" && plain.postgresql == nil)
        #expect(both.hasSQLiteText && plain.hasSQLiteText)
        // A PostgreSQL-only step loads (an SQLite store refuses it before any step); a step with no text does not.
        let only = try HookSet.load(yaml: ["a.yaml": "after: 1\nsteps:\n  - sql: { postgresql: \"SELECT 1\" }\n"], models: history)
        guard case .sql(let postgresql) = only.hooks[0].steps[0] else { Issue.record("not an sql step"); return }
        #expect(!postgresql.hasSQLiteText && postgresql.postgresql?.text == "SELECT 1")
        let error = #expect(throws: DiagnosticList.self) {
            try HookSet.load(yaml: ["a.yaml": "after: 1\nsteps:\n  - sql: {}\n"], models: history)
        }
        #expect(error?.diagnostics.first?.message == "sql: gives no text")
    }
}
