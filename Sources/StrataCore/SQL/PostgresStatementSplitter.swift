/// Splits a user's PostgreSQL text (an expanded `sql:` step) into statements at top-level semicolons, and
/// names the statement classes Strata refuses there (SPEC §11.4, §14.2). Pure.
///
/// Semicolons inside string constants (`'…'`, `E'…'` with backslash escapes), quoted identifiers, dollar
/// quotes (`$$…$$`, `$tag$…$tag$`), `--` comments and nested `/* */` comments do not split. Names and bound
/// values Strata put in (identifier and value pieces) stay whole. Empty statements are dropped. The text is
/// read by ``PostgresLexer``, as a stage's placeholders are.
///
/// ```swift
/// let parts = PostgresStatementSplitter.split("UPDATE t SET a = ';'; SELECT $$;$$")
/// parts.map(\.sql)   // ["UPDATE t SET a = ';'", " SELECT $$;$$"]
/// ```
public enum PostgresStatementSplitter {
    /// The statements of `text`, without their terminating semicolons.
    public static func split(_ text: SQLText) -> [SQLText] {
        var statements: [SQLText] = []
        var current = SQLText()
        var lexer = PostgresLexer()
        for piece in text.pieces {
            guard case .text(let string) = piece else { current.append(piece); continue }
            let characters = Array(string.unicodeScalars)
            var start = 0
            lexer.scan(characters) { i in
                guard characters[i] == ";" else { return 0 }
                current.append(.text(String(String.UnicodeScalarView(characters[start..<i]))))
                statements.append(current)
                current = SQLText()
                start = i + 1
                return 1
            }
            current.append(.text(String(String.UnicodeScalarView(characters[start...]))))
        }
        statements.append(current)
        return statements.filter { leadingKeyword($0) != nil }
    }

    /// The statement's first word, upper-cased, after white space and comments; nil for an empty statement.
    public static func leadingKeyword(_ statement: SQLText) -> String? {
        var text = ""
        for piece in statement.pieces {
            guard case .text(let string) = piece else { text += " x"; break }
            text += string
        }
        let utf8 = text.utf8
        let start = SQLStep.skippingSpaceAndComments(in: utf8, from: utf8.startIndex)
        let word = text[start...].prefix { $0.isLetter || $0 == "_" }
        if word.isEmpty { return start == text.endIndex ? nil : "" }
        return word.uppercased()
    }

    /// Leading keywords refused in a PostgreSQL `sql:` step, with the class they belong to (SPEC §11.4):
    /// transaction control and savepoints, session settings (PostgreSQL's pragmas), maintenance and loading code.
    public static let refused: [String: String] = [
        "BEGIN": "transaction control", "START": "transaction control", "COMMIT": "transaction control",
        "END": "transaction control", "ROLLBACK": "transaction control", "ABORT": "transaction control",
        "PREPARE": "transaction control", "SAVEPOINT": "a savepoint", "RELEASE": "a savepoint",
        "SET": "a session setting", "RESET": "a session setting", "DISCARD": "a session setting",
        "VACUUM": "VACUUM", "CHECKPOINT": "maintenance", "CLUSTER": "maintenance", "LOAD": "loading code",
    ]
}
