import Foundation
import GRDB
import Testing
@testable import Strata

/// `sql:` hook steps (SPEC §11.1, §11.4): placeholders resolved from a layout with names quoted and values
/// bound, locations in the hook file, and the pre-run under SQLite's authorizer.
@Suite struct SQLStepTests {
    static let yaml = """
    version: 1
    entities:
      Recipe:
        attributes:
          name: { type: string }
          rating: { type: int16, max: 5 }
        relationships:
          steps: { destination: Step, toMany: true, inverse: recipe, deleteRule: cascade }
      Dessert:
        parent: Recipe
        attributes:
          sweetness: { type: int16 }
      Step:
        attributes:
          text: { type: string }
        relationships:
          recipe: { destination: Recipe, inverse: steps, deleteRule: nullify }
    """

    static func model() throws -> Model { try ModelLoader.load(yaml: yaml, file: "1.yaml") }

    static func hook(_ sql: String, file: String = "m/h.yaml") throws -> Hook {
        let body = sql.split(separator: "\n", omittingEmptySubsequences: false).map { "      " + $0 }.joined(separator: "\n")
        return try HookLoader.load(yaml: "id: h\nafter: 1\nsteps:\n  - sql: |\n\(body)\n", file: file)
    }

    static func step(_ hook: Hook) throws -> SQLStep {
        guard case .sql(let step) = hook.steps.first else { throw Diagnostic.error("not an sql step") }
        return step
    }

