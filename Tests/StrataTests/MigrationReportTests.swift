import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import Strata
@testable import StrataCore

@Suite struct MigrationReportTests {
    static let notes = "removeAttribute Ingredient.notes: removed with its values [destructive]"

    /// A dry run from v1 to v3: v1 → v2 rebuilds Ingredient and drops its notes; the hook after v2 is
    /// clean; the hook after v3 breaks `rating max 5` and rolls back with the step v2 → v3.
    static func migration() -> MigrationRunReport {
        var m = MigrationRunReport(store: "app.sqlite", dryRun: true, targetVersion: 3, now: 1_717_243_200)
        m.storeUUID = "u"
        m.fromVersion = 1
        m.toVersion = 2
        var first = StepReport(
            fromVersion: 1, toVersion: 2, metadataOnly: false,
            changes: ["addAttribute Recipe.favorite: new bool", notes],
            tables: [TableAction(table: "Ingredient", sourceTable: "Ingredient", kind: .rebuild, reasons: ["column notes dropped"]),
                     TableAction(table: "Recipe", sourceTable: "Recipe", kind: .alter, reasons: ["column favorite added"])],
            rowsCopied: ["Ingredient": 1204],
            destructive: [.init(change: notes, count: 312, sampleValues: ["\"fresh\"", "\"diced\""])],
            sql: ["CREATE TABLE \"_strata_new_Ingredient\" (\"_pk\" INTEGER PRIMARY KEY AUTOINCREMENT, \"name\" TEXT)",
                  "INSERT INTO \"_strata_new_Ingredient\" (\"_pk\", \"name\") SELECT \"_pk\", \"name\" FROM \"Ingredient\"",
                  "ALTER TABLE \"Recipe\" ADD COLUMN \"favorite\" INTEGER NOT NULL DEFAULT 0"],
            duration: 0.42)
        first.committed = true
        let second = StepReport(
            fromVersion: 2, toVersion: 3, metadataOnly: false, changes: ["addIndex Recipe.lastUsed: new index"],
            tables: [TableAction(table: "Recipe", sourceTable: "Recipe", kind: .alter, reasons: ["index on lastUsed"])],
            rowsCopied: [:], destructive: [],
            sql: ["CREATE INDEX \"Recipe_lastUsed\" ON \"Recipe\" (\"lastUsed\") -- <b>"], duration: 0.003)
        m.steps = [first, second]
        let clean = AuditResult(storeUUID: "u", modelVersion: 2, scope: "touched", maxSamples: 20, rules: [
            AuditRuleResult(entity: "Recipe", property: "rating", rule: "max", code: .tooLarge, constraint: "max 5", count: 0, samples: []),
        ])
        let violated = AuditResult(storeUUID: "u", modelVersion: 3, scope: "touched", maxSamples: 20, rules: [
            AuditRuleResult(entity: "Recipe", property: "rating", rule: "max", code: .tooLarge, constraint: "max 5", count: 2,
                            samples: [AuditSample(objectID: "x-strata://u/Recipe/p3", value: "6"),
                                      AuditSample(objectID: "x-strata://u/Recipe/p9", value: "7")]),
        ])
        m.hooks = [
            HookRunResult(id: "favorite-recent-recipes", after: 2, file: "migrations/favorite.yaml", checksum: "c1", onViolation: .rollback,
                          steps: [HookStepResult(kind: "batchUpdate", entity: "Recipe", count: 83, objectIDs: nil,
                                                 updatedCounts: ["Recipe": 83], deletedCounts: [:], duration: 0.01)],
                          rowsAffected: 83, audit: clean, committed: true),
            HookRunResult(id: "cap-ratings", after: 3, file: "migrations/cap.yaml", checksum: "c2", onViolation: .rollback,
                          steps: [HookStepResult(kind: "batchUpdate", entity: "Recipe", count: 2,
                                                 objectIDs: [ObjectID(uri: "x-strata://u/Recipe/p3")!, ObjectID(uri: "x-strata://u/Recipe/p9")!],
                                                 updatedCounts: ["Recipe": 2], deletedCounts: [:], duration: 0.002)],
                          rowsAffected: 2, audit: violated, committed: false),
        ]
        m.changes.updatedCounts = ["Recipe": 83]
        m.warnings = ["hook 'old-cleanup' was applied but its file is gone"]
        return m
    }

    static let report = Report(title: "Strata migrate", migration: migration())

