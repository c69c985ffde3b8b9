import Foundation
import Testing
import StrataTestSupport

/// A number compared with a date is a type error (SPEC §10), like a number compared with a string: `rating ==
/// $NOW` type-checked and compared an int16 with seconds since 1970. It is exit 2 at the date's column wherever
/// a predicate is written (`--where` of batch update and delete, a hook's batch requests, a model's validation
/// rules, a mapping file's `filter:`), found by `lint` in files, before any write; nothing is written. A number
/// literal still compares with a date as seconds since 1970, and a date minus a date is a number.
@Suite struct NumberDateComparisonCLITests {
    static let model1 = """
    version: 1
    entities:
      Food:
        attributes:
          name:     { type: string }
          rating:   { type: int16 }
          lastUsed: { type: date }
    """
    static let model2 = model1.replacingOccurrences(of: "version: 1", with: "version: 2")

    /// A project with a store at version 1 holding two foods; `files` are written into it after.
    static func project(files: [String: String] = [:]) throws -> String {
        let dir = try CLI.project("number-date", models: ["1.yaml": model1, "2.yaml": model2])
        let created = try CLI.run(["migrate", "--create", "--to", "1", "--store", "s.sqlite"], in: dir)
        #expect(created.status == 0, "\(created.stderr)")
        try E2E.execute(dir + "/s.sqlite", #"INSERT INTO "Food" ("_pk", "name", "rating", "lastUsed") VALUES (1, 'Soup', 5, 1716249600), (2, 'Tea', 7, NULL)"#)
        for (name, text) in files { try text.write(toFile: dir + "/" + name, atomically: true, encoding: .utf8) }
        return dir
    }

    @Test(arguments: [
        ("rating == $NOW", "predicate:1:11: error: cannot compare rating (int16) with $NOW (date)"),
        ("$NOW > rating", "predicate:1:8: error: cannot compare $NOW (date) with rating (int16)"),
        ("rating >= now()", "predicate:1:11: error: cannot compare rating (int16) with $NOW (date)"),
        ("rating IN {1, $NOW}", "predicate:1:15: error: cannot compare rating (int16) with $NOW (date)"),
        ("rating BETWEEN {lastUsed, 5}", "predicate:1:17: error: cannot compare rating (int16) with lastUsed (date)"),
        ("lastUsed - $NOW < lastUsed", "predicate:1:19: error: cannot compare lastUsed - $NOW (double) with lastUsed (date)"),
    ])
    func aCommandLinePredicateIsExit2(predicate: String, message: String) throws {
        let dir = try Self.project()
        let before = E2E.storeHashes(dir + "/s.sqlite")
        for command in [["batch", "update", "--entity", "Food", "--set", "name=x"], ["batch", "delete", "--entity", "Food"]] {
            let run = try CLI.run(command + ["--where", predicate, "--now", "2024-05-21T00:00:00Z", "--store", "s.sqlite"], in: dir)
            #expect(run.status == 2, "\(command): \(run.stderr)")
            #expect(run.stdout == "")
            #expect(run.stderr.hasPrefix(message + "\n"), "\(command): \(run.stderr)")
        }
        #expect(E2E.storeHashes(dir + "/s.sqlite") == before)
    }

    /// A literal number is seconds since 1970 next to a date, and a date minus a date a number: both still run.
    @Test func literalSecondsAndDateDifferencesStillCompare() throws {
        let dir = try Self.project()
        for (predicate, ids) in [("lastUsed == 1716249600", "p1"), ("lastUsed - $NOW == 0", "p1"), ("rating - 7 == 0", "p2")] {
            let run = try CLI.run(["batch", "update", "--entity", "Food", "--set", "name=x", "--where", predicate, "--result", "ids",
                                   "--now", "2024-05-21T00:00:00Z", "--store", "s.sqlite"], in: dir)
            #expect(run.status == 0, "\(predicate): \(run.stderr)")
            #expect(run.stdout.hasSuffix("/Food/\(ids)\n") && run.stdout.split(separator: "\n").count == 1, "\(predicate): \(run.stdout)")
        }
    }

    @Test func aHookPredicateIsExit2AtLintAndMigrate() throws {
        let hook = """
            id: h
            after: 2
            steps:
              - batchUpdate: { entity: Food, predicate: "name == 'Soup'", propertiesToUpdate: { name: x } }
              - batchDelete: { entity: Food, predicate: "rating == $NOW" }
            """
        let dir = try Self.project(files: ["migrations/h.yaml": hook])
        let lint = try CLI.run(["lint"], in: dir)
        #expect(lint.status == 2)
        #expect(lint.stderr.hasPrefix("migrations/h.yaml:5:56: error: cannot compare rating (int16) with $NOW (date)\n"), "\(lint.stderr)")
        let before = E2E.storeHashes(dir + "/s.sqlite")
        let migrate = try CLI.run(["migrate", "--store", "s.sqlite"], in: dir)
        #expect(migrate.status == 2)
        #expect(migrate.stderr.hasPrefix("migrations/h.yaml:5:56: error: cannot compare rating (int16) with $NOW (date)\n"), "\(migrate.stderr)")
        #expect(E2E.storeHashes(dir + "/s.sqlite") == before)
    }

    /// A model's validation rule (the audit's 1550) is checked when the model is read.
    @Test func aValidationPredicateIsExit2() throws {
        let model2 = Self.model2 + "\n    validation:\n      - { predicate: \"rating < $NOW\", message: \"too high\" }\n"
        let dir = try CLI.project("number-date-validation", models: ["1.yaml": Self.model1, "2.yaml": model2])
        let lint = try CLI.run(["lint"], in: dir)
        #expect(lint.status == 2)
        #expect(lint.stderr.hasPrefix("models/2.yaml:9:32: error: cannot compare rating (int16) with $NOW (date)\n"), "\(lint.stderr)")
        let create = try CLI.run(["migrate", "--create", "--store", "s.sqlite"], in: dir)
        #expect(create.status == 2)
        #expect(!FileManager.default.fileExists(atPath: dir + "/s.sqlite"))
    }

    /// A mapping file's `filter:` over the source row.
    @Test func aMappingFilterIsExit2() throws {
        let mapping = MappingProject.mapping.replacingOccurrences(of: "deleted == NO", with: "total > $NOW")
        let (dir, store) = try MappingProject.make(["v2.yaml": mapping])
        let before = E2E.storeHashes(store)
        for args in [["lint"], ["migrate", "--store", "app.sqlite"]] {
            let run = try CLI.run(args, in: dir)
            #expect(run.status == 2, "\(args): \(run.stderr)")
            #expect(run.stderr.contains("migrations/v2.yaml:4:22: error: cannot compare total (int64) with $NOW (date)"), "\(args): \(run.stderr)")
        }
        #expect(E2E.storeHashes(store) == before)
    }
}
