import Foundation
import Testing
@testable import StrataCLI
import StrataTestSupport

/// The CLI's `Output`: one value per run, made from the parsed options, or from the arguments
/// themselves when they do not parse (so `--format`, `--color` and `--quiet` hold for argument errors too).
@Suite struct OutputCLITests {
    static let red = "\u{1B}[1;31merror:\u{1B}[0m"

    /// Argument errors of every kind: unknown option, bad value, a subcommand's own check, a global check.
    static let badArguments: [[String]] = [
        ["status", "--bogus"],
        ["migrate", "--lock-timeout", "-1"],
        ["batch", "delete", "--entity", "Chef", "--max-samples", "-3"],
        ["audit", "--fail-on", "99"],
        ["meta", "get"],
        ["lint", "--var", "=x"],
        ["migrate", "--audit", "sometimes"],
    ]

    @Test(arguments: badArguments) func jsonHoldsWhenTheArgumentsDoNotParse(_ arguments: [String]) throws {
        for format in [["--format", "json"], ["--format=json"]] {
            let r = try CLI.run(arguments + format, in: Temporary.directory("output"))
            #expect(r.status == 2)
            let document = try CLI.json(r.stdout)
            #expect(document["schemaVersion"] as? Int == 1)
            let error = try #require(document["error"] as? [String: Any])
            #expect(error["exitCode"] as? Int == 2)
            #expect((error["diagnostics"] as? [[String: Any]])?.count == 1)
            #expect(r.stderr.hasPrefix("error: "))
        }
    }

    @Test(arguments: badArguments) func colorHoldsWhenTheArgumentsDoNotParse(_ arguments: [String]) throws {
        let always = try CLI.run(arguments + ["--color", "always"], in: Temporary.directory("output"))
        #expect(always.status == 2)
        #expect(always.stdout == "")
        #expect(always.stderr.hasPrefix(Self.red + " "))
        #expect(always.stderr.contains("\nhint: see `strata help` for usage\n"))

        let never = try CLI.run(arguments + ["--color=never"], in: Temporary.directory("output"))
        #expect(never.status == 2)
        #expect(never.stderr == always.stderr.replacingOccurrences(of: Self.red, with: "error:"))
    }

    @Test func theScanReadsTheLastValidValueBeforeDoubleDash() {
        let json = StrataMain.scannedOutput(["status", "--format", "text", "--format=json", "--quiet", "--", "--format", "text"])
        #expect(json.isJSON)
        #expect(json.isQuiet)
        let text = StrataMain.scannedOutput(["status", "--", "--format", "json", "--quiet"])
        #expect(!text.isJSON)
        #expect(!text.isQuiet)
        #expect(!StrataMain.scannedOutput(["status", "--format"]).isJSON)   // no value
    }

    @Test func eachOutputKeepsItsOwnExitCodeAndTheFirstFailureWins() {
        let first = Output(format: .text, color: .never, quiet: false)
        let second = Output(format: .json, color: .never, quiet: true)
        #expect(first.exitCode == .success)
        first.setExitCode(.validationViolations)
        first.setExitCode(.runtimeFailure)
        #expect(first.exitCode == .validationViolations)
        #expect(second.exitCode == .success)
    }
}
