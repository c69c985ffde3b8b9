import ArgumentParser
import Strata
import Testing
@testable import StrataCLI

/// Options declare no default value (NamedOptionValue.swift, "Option defaults"): each command's default is the
/// one its help names, and a given value still wins.
@Suite struct OptionDefaultsTests {
    /// The help of `command`, its whitespace runs made single spaces.
    static func help(_ command: ParsableCommand.Type) -> String {
        command.helpMessage(columns: 10_000).split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    @Test func migrateDefaultsAreTheOnesItsHelpNames() throws {
        let migrate = try MigrateCommand.parse([])
        #expect(migrate.audit == .touched)
        #expect(migrate.lockTimeout == 60)
        #expect(migrate.maxSamples == 20)
        #expect(migrate.global.format == .text)
        #expect(migrate.global.color == .auto)
        #expect(migrate.fleet.jobs == 1)
        #expect(migrate.postgres.ddlLockTimeout == 5)
        let help = Self.help(MigrateCommand.self)
        for line in ["--audit <audit> What the audit after each hook checks: touched, full or none (default: touched). (values: touched, full, none)",
                     "--lock-timeout <S> Seconds to wait for another run's lock. (default: 60)",
                     "--max-samples <max-samples> Samples per violated rule in audits. (default: 20)",
                     "--format <format> Output format: text or json (default: text). (values: text, json)",
                     "--color <color> Colored output: auto, always or never (default: auto). (values: auto, always, never)",
                     "--jobs <N> Stores run at once with --stores (default 1).",
                     "before its transaction rolls back (exit 5). (default: 5)"] {
            #expect(help.contains(line), "\(line)")
        }
    }

    @Test func otherCommandsDefaultsAreTheOnesTheirHelpNames() throws {
        let audit = try AuditCommand.parse([])
        #expect(audit.maxSamples == 20)
        #expect(audit.failOn == "all")
        #expect(Self.help(AuditCommand.self).contains("or 'all'. (default: all)"))
        #expect(Self.help(AuditCommand.self).contains("(counts are always exact). (default: 20)"))
        #expect(try LintCommand.parse([]).engine == .sqlite)
        #expect(try LockOptions.parse([]).lockTimeout == 60)
        #expect(Self.help(RepairCommand.self).contains("--lock-timeout <S> Seconds to wait for another run's lock. (default: 60)"))
        let batch = try BatchCommand.Common.parse(["--entity", "Recipe"])
        #expect(batch.result == .count)
        #expect(batch.audit == .touched)
        #expect(batch.onViolation == .rollback)
        #expect(batch.maxSamples == 20)
        let update = Self.help(BatchCommand.Update.self)
        for line in ["--result <result> What to print: ids, count or status (default: count). (values: ids, count, status)",
                     "--audit <audit> Audit before commit: touched (the changed rows, the default), full, or none. (values: touched, full, none)",
                     "--on-violation <on-violation> On violations: rollback (exit 3, the default) or warn (commit, report). (values: rollback, warn)",
                     "--max-samples <max-samples> Samples per violated rule. (default: 20)"] {
            #expect(update.contains(line), "\(line)")
        }
    }

    @Test func aGivenValueWins() throws {
        let migrate = try MigrateCommand.parse(["--audit", "full", "--lock-timeout", "2.5", "--max-samples", "3", "--format", "json",
                                                "--color", "never", "--jobs", "4", "--stores", "*.sqlite", "--ddl-lock-timeout", "1"])
        #expect(migrate.audit == .full)
        #expect(migrate.lockTimeout == 2.5)
        #expect(migrate.maxSamples == 3)
        #expect(migrate.global.format == .json)
        #expect(migrate.global.color == .never)
        #expect(migrate.fleet.jobs == 4)
        #expect(migrate.postgres.ddlLockTimeout == 1)
        let audit = try AuditCommand.parse(["--max-samples", "0", "--fail-on", "1570"])
        #expect(audit.maxSamples == 0)
        #expect(audit.failOn == "1570")
        #expect(try LintCommand.parse(["--engine", "postgresql"]).engine == .postgresql)
        #expect(try LockOptions.parse(["--lock-timeout", "0"]).lockTimeout == 0)
        let batch = try BatchCommand.Common.parse(["--entity", "Recipe", "--result", "ids", "--audit", "none", "--on-violation", "warn",
                                                   "--max-samples", "1"])
        #expect(batch.result == .ids)
        #expect(batch.audit == AuditMode.none)
        #expect(batch.onViolation == .warn)
        #expect(batch.maxSamples == 1)
    }
}
