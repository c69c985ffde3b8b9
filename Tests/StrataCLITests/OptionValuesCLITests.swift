import Testing

/// Options with a closed set of values (enums named by their raw strings) name them in their help and in
/// the refusal of any other value, exit 2, nothing on standard output.
@Suite struct OptionValuesCLITests {
    @Test(arguments: [
        (["migrate", "--audit", "bogus"], "'bogus' is invalid for '--audit <audit>'. Please provide one of 'touched', 'full' or 'none'."),
        (["status", "--format", "yaml"], "'yaml' is invalid for '--format <format>'. Please provide one of 'text' and 'json'."),
        (["status", "--color", "x"], "'x' is invalid for '--color <color>'. Please provide one of 'auto', 'always' or 'never'."),
        (["batch", "update", "--result", "x"], "'x' is invalid for '--result <result>'. Please provide one of 'ids', 'count' or 'status'."),
        (["batch", "delete", "--on-violation", "x"],
         "'x' is invalid for '--on-violation <on-violation>'. Please provide one of 'rollback' and 'warn'."),
        (["audit", "--report-format", "x"],
         "'x' is invalid for '--report-format <report-format>'. Please provide one of 'text', 'json', 'junit', 'markdown' or 'html'."),
        (["lint", "--engine", "x"], "'x' is invalid for '--engine <engine>'. Please provide one of 'sqlite' and 'postgresql'."),
    ])
    func anotherValueIsRefusedWithTheList(arguments: [String], message: String) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 2)
        #expect(result.stdout == "")
        #expect(result.stderr.split(separator: "\n").first.map(String.init) == "error: The value " + message)
    }

    @Test func helpListsTheValues() throws {
        let help = try CLI.run(["audit", "--help"]).stdout
        let flattened = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(flattened.contains("--report-format <report-format> Report format: text, json, junit, markdown or html. (values: text, json, junit, markdown, html)"))
        #expect(flattened.contains("--format <format> Output format: text or json (default: text). (values: text, json)"))
        #expect(flattened.contains("--color <color> Colored output: auto, always or never (default: auto). (values: auto, always, never)"))
        let lint = try CLI.run(["lint", "--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(lint.contains("--engine <engine> Also warn about what a store of this engine would refuse: sqlite (default) or postgresql. (values: sqlite, postgresql)"))
    }
}
