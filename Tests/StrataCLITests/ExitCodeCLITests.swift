import Foundation
import Testing

/// Issue 12 (items 20, 21, 22): one JSON document for every error, one exit code per condition,
/// honest JSON and JUnit reports, history in time order. The real binary on temporary projects.
@Suite struct ExitCodeCLITests {
    /// Parses stdout as the one JSON error document and returns its `error` object.
    static func errorDocument(_ r: CLI.Result) throws -> [String: Any] {
        let doc = try CLI.json(r.stdout)
        #expect(doc["schemaVersion"] as? Int == 1)
        return doc["error"] as? [String: Any] ?? [:]
    }

    @Test(arguments: [
        ["audit", "--store", "s.sqlite", "--report-format", "pdf", "--format", "json"],
        ["migrate", "--lock-timeout", "abc", "--format=json"],
        ["--format", "json", "diff", "one", "4"],
        ["lint", "--format", "json", "--no-such-flag"],
        ["migrate", "--format", "json", "--store"],
        ["status", "--format", "json", "--var", "novalue"],
    ])
    func argumentErrorsAreOneJSONDocument(_ args: [String]) throws {
        let dir = try CLI.exampleProject()
        let r = try CLI.run(args, in: dir)
        #expect(r.status == 2)
        let error = try Self.errorDocument(r)
        #expect(error["exitCode"] as? Int == 2)
        let diagnostics = error["diagnostics"] as? [[String: Any]] ?? []
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?["severity"] as? String == "error")
        #expect((diagnostics.first?["message"] as? String)?.isEmpty == false)
        #expect(diagnostics.first?["hint"] as? String == "see `strata help` for usage")
        // Exactly one document: stdout parses as a whole.
        #expect(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) is [String: Any])
    }

    @Test func textFormatArgumentErrorsStayOnStderr() throws {
        let dir = try CLI.exampleProject()
        let r = try CLI.run(["migrate", "--lock-timeout", "abc", "--format", "text"], in: dir)
        #expect(r.status == 2)
        #expect(r.stdout == "")
        #expect(r.stderr.hasPrefix("error: "))
    }

    /// The example's v4 as v5 with `Recipe.notes` changed from string to int32 (not inferable), its
    /// leading comment dropped so that `notes` sits on line 9.
    static var notInferableV5: String {
        let v4 = (try? String(contentsOfFile: CLI.packageRoot + "/models/4.yaml", encoding: .utf8)) ?? ""
        return v4.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("#") }
            .joined(separator: "\n")
            .replacingOccurrences(of: "version: 4", with: "version: 5")
            .replacingOccurrences(of: "notes:    { type: string, maxLength: 2000 }", with: "notes:    { type: int32 }")
    }

    @Test func lintGivesANonInferableStepExit4LikeDiffAndMigrate() throws {
        let dir = try CLI.exampleProject()
        try Self.notInferableV5.write(toFile: dir + "/models/5.yaml", atomically: true, encoding: .utf8)
        let lint = try CLI.run(["lint"], in: dir)
        #expect(lint.status == 4)
        #expect(lint.stderr.contains("models/5.yaml:9:"))
        #expect(lint.stderr.contains("error: v4 → v5: Recipe.notes:"))
        #expect(lint.stdout.hasSuffix("1 error(s), 0 warning(s)\n"))
        let diff = try CLI.run(["diff", "4", "5"], in: dir)
        #expect(diff.status == 4)
        let json = try CLI.run(["lint", "--format", "json"], in: dir)
        #expect(json.status == 4)
        #expect(try CLI.json(json.stdout)["ok"] as? Bool == false)
    }

    @Test func lintGivesInvalidInputPrecedenceOverNonInferable() throws {
        let dir = try CLI.exampleProject()
        try Self.notInferableV5.write(toFile: dir + "/models/5.yaml", atomically: true, encoding: .utf8)
        try "after: 4\nsteps:\n  - batchUpdate: { entity: Recipe, propertiesToUpdate: { ratin: 1 } }\n"
            .write(toFile: dir + "/migrations/typo.yaml", atomically: true, encoding: .utf8)
        let lint = try CLI.run(["lint"], in: dir)
        #expect(lint.status == 2)
        #expect(lint.stdout.hasSuffix("2 error(s), 0 warning(s)\n"))
    }

    @Test func statusCheckGivesLateHooksExit6LikeMigrate() throws {
        let dir = try CLI.exampleProject()
        #expect(try CLI.run(["migrate", "--create", "--store", "s.sqlite", "--to", "2"], in: dir).status == 0)
        #expect(try CLI.run(["migrate", "--store", "s.sqlite", "--to", "3"], in: dir).status == 0)
        try "id: late-fix\nafter: 3\nsteps:\n  - batchUpdate: { entity: Recipe, propertiesToUpdate: { rating: 1 } }\n"
            .write(toFile: dir + "/migrations/late.yaml", atomically: true, encoding: .utf8)
        let check = try CLI.run(["status", "--check", "--store", "s.sqlite"], in: dir)
        #expect(check.status == 6)
        let plain = try CLI.run(["status", "--store", "s.sqlite"], in: dir)
        #expect(plain.status == 0)
        let before = E2E.storeHashes(dir + "/s.sqlite")
        let migrate = try CLI.run(["migrate", "--store", "s.sqlite"], in: dir)
        #expect(migrate.status == 6)
        #expect(E2E.storeHashes(dir + "/s.sqlite") == before)
    }

    @Test func statusCheckGivesANonInferablePendingStepExit4() throws {
        let dir = try CLI.exampleProject()
        #expect(try CLI.run(["migrate", "--create", "--store", "s.sqlite"], in: dir).status == 0)
        try Self.notInferableV5.write(toFile: dir + "/models/5.yaml", atomically: true, encoding: .utf8)
        #expect(try CLI.run(["status", "--check", "--store", "s.sqlite"], in: dir).status == 4)
        #expect(try CLI.run(["migrate", "--store", "s.sqlite"], in: dir).status == 4)
    }

    @Test func anUnwritableReportKeepsMigratesExitCode() throws {
        let dir = try CLI.exampleProject()
        #expect(try CLI.run(["migrate", "--create", "--store", "s.sqlite", "--to", "3"], in: dir).status == 0)
        let queue = try DatabaseQueueOpener.open(dir + "/s.sqlite")
        try queue.write { try $0.execute(sql: #"INSERT INTO "Recipe" ("name", "rating") VALUES ('Soup', 3)"#) }
        try queue.close()
        try "id: too-high\nafter: 4\nsteps:\n  - batchUpdate: { entity: Recipe, propertiesToUpdate: { rating: 9 } }\n"
            .write(toFile: dir + "/migrations/too-high.yaml", atomically: true, encoding: .utf8)
        let before = E2E.storeHashes(dir + "/s.sqlite")
        for format in ["text", "json"] {
            let r = try CLI.run(["migrate", "--store", "s.sqlite", "--format", format, "--report", dir + "/missing/dir/report.md"], in: dir)
            #expect(r.status == 3)
            #expect(r.stderr.contains("error: cannot write --report '\(dir)/missing/dir/report.md'"))
            #expect(E2E.storeHashes(dir + "/s.sqlite") == before)
        }
    }

    @Test func anUnwritableReportAfterASuccessfulRunIsExit1() throws {
        let dir = try CLI.exampleProject()
        let r = try CLI.run(["migrate", "--create", "--store", "s.sqlite", "--report", dir + "/missing/r.json"], in: dir)
        #expect(r.status == 1)
        #expect(r.stderr.contains("error: cannot write --report '\(dir)/missing/r.json'"))
        #expect(try E2E.rows(dir + "/s.sqlite", #"SELECT "value" FROM "strata_metadata" WHERE "key" = 'strata.version'"#) == ["4"])
    }

    @Test func anUnwritableAuditReportKeepsExit3() throws {
        let dir = try CLI.exampleProject()
        #expect(try CLI.run(["migrate", "--create", "--store", "s.sqlite"], in: dir).status == 0)
        let queue = try DatabaseQueueOpener.open(dir + "/s.sqlite")
        try queue.write { try $0.execute(sql: #"INSERT INTO "Recipe" ("name", "rating", "favorite") VALUES ('', 9, 0)"#) }
        try queue.close()
        let r = try CLI.run(["audit", "--store", "s.sqlite", "--report", dir + "/missing/audit.xml"], in: dir)
        #expect(r.status == 3)
        #expect(r.stderr.contains("error: cannot write the report to '\(dir)/missing/audit.xml'"))
        let clean = try CLI.exampleProject()
        #expect(try CLI.run(["migrate", "--create", "--store", "s.sqlite"], in: clean).status == 0)
        let ok = try CLI.run(["audit", "--store", "s.sqlite", "--report", clean + "/missing/audit.xml"], in: clean)
        #expect(ok.status == 1)
    }

    @Test func junitTimesAreRealDurations() throws {
        let dir = try CLI.exampleProject()
        #expect(try CLI.run(["migrate", "--create", "--store", "s.sqlite", "--to", "3"], in: dir).status == 0)
        let migrate = try CLI.run(["migrate", "--store", "s.sqlite", "--report", "m.xml"], in: dir)
        #expect(migrate.status == 0)
        let audit = try CLI.run(["audit", "--store", "s.sqlite", "--report", "a.xml"], in: dir)
        #expect(audit.status == 0)
        for file in ["m.xml", "a.xml"] {
            let xml = try String(contentsOfFile: dir + "/" + file, encoding: .utf8)
            let times = Self.times(in: xml)
            #expect(!times.isEmpty)
            #expect(!xml.contains("time=\"0\""))
            for time in times { #expect(time.wholeMatch(of: /[0-9]+\.[0-9]{3}/) != nil, "time=\(time)") }
        }
        // The step v3 → v4 took time: its test case says so.
        let xml = try String(contentsOfFile: dir + "/m.xml", encoding: .utf8)
        let step = try #require(xml.firstMatch(of: /name="v3 → v4" time="([0-9.]+)"/))
        #expect(Double(String(step.1))! > 0)
    }

    static func times(in xml: String) -> [String] {
        xml.matches(of: /time="([^"]*)"/).map { String($0.1) }
    }

    @Test func migrateJSONSaysItListsIDsWhenItDoes() throws {
        let dir = try CLI.exampleProject()
        #expect(try CLI.run(["migrate", "--create", "--store", "s.sqlite", "--to", "3"], in: dir).status == 0)
        let queue = try DatabaseQueueOpener.open(dir + "/s.sqlite")
        let now = Date().timeIntervalSince1970
        try queue.write { try $0.execute(sql: #"INSERT INTO "Recipe" ("name", "rating", "lastUsed") VALUES ('Soup', 3, ?)"#, arguments: [now - 86400]) }
        try queue.close()
        let r = try CLI.run(["migrate", "--store", "s.sqlite", "--format", "json", "--changes-out", "c.json"], in: dir)
        #expect(r.status == 0)
        let doc = try CLI.json(r.stdout)
        let changes = (doc["migration"] as? [String: Any])?["changes"] as? [String: Any] ?? [:]
        let updated = changes["updated"] as? [String: [String]] ?? [:]
        #expect(updated["Recipe"]?.count == 1)
        #expect(changes["hasObjectIDs"] as? Bool == true)
        let plain = try CLI.exampleProject()
        #expect(try CLI.run(["migrate", "--create", "--store", "s.sqlite", "--to", "3"], in: plain).status == 0)
        let noIDs = try CLI.run(["migrate", "--store", "s.sqlite", "--format", "json"], in: plain)
        let none = (try CLI.json(noIDs.stdout)["migration"] as? [String: Any])?["changes"] as? [String: Any] ?? [:]
        #expect(none["hasObjectIDs"] as? Bool == false)
        #expect((none["updated"] as? [String: Any])?.isEmpty == true)
    }

    @Test func historyIsInTimeOrder() throws {
        let dir = try CLI.exampleProject()
        #expect(try CLI.run(["migrate", "--create", "--store", "s.sqlite", "--to", "2"], in: dir).status == 0)
        #expect(try CLI.run(["migrate", "--store", "s.sqlite"], in: dir).status == 0)
        try "id: late-fix\nafter: 3\nsteps:\n  - batchUpdate: { entity: Recipe, propertiesToUpdate: { rating: 1 } }\n"
            .write(toFile: dir + "/migrations/late.yaml", atomically: true, encoding: .utf8)
        #expect(try CLI.run(["migrate", "--store", "s.sqlite", "--run-late-hooks"], in: dir).status == 0)
        let r = try CLI.run(["history", "--store", "s.sqlite"], in: dir)
        #expect(r.status == 0)
        let stamps = r.stdout.split(separator: "\n").map { String($0.prefix(24)) }
        #expect(stamps.count == 6)
        #expect(stamps == stamps.sorted())
        #expect(r.stdout.split(separator: "\n").last?.contains("hook     late-fix after v3: applied") == true)
        let json = try CLI.json(try CLI.run(["history", "--store", "s.sqlite", "--format", "json"], in: dir).stdout)
        let hooks = (json["hooks"] as? [[String: Any]] ?? []).compactMap { $0["finished"] as? String }
        #expect(hooks == hooks.sorted())
        #expect((json["hooks"] as? [[String: Any]])?.last?["id"] as? String == "late-fix")
    }
}

import GRDB

/// A plain connection to a test store (outside Strata), for setting up data.
enum DatabaseQueueOpener {
    static func open(_ path: String) throws -> DatabaseQueue { try DatabaseQueue(path: path) }
}

/// Issue 12 items 6, 18, 24 on the real binary: YAML null in hooks, located errors, expression-like literals.
@Suite struct HookValueCLITests {
    static func project(hook: String) throws -> String {
        let dir = try CLI.exampleProject()
        #expect(try CLI.run(["migrate", "--create", "--store", "s.sqlite", "--to", "3"], in: dir).status == 0)
        let queue = try DatabaseQueueOpener.open(dir + "/s.sqlite")
        try queue.write { try $0.execute(sql: #"INSERT INTO "Recipe" ("name", "rating", "notes") VALUES ('Soup', 3, 'salty')"#) }
        try queue.close()
        try hook.write(toFile: dir + "/migrations/set.yaml", atomically: true, encoding: .utf8)
        return dir
    }

    @Test(arguments: ["~", "null", ""])
    func yamlNullStoresNULL(_ scalar: String) throws {
        let dir = try Self.project(hook: "id: set\nafter: 4\nsteps:\n  - batchUpdate:\n      entity: Recipe\n      propertiesToUpdate:\n        notes: \(scalar)\n")
        #expect(try CLI.run(["lint"], in: dir).status == 0)
        #expect(try CLI.run(["migrate", "--store", "s.sqlite"], in: dir).status == 0)
        #expect(try E2E.rows(dir + "/s.sqlite", #"SELECT quote("notes") FROM "Recipe""#) == ["NULL"])
    }

    @Test func yamlNullOnANonOptionalAttributeIsExit2BeforeAnyWrite() throws {
        let dir = try Self.project(hook: "id: set\nafter: 4\nsteps:\n  - batchUpdate:\n      entity: Recipe\n      propertiesToUpdate: { rating: ~ }\n")
        let lint = try CLI.run(["lint"], in: dir)
        #expect(lint.status == 2)
        #expect(lint.stderr.hasPrefix("migrations/set.yaml:6:37: error: Recipe.rating is not optional: it cannot be set to nil\n"))
        let before = E2E.storeHashes(dir + "/s.sqlite")
        let migrate = try CLI.run(["migrate", "--store", "s.sqlite"], in: dir)
        #expect(migrate.status == 2)
        #expect(migrate.stderr.hasPrefix("migrations/set.yaml:6:37: error: Recipe.rating is not optional"))
        #expect(E2E.storeHashes(dir + "/s.sqlite") == before)
    }

    @Test func unknownAttributeIsLocatedInTheHookFile() throws {
        let dir = try Self.project(hook: "id: set\nafter: 4\nsteps:\n  - batchUpdate:\n      entity: Recipe\n      propertiesToUpdate:\n        ratin: 2\n")
        for command in [["lint"], ["migrate", "--store", "s.sqlite"], ["status", "--store", "s.sqlite"]] {
            let r = try CLI.run(command, in: dir)
            #expect(r.status == 2)
            #expect(r.stderr.hasPrefix("migrations/set.yaml:7:9: error: Recipe has no attribute 'ratin' (did you mean 'rating'?)\n"))
            #expect(!r.stderr.contains("value:1:1"))
        }
    }

    @Test func expressionLikeStringWarnsInLint() throws {
        let dir = try Self.project(hook: "id: set\nafter: 4\nsteps:\n  - batchUpdate:\n      entity: Recipe\n      propertiesToUpdate: { name: \"lowercase(name)\" }\n")
        let lint = try CLI.run(["lint"], in: dir)
        #expect(lint.status == 0)
        #expect(lint.stderr.hasPrefix("migrations/set.yaml:6:36: warning: 'lowercase(name)' is stored as this text in Recipe.name; it is not computed from the row\n"))
        #expect(lint.stdout.hasSuffix("0 error(s), 1 warning(s)\n"))
    }
}