    @Test func textIsAPlanWithHooksAfterTheirSteps() {
        #expect(Self.report.render(as: .text) == """
            Dry run: store app.sqlite at v1 → v3, stopped at v2 ($NOW = 2024-06-01T12:00:00Z)

            v1 → v2: rebuild Ingredient (1,204 rows copied), alter Recipe
              addAttribute Recipe.favorite: new bool
              [destructive] removeAttribute Ingredient.notes: 312 values dropped (e.g. "fresh", "diced")
              rebuild Ingredient: column notes dropped
              alter Recipe: column favorite added
              3 SQL statements, 420 ms

            hook favorite-recent-recipes (after v2): batchUpdate Recipe: 83 objects; audit: 0 violations

            v2 → v3: alter Recipe
              addIndex Recipe.lastUsed: new index
              alter Recipe: index on lastUsed
              1 SQL statement, 3 ms; rolled back

            hook cap-ratings (after v3): batchUpdate Recipe: 2 objects; audit: 2 violations; rolled back with its version step
              Recipe
                rating max 5: 2 violations [1610 number too large]
                  x-strata://u/Recipe/p3 = "6"
                  x-strata://u/Recipe/p9 = "7"

            Changed objects:
              Recipe: 83 updated

            warning: hook 'old-cleanup' was applied but its file is gone

            """)
    }

    @Test func textOfACreatedStoreAndOfNothingToDo() {
        var created = MigrationRunReport(store: "new.sqlite", dryRun: false, targetVersion: 4, now: 0)
        created.created = true
        created.notNeededHooks = ["favorite-recent-recipes"]
        created.storeUUID = "6f1c"
        #expect(Report(title: "t", migration: created).render(as: .text) == """
            Migration: created store new.sqlite at v4 (UUID 6f1c)
            Hooks recorded as not needed: favorite-recent-recipes

            """)
        var idle = MigrationRunReport(store: "app.sqlite", dryRun: false, targetVersion: 4, now: 0)
        idle.fromVersion = 4
        idle.toVersion = 4
        idle.nothingToDo = true
        idle.waitedForLock = true
        #expect(Report(title: "t", migration: idle).render(as: .text) == """
            Migration: store app.sqlite is at v4, nothing to do
            Waited for another run's lock.

            """)
    }

    @Test func theMigrationComesBeforeTheAudit() {
        let text = Report(title: "t", migration: Self.migration(), audit: ReportTests.small).render(as: .text)
        let migration = try! #require(text.range(of: "Dry run: store app.sqlite"))
        let audit = try! #require(text.range(of: "\n\nAudit: 3 rules checked"))
        #expect(migration.upperBound < audit.lowerBound)
        #expect(text.contains("warning: hook 'old-cleanup' was applied but its file is gone\n\nAudit: 3 rules checked, 2 violated, 4 violations (scope full, store u, model version 4)\n"))
        let md = Report(title: "t", migration: Self.migration(), audit: ReportTests.small).render(as: .markdown)
        #expect(md.contains("> ⚠️ hook 'old-cleanup' was applied but its file is gone\n\n❌ **Audit:** 3 rules checked"))
    }

    @Test func aHookRolledBackForViolationsIsAFailure() {
        #expect(Self.report.hasFailures)
        var warned = Self.migration()
        warned.steps[1].committed = true
        warned.hooks[1].committed = true
        warned.hooks[1].onViolation = .warn
        #expect(!Report(title: "t", migration: warned).hasFailures)
        #expect(Report(title: "t", migration: warned).render(as: .text).contains(
            "hook cap-ratings (after v3): batchUpdate Recipe: 2 objects; audit: 2 violations; warned (onViolation: warn)\n"))
        var noAudit = Self.migration()
        noAudit.hooks[1].audit = nil
        #expect(!Report(title: "t", migration: noAudit).hasFailures)
        // A failing top-level audit still fails the report.
        #expect(Report(title: "t", migration: warned, audit: ReportTests.small).hasFailures)
    }

    @Test(arguments: [(0, "0"), (999, "999"), (1000, "1,000"), (1204, "1,204"), (1_234_567, "1,234,567"), (-45_000, "-45,000")])
    func numbersAreGroupedByThousands(n: Int, text: String) {
        #expect(MigrationText.number(n) == text)
    }

    // MARK: JSON

    @Test func jsonHasTheWholeReportUnderMigration() throws {
        let m = Self.migration()
        let json = Self.report.render(as: .json)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(Set(document.keys) == ["schemaVersion", "title", "passed", "migration"])
        #expect(document["schemaVersion"] as? Int == 1)
        #expect(document["passed"] as? Bool == false)
        let migration = try #require(document["migration"] as? [String: Any])
        #expect(migration["store"] as? String == "app.sqlite")
        #expect(migration["storeUUID"] as? String == "u")
        #expect(migration["dryRun"] as? Bool == true)
        #expect(migration["created"] as? Bool == false)
        #expect(migration["nothingToDo"] as? Bool == false)
        #expect(migration["fromVersion"] as? Int == 1)
        #expect(migration["toVersion"] as? Int == 2)
        #expect(migration["targetVersion"] as? Int == 3)
        #expect(migration["now"] as? String == "2024-06-01T12:00:00Z")
        #expect(migration["backup"] is NSNull)
        #expect(migration["warnings"] as? [String] == m.warnings)
        #expect(migration["notNeededHooks"] as? [String] == [])

        let steps = try #require(migration["steps"] as? [[String: Any]])
        #expect(steps.count == 2)
        #expect(steps[0]["rowsCopied"] as? [String: Int] == ["Ingredient": 1204])
        #expect((steps[0]["tables"] as? [[String: Any]])?.map { $0["kind"] as? String } == ["rebuild", "alter"])
        let destructive = try #require((steps[0]["destructive"] as? [[String: Any]])?.first)
        #expect(destructive["count"] as? Int == 312)
        #expect(destructive["sampleValues"] as? [String] == ["\"fresh\"", "\"diced\""])
        #expect(steps[0]["sql"] as? [String] == m.steps[0].sql)
        #expect(steps[0]["duration"] as? Double == 0.42)
        #expect(steps.map { $0["committed"] as? Bool } == [true, false])
        // The steps are exactly their Codable form.
        let decodedSteps = try JSONDecoder().decode([StepReport].self, from: JSONSerialization.data(withJSONObject: steps))
        #expect(decodedSteps == m.steps)

        let hooks = try #require(migration["hooks"] as? [[String: Any]])
        #expect(hooks.map { $0["id"] as? String } == ["favorite-recent-recipes", "cap-ratings"])
        #expect(hooks.map { $0["outcome"] as? String } == ["committed", "rolledBack"])
        #expect(hooks.map { $0["violations"] as? Int } == [0, 2])
        #expect(hooks.map { $0["rowsAffected"] as? Int } == [83, 2])
        #expect(hooks.map { $0["committed"] as? Bool } == [true, false])
        #expect(hooks.map { $0["onViolation"] as? String } == ["rollback", "rollback"])
        let hookSteps = hooks.map { ($0["steps"] as? [[String: Any]])?.first }
        #expect(hookSteps[0]?["objectIDs"] is NSNull)
        #expect(hookSteps[1]?["objectIDs"] as? [String] == ["x-strata://u/Recipe/p3", "x-strata://u/Recipe/p9"])
        // A hook's audit has the shape of the top-level audit.
        let audit = try #require(hooks[1]["audit"] as? [String: Any])
        #expect(audit["totalViolations"] as? Int == 2)
        #expect(audit["failingRules"] as? Int == 1)
        #expect((audit["rules"] as? [[String: Any]])?.first?["failing"] as? Bool == true)
        // ... and still decodes as the hook's result.
        let decodedHooks = try JSONDecoder().decode([HookRunResult].self, from: JSONSerialization.data(withJSONObject: hooks))
        #expect(decodedHooks == m.hooks)

        let changes = try #require(migration["changes"] as? [String: Any])
        #expect(changes["updatedCounts"] as? [String: Int] == ["Recipe": 83])
        #expect(changes["updated"] as? [String: [String]] == [:])
        #expect(changes["hasObjectIDs"] as? Bool == false)
    }

    @Test func jsonChangeSetsListObjectIDURIs() throws {
        var m = Self.migration()
        m.changes = ChangeSet()
        m.changes.hasObjectIDs = true
        m.changes.add(updated: [ObjectID(storeUUID: "u", entity: "Recipe", primaryKey: 4)])
        m.changes.add(deleted: [ObjectID(storeUUID: "u", entity: "Tag", primaryKey: 2)])
        let json = Report(title: "t", migration: m, audit: ReportTests.small).render(as: .json)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(document["audit"] is [String: Any])
        let changes = try #require((document["migration"] as? [String: Any])?["changes"] as? [String: Any])
        #expect(changes["updated"] as? [String: [String]] == ["Recipe": ["x-strata://u/Recipe/p4"]])
        #expect(changes["deleted"] as? [String: [String]] == ["Tag": ["x-strata://u/Tag/p2"]])
        #expect(changes["deletedCounts"] as? [String: Int] == ["Tag": 1])
    }

    // MARK: JUnit

    @Test func junitHasATestCasePerStepAndHook() {
        let parsed = XMLCollector.parse(Self.report.render(as: .junit))
        #expect(parsed.error == nil)
        // Times are the steps' and hooks' real durations (seconds, 3 decimals), the suite and the run take the steps' time, which includes their hooks'.
        #expect(parsed.named("testsuites") == [["name": "Strata migrate", "tests": "4", "failures": "2", "errors": "0", "time": "0.423"]])
        #expect(parsed.named("testsuite") == [["name": "migration", "tests": "4", "failures": "2", "errors": "0", "skipped": "0", "time": "0.423"]])
        #expect(parsed.named("testcase").first?["time"] == "0.420")
        #expect(parsed.named("testcase").map { $0["name"]! } == ["v1 → v2", "v2 → v3", "hook favorite-recent-recipes (after v2)", "hook cap-ratings (after v3)"])
        #expect(parsed.named("testcase").allSatisfy { $0["classname"] == "migration" })
        #expect(parsed.named("failure").map { $0["message"]! } == ["v2 → v3 was rolled back", "rolled back with its version step: 2 violations"])
        #expect(parsed.named("system-out").count == 4)
        #expect(parsed.text.contains("tables: rebuild Ingredient (1,204 rows copied), alter Recipe\ndestructive: removeAttribute Ingredient.notes: 312 values dropped (e.g. \"fresh\", \"diced\")\n3 SQL statements, 420 ms"))
        #expect(parsed.text.contains("batchUpdate Recipe: 83 objects\nrows affected: 83\naudit: 0 violations\noutcome: ok (onViolation: rollback)"))
        #expect(parsed.text.contains("2 × 1610 number too large (Recipe.rating: max 5)\n  x-strata://u/Recipe/p3 = \"6\"\n  x-strata://u/Recipe/p9 = \"7\""))
        var capped = Self.migration()
        capped.hooks[1].audit!.rules[0].count = 5
        let cappedText = XMLCollector.parse(Report(title: "t", migration: capped).render(as: .junit)).text
        #expect(cappedText.contains("  x-strata://u/Recipe/p9 = \"7\"\n  … and 3 more"))
    }

    @Test(arguments: [(nil, 1), (Set<AuditCode>([.tooLarge]), 1), (Set<AuditCode>([.tooShort]), 0)] as [(Set<AuditCode>?, Int)])
    func junitFailsAWarnedHookWhoseViolationsAreFailing(failOn: Set<AuditCode>?, failures: Int) {
        var warned = Self.migration()
        warned.steps[1].committed = true
        warned.hooks[1].committed = true
        warned.hooks[1].onViolation = .warn
        let parsed = XMLCollector.parse(Report(title: "t", migration: warned, failOn: failOn).render(as: .junit))
        #expect(parsed.error == nil)
        #expect(parsed.named("failure").count == failures)
        #expect(parsed.text.contains("outcome: warned (onViolation: warn)"))
    }

    @Test func junitPutsTheMigrationSuiteBeforeTheAuditSuites() {
        let parsed = XMLCollector.parse(Report(title: "t", migration: Self.migration(), audit: ReportTests.small).render(as: .junit))
        #expect(parsed.error == nil)
        #expect(parsed.named("testsuite").map { $0["name"]! } == ["migration", "audit.Recipe"])
        #expect(parsed.named("testsuites").first?["tests"] == "7")
    }

    // MARK: Markdown

    @Test func markdownHasAStepTableAHookTableAndSQLDetails() {
        let md = Self.report.render(as: .markdown)
        #expect(md.hasPrefix("## Strata migrate\n\n### Migration plan (dry run)\n\n❌ **Dry run:** store app.sqlite at v1 → v3, stopped at v2 ($NOW = 2024-06-01T12:00:00Z)\n"))
        let rows = md.split(separator: "\n").filter { $0.hasPrefix("|") }.map(String.init)
        #expect(rows == [
            "| Step | Tables | Rows copied | Destructive | Outcome |",
            "|---|---|---:|---|---|",
            "| v1 → v2 | rebuild Ingredient, alter Recipe | 1,204 | removeAttribute Ingredient.notes: 312 values dropped (e.g. \"fresh\", \"diced\") | ok |",
            "| v2 → v3 | alter Recipe | — | — | ❌ rolled back |",
            "| Hook | After | Matched rows | Violations | Outcome |",
            "|---|---|---:|---:|---|",
            "| `favorite-recent-recipes` | v2 | 83 | 0 | ok |",
            "| `cap-ratings` | v3 | 2 | 2 | ❌ rolled back |",
            "| Hook | Entity | Rule | Code | Count | Status | Samples |",
            "|---|---|---|---:|---:|---|---|",
            "| `cap-ratings` | Recipe | rating max 5 | 1610 | 2 | failure | `x-strata://u/Recipe/p3` \"6\"<br>`x-strata://u/Recipe/p9` \"7\" |",
        ])
        #expect(md.contains("""
            <details><summary>SQL of v2 → v3 (1 statement)</summary>

            ```sql
            CREATE INDEX "Recipe_lastUsed" ON "Recipe" ("lastUsed") -- <b>
            ```

            </details>
            """))
        #expect(md.components(separatedBy: "<details>").count == 3)
        #expect(md.hasSuffix("**Changed objects:** Recipe 83 updated\n\n> ⚠️ hook 'old-cleanup' was applied but its file is gone\n"))
    }

    @Test func markdownFencesSQLThatContainsBackticks() {
        var m = Self.migration()
        m.steps = [m.steps[1]]
        m.steps[0].sql = ["SELECT '```'"]
        #expect(Report(title: "t", migration: m).render(as: .markdown).contains("````sql\nSELECT '```'\n````"))
    }

    // MARK: HTML

    @Test func htmlIsWellFormedSelfContainedAndHasTheStepAndHookRows() {
        let html = Report(title: "Strata migrate", migration: Self.migration(), audit: ReportTests.small).render(as: .html)
        let parsed = XMLCollector.parse(html)
        #expect(parsed.error == nil)
        let names = Set(parsed.elements.map(\.name))
        #expect(names.isSuperset(of: ["details", "summary", "pre", "code", "table"]))
        #expect(names.isDisjoint(with: ["script", "link", "img", "iframe", "object", "embed"]))
        #expect(!parsed.elements.contains { $0.attributes.keys.contains { ["src", "href", "xlink:href"].contains($0) } })
        #expect(!html.contains("http://") && !html.contains("https://") && !html.contains("url("))
        #expect(parsed.named("details").count == 2)
        #expect(html.contains(#"<tr><td>v1 → v2</td><td>rebuild Ingredient<br/>alter Recipe</td><td class="num">1,204</td><td><span class="warning">removeAttribute Ingredient.notes: 312 values dropped (e.g. &quot;fresh&quot;, &quot;diced&quot;)</span></td><td class="num">3</td><td class="num">420 ms</td><td class="ok">ok</td></tr>"#))
        #expect(html.contains(#"<tr><td>v2 → v3</td><td>alter Recipe</td><td class="num">—</td><td>—</td><td class="num">1</td><td class="num">3 ms</td><td class="failure">rolled back</td></tr>"#))
        #expect(html.contains(#"<tr><td><code>favorite-recent-recipes</code></td><td>v2</td><td>batchUpdate Recipe: 83 objects</td><td class="num">83</td><td class="num">0</td><td class="ok">ok</td></tr>"#))
        #expect(html.contains(#"<tr><td><code>cap-ratings</code></td><td>v3</td><td>batchUpdate Recipe: 2 objects</td><td class="num">2</td><td class="num">2</td><td class="failure">rolled back</td></tr>"#))
        // SQL is escaped inside its <details>, and the migration comes before the audit.
        #expect(parsed.text.contains(#"CREATE INDEX "Recipe_lastUsed" ON "Recipe" ("lastUsed") -- <b>"#))
        let migration = html.range(of: "<h2>Migration plan (dry run)</h2>")!
        let audit = html.range(of: "<h2>Validation audit</h2>")!
        #expect(migration.upperBound < audit.lowerBound)
    }
}
