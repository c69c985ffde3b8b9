/// The ICU regular-expression syntax PostgreSQL's regexes lack (SPEC §14.2).
extension PostgresRenderer {
    /// Whether a pattern uses a character class whose members depend on the locale: an escape (`\w`, `\W`,
    /// `\d`, `\D`, `\s`, `\S`) or a POSIX class (`[[:alpha:]]`).
    static func hasCharacterClass(_ pattern: String) -> Bool {
        var escaped = false
        for c in pattern {
            if escaped {
                if "wWdDsS".contains(c) { return true }
                escaped = false
            } else if c == "\\" {
                escaped = true
            }
        }
        return pattern.contains("[:")
    }

    /// Refuses `\b`, `\B`, `\p{…}`/`\P{…}`, `\Q…\E`, possessive quantifiers (`*+`, `++`, `?+`, `}+`) and atomic
    /// groups (`(?>…)`): PostgreSQL would read them differently or not at all.
    /// - Throws: `PostgresRenderError` naming the construct.
    package static func checkRegex(_ pattern: String) throws(PostgresRenderError) {
        let characters = Array(pattern)
        var i = 0
        var inClass = false
        func refuse(_ what: String) -> PostgresRenderError {
            PostgresRenderError("MATCHES \"\(pattern)\" uses \(what), which only ICU regular expressions have",
                                hint: "rewrite it for both engines (\\m and \\M are PostgreSQL's word boundaries; see Docs/postgresql.md)")
        }
        while i < characters.count {
            let c = characters[i]
            if c == "\\", i + 1 < characters.count {
                switch characters[i + 1] {
                case "b", "B": throw refuse("a word boundary (\\\(characters[i + 1]))")
                case "p", "P": throw refuse("a Unicode property (\\\(characters[i + 1]){…})")
                case "Q": throw refuse("quoting (\\Q…\\E)")
                default: i += 2; continue
                }
            }
            if inClass {
                if c == "]" { inClass = false }
            } else if c == "[" {
                inClass = true
                if i + 1 < characters.count, characters[i + 1] == "]" { i += 1 }
            } else if c == "(", i + 2 < characters.count, characters[i + 1] == "?", characters[i + 2] == ">" {
                throw refuse("an atomic group ((?>…))")
            } else if "*+?}".contains(c), i + 1 < characters.count, characters[i + 1] == "+", i > 0 {
                throw refuse("a possessive quantifier (\(c)+)")
            }
            i += 1
        }
    }
}