    @Test func placeholdersQuoteNamesAndBindValues() throws {
        let layout = LayoutBuilder.layout(for: try Self.model())
        let step = try Self.step(try Self.hook("UPDATE {{Dessert}} SET {{Dessert.sweetness}} = {{$LEVEL}}, {{Recipe.name}} = 'it''s {{x'\nWHERE {{Dessert:filter}} AND {{Step.recipe}} IS NULL AND {{ $NOW }} > 0;".replacingOccurrences(of: "{{x'", with: "x'")))
        let expanded = try step.expanded(layout: layout, variables: ["LEVEL": "3'; DROP TABLE x"], now: 1_700_000_000)
        #expect(expanded.text.sql == """
            UPDATE "Recipe" SET "sweetness" = ?, "name" = 'it''s x'
            WHERE "_entity" IN (?) AND "recipe" IS NULL AND ? > 0;

            """)
        #expect(expanded.text.arguments == [.text("3'; DROP TABLE x"), .text("Dessert"), .real(1_700_000_000)])
        #expect(expanded.valueLabels == ["$LEVEL = '3''; DROP TABLE x'", "'Dessert'", "$NOW"])
        // A root with sub-entities filters on itself and them; a table of one entity needs no filter.
        let recipe = try Self.step(try Self.hook("DELETE FROM {{Recipe}} WHERE {{Recipe:filter}}; DELETE FROM {{Step}} WHERE {{Step:filter}};"))
        let both = try recipe.expanded(layout: layout, variables: [:], now: 0)
        #expect(both.text.sql == #"DELETE FROM "Recipe" WHERE "_entity" IN (?, ?); DELETE FROM "Step" WHERE 1;"# + "\n")
        #expect(both.text.arguments == [.text("Recipe"), .text("Dessert")])
    }

    @Test func unknownNamesAreLocatedAtTheirPlaceholder() throws {
        let layout = LayoutBuilder.layout(for: try Self.model())
        let cases: [(String, String, Int, Int)] = [
            ("UPDATE {{Recipe}} SET rating = 1;\nUPDATE {{Recipee}} SET rating = 2;", "unknown entity 'Recipee' in an sql: placeholder", 6, 14),
            ("UPDATE {{Recipe}}\n  SET {{Recipe.ratin}} = 1;", "Recipe has no property 'ratin'", 6, 13),
            ("UPDATE {{Recipe}} SET rating = {{$MISSING}};", "unknown variable '$MISSING'", 5, 38),
            ("DELETE FROM {{Recipe}} WHERE {{Recipe.steps}} = 1;", "Recipe.steps has no column in Recipe's table: it is stored in 'Step'", 5, 36),
        ]
        for (sql, message, line, column) in cases {
            let step = try Self.step(try Self.hook(sql))
            #expect(throws: Diagnostic.self) { try step.expanded(layout: layout, variables: [:], now: 0) }
            do {
                _ = try step.expanded(layout: layout, variables: [:], now: 0)
            } catch {
                #expect(error.message == message)
                #expect(error.location == SourceLocation(file: "m/h.yaml", line: line, column: column), "\(sql)")
            }
        }
        // lint (HookChecker) reports the same, with the file's line under it.
        let hook = try Self.hook("UPDATE {{Recipe}} SET {{Recipe.ratin}} = 1;")
        let problems = HookChecker.check(hook, against: try Self.model())
        #expect(problems.map(\.description) == [
            "m/h.yaml:5:29: error: Recipe has no property 'ratin'\n          UPDATE {{Recipe}} SET {{Recipe.ratin}} = 1;\n"
                + String(repeating: " ", count: 32) + "^\nhint: did you mean 'rating'?",
        ])
    }

    @Test func theAuthorizerRefusesWhatAStepMustNotDoAtTheStatementsLine() throws {
        let model = try Self.model()
        let layout = LayoutBuilder.layout(for: model)
        let refused: [(String, String)] = [
            ("COMMIT", "refused: transaction control and savepoints are Strata's: the step already runs in one transaction"),
            ("RELEASE x", "refused: transaction control and savepoints are Strata's: the step already runs in one transaction"),
            ("ATTACH ':memory:' AS other", "refused: ATTACH and DETACH are refused in sql: steps"),
            ("PRAGMA journal_mode = DELETE", "refused: PRAGMA journal_mode is refused in sql: steps"),
            ("SELECT name FROM pragma_table_list", "refused: pragma functions (pragma_table_list) are refused in sql: steps"),
            ("SELECT load_extension('x')", "refused: load_extension is refused in sql: steps"),
            ("UPDATE strata_metadata SET value = 'x'", "refused: writes to Strata's table 'strata_metadata' are refused"),
            ("DROP TABLE {{Step}}", "refused: creating or dropping the model's table 'Step' is refused"),
            ("ALTER TABLE {{Recipe}} RENAME TO Old", "refused: altering the model's table 'Recipe' is refused"),
            ("DROP INDEX \(layout.tables.first { $0.name == "Step" }!.indexes[0].name)", "refused: indexes and triggers of the model's table 'Step' are Strata's"),
            ("CREATE TEMP TRIGGER t AFTER DELETE ON {{Step}} BEGIN SELECT 1; END", "refused: indexes and triggers of the model's table 'Step' are Strata's"),
            ("UPDATE {{Recipe}} SET nowhere = 1", "SQL error: no such column: nowhere"),
            ("UPDATE {{Recipe}} SET name = :name", "SQL parameters (?, :name, $name, @name) are not allowed in sql: steps"),
        ]
        for (statement, message) in refused {
            let hook = try Self.hook("UPDATE {{Recipe}} SET {{Recipe.rating}} = 1; -- first\n\(statement);")
            let group = SQLPreCheck.Group(layout: layout, hooks: [hook])
            do {
                _ = try SQLPreCheck.check([group], variables: [:], now: 0)
                Issue.record("not refused: \(statement)")
            } catch let error as DiagnosticList {
                #expect(error.diagnostics.map(\.message) == [message], "\(statement)")
                #expect(error.diagnostics.first?.location == SourceLocation(file: "m/h.yaml", line: 6, column: 7), "\(statement)")
            }
        }
        // Temporary objects, new user tables, writes to model tables (triggers' included) are allowed.
        let allowed = try Self.hook("""
            CREATE TEMP TABLE keep AS SELECT {{Recipe.name}} AS name FROM {{Recipe}};
            CREATE TABLE mine (x);
            CREATE TEMP TRIGGER copy AFTER INSERT ON mine BEGIN INSERT INTO {{Step}} ({{Step.text}}) VALUES (new.x); END;
            INSERT INTO mine VALUES ('a');
            DELETE FROM {{Recipe}} WHERE {{Recipe.name}} IN (SELECT name FROM keep);
            """)
        #expect(try SQLPreCheck.check([SQLPreCheck.Group(layout: layout, hooks: [allowed])], variables: [:], now: 0).isEmpty)
    }

    @Test func theRealRunRecordsTheEntitiesWrittenTriggersIncluded() throws {
        let model = try Self.model()
        let layout = LayoutBuilder.layout(for: model)
        let queue = try DatabaseQueue()
        try queue.inDatabase { db in
            for statement in SchemaSQL.createStatements(for: layout) { try db.execute(sql: statement.sql) }
            try db.execute(sql: #"CREATE TABLE "log" ("x"); CREATE TRIGGER "t" AFTER INSERT ON "log" BEGIN INSERT INTO "Step" ("text") VALUES (new."x"); END"#)
            let authorizer = SQLAuthorizer.install(on: db, layout: layout)
            let step = try Self.step(try Self.hook("INSERT INTO log VALUES ('a'), ('b');\nSELECT count(*) FROM {{Recipe}};"))
            let outcome = try SQLStepRunner.run(try step.expanded(layout: layout, variables: [:], now: 0), of: step, source: "",
                                                in: db, authorizer: authorizer)
            #expect(SQLStepRunner.entities(writtenIn: outcome.writtenTables, layout: layout) == ["Step"])
            #expect(outcome.changes == 2)
            #expect(try Int.fetchOne(db, sql: #"SELECT count(*) FROM "Step""#) == 2)
            // Strata's own statements still run after the authorizer took over (and GRDB's schema cache follows).
            try db.execute(sql: #"CREATE TABLE "later" ("y")"#)
            #expect(try db.tableExists("later"))
        }
    }

    @Test func aConstraintFailureIsAViolationAndOtherErrorsAreLocated() throws {
        let layout = LayoutBuilder.layout(for: try Self.model())
        let queue = try DatabaseQueue()
        try queue.inDatabase { db in
            for statement in SchemaSQL.createStatements(for: layout) { try db.execute(sql: statement.sql) }
            let authorizer = SQLAuthorizer.install(on: db, layout: layout)
            let unique = try Self.step(try Self.hook("INSERT INTO {{Step}} (_pk) VALUES (1);\nINSERT INTO {{Step}} (_pk) VALUES (1);"))
            do {
                _ = try SQLStepRunner.run(try unique.expanded(layout: layout, variables: [:], now: 0), of: unique, source: "",
                                          in: db, authorizer: authorizer)
                Issue.record("no error")
            } catch let error as SQLStepError {
                #expect(error.kind == .violation(code: 1551))
                #expect(error.exitCode == .validationViolations)
                #expect(error.location == SourceLocation(file: "m/h.yaml", line: 6, column: 7))
            }
            let overflow = try Self.step(try Self.hook("UPDATE {{Step}} SET {{Step.text}} = abs(-9223372036854775807 - _pk);"))
            do {
                _ = try SQLStepRunner.run(try overflow.expanded(layout: layout, variables: [:], now: 0), of: overflow, source: "",
                                          in: db, authorizer: authorizer)
                Issue.record("no error")
            } catch let error as SQLStepError {
                #expect(error.kind == .invalid)
                #expect(error.message == "SQL error: integer overflow")
                #expect(error.location == SourceLocation(file: "m/h.yaml", line: 5, column: 7))
            }
        }
    }

    @Test func whatAnEarlierStepCreatedIsThereForALaterStepsPreCheck() throws {
        let layout = LayoutBuilder.layout(for: try Self.model())
        let first = try Self.hook("CREATE TABLE keep (n TEXT);\nCREATE TEMP TABLE scratch (n TEXT);\nINSERT INTO keep SELECT {{Recipe.name}} FROM {{Recipe}};")
        var second = try Self.hook("UPDATE {{Recipe}} SET {{Recipe.rating}} = 1 WHERE {{Recipe.name}} IN (SELECT n FROM keep UNION SELECT n FROM scratch);")
        second.id = "later"
        let groups = [SQLPreCheck.Group(layout: layout, hooks: [first]), SQLPreCheck.Group(layout: layout, hooks: [second])]
        #expect(try SQLPreCheck.check(groups, variables: [:], now: 0).isEmpty)
        // Alone, the later step names a table nothing created: exit 2 at its statement.
        #expect(throws: DiagnosticList.self) { try SQLPreCheck.check([groups[1]], variables: [:], now: 0) }
    }

    @Test func aNULCharacterIsAnErrorNotALoop() throws {
        let layout = LayoutBuilder.layout(for: try Self.model())
        let hook = try HookLoader.load(yaml: "id: h\nafter: 1\nsteps:\n  - sql: \"UPDATE {{Step}} SET text = 'a';\\0 DELETE FROM {{Step}};\"\n",
                                       file: "m/h.yaml")
        do {
            _ = try SQLPreCheck.check([SQLPreCheck.Group(layout: layout, hooks: [hook])], variables: [:], now: 0)
            Issue.record("no error")
        } catch let error as DiagnosticList {
            #expect(error.diagnostics.map(\.message) == ["the SQL text contains a NUL character"])
        }
    }

    @Test func lintWarnsWhenASubEntitysTableIsWrittenWithoutItsFilter() throws {
        let layout = LayoutBuilder.layout(for: try Self.model())
        let bare = try Self.hook("UPDATE {{Dessert}} SET {{Dessert.sweetness}} = 1;")
        let warnings = try SQLPreCheck.check([SQLPreCheck.Group(layout: layout, hooks: [bare])], variables: [:], now: 0)
        #expect(warnings.map(\.message) == ["this step writes {{Dessert}}, the table 'Recipe' that Dessert shares with the other entities of Recipe's hierarchy, without {{Dessert:filter}}"])
        #expect(warnings.first?.location == SourceLocation(file: "m/h.yaml", line: 5, column: 14))
        let filtered = try Self.hook("UPDATE {{Dessert}} SET {{Dessert.sweetness}} = 1 WHERE {{Dessert:filter}};")
        #expect(try SQLPreCheck.check([SQLPreCheck.Group(layout: layout, hooks: [filtered])], variables: [:], now: 0).isEmpty)
    }
}
