import Foundation
import GRDB
import Testing
import StrataTestSupport

/// End-to-end on the real binary (issue 12, predicate part): empty predicates, exact int64, deep
/// nesting, flat SQL, long IN lists, regexes and dates checked before any write, `$VAR days`, and a
/// small fuzz of `batch update --where`. Every refusal is exit 2 with a location and the store's bytes
/// unchanged.
@Suite(.serialized) struct PredicateCLITests {
    static let model1 = """
    version: 1
    entities:
      Food:
        attributes:
          name:     { type: string }
          calories: { type: int64 }
          rating:   { type: int16 }
          lastUsed: { type: date }
    """
    static let model2 = model1.replacingOccurrences(of: "version: 1", with: "version: 2")
        + "\n      notes:    { type: string }\n"

    /// A project with models 1 and 2 and a store at version 1 holding five foods.
    struct Project {
        var dir: String
        var store: String
        func run(_ args: [String], environment: [String: String] = [:]) throws -> CLI.Result {
            try CLI.run(args + ["--store", store], in: dir, environment: environment)
        }
        func rows(_ sql: String = "SELECT _pk, name, calories, typeof(calories), rating, lastUsed FROM Food ORDER BY _pk") throws -> [String] {
            try E2E.rows(store, sql)
        }
        func hook(_ name: String, _ yaml: String) throws {
            try yaml.write(toFile: dir + "/migrations/" + name, atomically: true, encoding: .utf8)
        }
    }

    /// With a validation predicate, model 2 is invalid: only `lint` is run, so no store is created.
    static func project(validation: String? = nil) throws -> Project {
        let dir = Temporary.directory("predicate")
        try FileManager.default.createDirectory(atPath: dir + "/models", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/migrations", withIntermediateDirectories: true)
        try model1.write(toFile: dir + "/models/1.yaml", atomically: true, encoding: .utf8)
        var second = model2
        if let validation { second += "    validation:\n      - predicate: \"\(validation)\"\n" }
        try second.write(toFile: dir + "/models/2.yaml", atomically: true, encoding: .utf8)
        let store = dir + "/s.sqlite"
        if validation != nil { return Project(dir: dir, store: store) }
        let created = try CLI.run(["migrate", "--create", "--to", "1", "--store", store], in: dir)
        #expect(created.status == 0, "\(created.stderr)")
        let queue = try DatabaseQueue(path: store)
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO Food (_pk, name, calories, rating, lastUsed) VALUES
                  (1, 'max', 9223372036854775807, 1, 1716249600), (2, 'two53', 9007199254740992, 2, 1716163200),
                  (3, 'two53+1', 9007199254740993, 3, NULL), (4, 'min', -9223372036854775808, 4, 1700000000),
                  (5, 'Soup', 5, 5, 1716249000)
                """)
        }
        try queue.close()
        return Project(dir: dir, store: store)
    }

    static let now = "2024-05-21T00:00:00Z"

    /// Runs a command that must be refused: exit 2, `expected` on stderr, the store's bytes unchanged.
    func refused(_ p: Project, _ args: [String], _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = E2E.storeHashes(p.store)
        let run = try p.run(args)
        #expect(run.status == 2, "\(args.joined(separator: " ").prefix(200)): \(run.stderr.prefix(400))", sourceLocation: sourceLocation)
        #expect(run.stderr.contains(expected), "expected \(expected) in \(run.stderr.prefix(600))", sourceLocation: sourceLocation)
        #expect(E2E.storeHashes(p.store) == before, "the store changed", sourceLocation: sourceLocation)
    }

    static func repeated(_ s: String, _ n: Int) -> String { String(repeating: s, count: n) }

    // MARK: 4

    @Test func emptyPredicatesAreExit2Everywhere() throws {
        let p = try Self.project()
        for text in ["", "   ", "\t"] {
            try refused(p, ["batch", "delete", "--entity", "Food", "--where", text], "predicate:1:1: error: empty predicate")
            try refused(p, ["batch", "update", "--entity", "Food", "--where", text, "--set", "rating=0"], "predicate:1:1: error: empty predicate")
        }
        #expect(try p.rows().count == 5)
        try p.hook("wipe.yaml", """
            id: wipe
            after: 2
            steps:
              - batchDelete:
                  entity: Food
                  predicate: ""
            """)
        let lint = try CLI.run(["lint"], in: p.dir)
        #expect(lint.status == 2)
        #expect(lint.stderr.contains("migrations/wipe.yaml:6:19: error: empty predicate"), "\(lint.stderr)")
        try refused(p, ["migrate"], "migrations/wipe.yaml:6:19: error: empty predicate")
        // All rows is still TRUEPREDICATE, or no --where.
        let all = try p.run(["batch", "update", "--entity", "Food", "--where", "TRUEPREDICATE", "--set", "rating=0", "--audit", "none"])
        #expect(all.status == 0)
        #expect(all.stdout == "5\n")
    }

    // MARK: 9

    @Test func int64IsExactEndToEnd() throws {
        let p = try Self.project()
        let update = ["batch", "update", "--entity", "Food", "--set", "rating=0", "--audit", "none", "--result", "ids", "--where"]
        for (predicate, pk) in [("calories == 9223372036854775807", 1), ("calories == 9007199254740993", 3),
                                ("calories == -9223372036854775808", 4), ("calories IN {9007199254740993, 77}", 3),
                                ("calories BETWEEN {9007199254740993, 9007199254740993}", 3), ("calories == 9007199254740992 + 1", 3)] {
            let run = try p.run(update + [predicate])
            #expect(run.status == 0, "\(predicate): \(run.stderr)")
            #expect(run.stdout.hasSuffix("/Food/p\(pk)\n"), "\(predicate): \(run.stdout)")
            #expect(run.stdout.split(separator: "\n").count == 1)
        }
        try refused(p, update + ["calories == 9223372036854775808"], "predicate:1:13: error: integer 9223372036854775808 is out of the 64-bit range")
        try refused(p, update + ["calories IN {1, 9223372036854775807 + 1}"], "predicate:1:37: error: integer overflow")
        try refused(p, ["batch", "update", "--entity", "Food", "--set-expr", "calories=9223372036854775807 * 2"], "value:1:21: error: integer overflow")
        // Overflow at run time gives nil (SPEC §11.4), never a REAL in the int64 column; the other rows are exact.
        let overflow = try p.run(["batch", "update", "--entity", "Food", "--where", "TRUEPREDICATE", "--set-expr", "calories=calories * 2"])
        #expect(overflow.status == 0, "\(overflow.stderr)")
        #expect(try p.rows("SELECT _pk, calories, typeof(calories) FROM Food ORDER BY _pk")
                == ["1|NULL|null", "2|18014398509481984|integer", "3|18014398509481986|integer", "4|NULL|null", "5|10|integer"])
        let exact = try p.run(["batch", "update", "--entity", "Food", "--where", "name == 'Soup'", "--set", "calories=9007199254740993"])
        #expect(exact.status == 0)
        #expect(try p.rows("SELECT calories, typeof(calories) FROM Food WHERE _pk = 5") == ["9007199254740993|integer"])
    }

    // MARK: 10

    static let deepShapes: [(String, String, Int)] = [
        ("parentheses", repeated("(", 15_000) + "rating > 3" + repeated(")", 15_000), 101),
        ("NOT", repeated("NOT ", 30_000) + "rating > 3", 401),
        ("!", repeated("!", 60_000) + "rating > 3", 101),
    ]

    @Test func deepNestingIsExit2WithALocation() throws {
        let p = try Self.project()
        for (name, predicate, column) in Self.deepShapes {
            try refused(p, ["batch", "update", "--entity", "Food", "--where", predicate, "--set", "rating=0"],
                        "predicate:1:\(column): error: nested too deeply: more than 100 levels")
            _ = name
        }
        try refused(p, ["batch", "update", "--entity", "Food", "--where", "rating" + Self.repeated("+1", 40_000) + " > 3", "--set", "rating=0"],
                    "predicate:1:1007: error: arithmetic chain too long")
        try refused(p, ["batch", "update", "--entity", "Food", "--set-expr", "rating=" + Self.repeated("(", 15_000) + "1" + Self.repeated(")", 15_000)],
                    "value:1:101: error: nested too deeply")
        try refused(p, ["batch", "update", "--entity", "Food", "--set-expr", "rating=rating" + Self.repeated("+1", 40_000)],
                    "value:1:1007: error: arithmetic chain too long")
        // In a hook and in a model's validation predicate: lint finds it, located in the file.
        try p.hook("deep.yaml", """
            id: deep
            after: 2
            steps:
              - batchUpdate:
                  entity: Food
                  predicate: "\(Self.repeated("!", 60_000))rating > 3"
                  propertiesToUpdate: { rating: { expression: "\(Self.repeated("-", 30_000))rating" } }
            """)
        let lint = try CLI.run(["lint"], in: p.dir)
        #expect(lint.status == 2)
        #expect(lint.stderr.contains("migrations/deep.yaml:6:119: error: nested too deeply"), "\(lint.stderr.prefix(500))")
        try refused(p, ["migrate"], "migrations/deep.yaml:6:119: error: nested too deeply")
        let v = try Self.project(validation: Self.repeated("NOT ", 30_000) + "rating > 3")
        let modelLint = try CLI.run(["lint"], in: v.dir)
        #expect(modelLint.status == 2)
        #expect(modelLint.stderr.contains("models/2.yaml:") && modelLint.stderr.contains("error: nested too deeply"), "\(modelLint.stderr.prefix(500))")
    }

    // MARK: 15

    @Test func longOrAndNotChainsRun() throws {
        let p = try Self.project()
        let ors = (0..<5_000).map { "rating==\($0 + 10)" }.joined(separator: "||") + "||name=='Soup'"
        let run = try p.run(["batch", "update", "--entity", "Food", "--where", ors, "--set", "rating=0", "--audit", "none"])
        #expect(run.status == 0, "\(run.stderr.prefix(300))")
        #expect(run.stdout == "1\n")
        var nots = "rating >= 2"
        for _ in 0..<50 { nots = "NOT (\(nots))" }
        let notRun = try p.run(["batch", "update", "--entity", "Food", "--where", nots + " AND " + Self.repeated("NOT ", 51) + "rating == 99",
                                "--set", "rating=1", "--audit", "none"])
        #expect(notRun.status == 0, "\(notRun.stderr.prefix(300))")
        #expect(notRun.stdout == "3\n")
        // A 10,000-term OR chain in a hook: lint and migrate run it.
        try p.hook("ors.yaml", """
            id: ors
            after: 2
            steps:
              - batchUpdate:
                  entity: Food
                  predicate: "\((0..<10_000).map { "calories == \($0 + 100)" }.joined(separator: " OR ")) OR calories == 5"
                  propertiesToUpdate: { rating: 4 }
            """)
        #expect(try CLI.run(["lint"], in: p.dir).status == 0)
        let migrate = try p.run(["migrate", "--now", Self.now])
        #expect(migrate.status == 0, "\(migrate.stderr.prefix(500))")
        #expect(try p.rows("SELECT rating FROM Food WHERE _pk = 5") == ["4"])
    }

    // MARK: 16

    /// The time bounds guard against a blow-up quadratic in the list's length (minutes at these sizes),
    /// not a benchmark (Benchmarks/ measures): they are generous because the machine may be shared.
    @Test func hugeInListsAreFast() throws {
        let p = try Self.project()
        let list = (0..<20_000).map { String($0 * 7 + 5) }.joined(separator: ",")
        let clock = ContinuousClock()
        var run: CLI.Result?
        let elapsed = try clock.measure {
            run = try p.run(["batch", "update", "--entity", "Food", "--where", "calories IN {\(list)}", "--set", "rating=0", "--audit", "none"])
        }
        #expect(run?.status == 0)
        #expect(run?.stdout == "1\n")
        #expect(elapsed < .seconds(30), "\(elapsed)")
        let big = (0..<200_000).map { String($0 * 3 + 1) }.joined(separator: ", ")
        try p.hook("big.yaml", """
            id: big
            after: 2
            steps:
              - batchUpdate:
                  entity: Food
                  predicate: "calories IN %@ OR name IN %@"
                  arguments: [[\(big)], [\((0..<100_000).map { "\"n\($0)\"" }.joined(separator: ", ")), "Soup"]]
                  propertiesToUpdate: { rating: 9 }
            """)
        var lintStatus: Int32 = -1
        let lintTime = try clock.measure { lintStatus = try CLI.run(["lint"], in: p.dir).status }
        #expect(lintStatus == 0)
        #expect(lintTime < .seconds(60), "lint took \(lintTime)")
        var migrate: CLI.Result?
        let migrateTime = try clock.measure { migrate = try p.run(["migrate", "--now", Self.now]) }
        #expect(migrate?.status == 0, "\(migrate?.stderr.prefix(300) ?? "")")
        #expect(migrateTime < .seconds(60), "migrate took \(migrateTime)")
        #expect(try p.rows("SELECT _pk FROM Food WHERE rating = 9 ORDER BY _pk") == ["5"])
    }

    // MARK: 14

    @Test func invalidRegexesAreFoundBeforeAnyWrite() throws {
        let p = try Self.project()
        let update = ["batch", "update", "--entity", "Food", "--set", "rating=0"]
        try refused(p, update + ["--where", "name MATCHES \"(unclosed\""], "predicate:1:14: error: invalid regular expression \"(unclosed\"")
        try refused(p, update + ["--where", "name MATCHES %@", "--arg", "[a-"], "predicate:1:14: error: invalid regular expression \"[a-\"")
        try refused(p, update + ["--where", "name MATCHES[c] $P", "--var", "P=a)(b"], "predicate:1:17: error: invalid regular expression \"a)(b\"")
        try refused(p, ["batch", "delete", "--entity", "Food", "--where", "rating > 1 AND NOT name MATCHES '*'"], "predicate:1:33: error: invalid regular expression")
        try p.hook("re.yaml", """
            id: re
            after: 2
            steps:
              - batchUpdate:
                  entity: Food
                  predicate: "name MATCHES $P"
                  propertiesToUpdate: { rating: 4 }
            variables: { P: "(x" }
            """)
        let lint = try CLI.run(["lint"], in: p.dir)
        #expect(lint.status == 2)
        #expect(lint.stderr.contains("migrations/re.yaml:6:32: error: invalid regular expression \"(x\""), "\(lint.stderr)")
        try refused(p, ["migrate"], "migrations/re.yaml:6:32: error: invalid regular expression")
        #expect(try E2E.rows(p.store, "SELECT value FROM strata_metadata WHERE key = 'version'").first.map { _ in true } ?? true)
        let v = try Self.project(validation: "name MATCHES '(x'")
        let modelLint = try CLI.run(["lint"], in: v.dir)
        #expect(modelLint.status == 2)
        #expect(modelLint.stderr.contains("models/2.yaml:11:34: error: invalid regular expression \"(x\""), "\(modelLint.stderr)")
    }

    // MARK: 17

    @Test func invalidDatesAreExit2Everywhere() throws {
        let p = try Self.project()
        try refused(p, ["batch", "update", "--entity", "Food", "--set", "lastUsed=2024-02-30"], "'2024-02-30' is not a valid ISO 8601 date: day 30 does not exist in 2024-02")
        try refused(p, ["batch", "update", "--entity", "Food", "--set", "lastUsed=2024-05-01T00:00:00+99:00"], "the offset must lie within ±18:00")
        try refused(p, ["batch", "update", "--entity", "Food", "--set", "lastUsed=2023-02-29T10:00:00Z"], "day 29 does not exist in 2023-02")
        try refused(p, ["batch", "update", "--entity", "Food", "--set", "rating=1", "--now", "2024-02-30"], "--now '2024-02-30' is not an ISO 8601 date")
        try refused(p, ["migrate", "--now", "2024-02-30"], "--now expects an ISO 8601 date, got '2024-02-30'")
        try refused(p, ["batch", "update", "--entity", "Food", "--set", "lastUsed=294277-01-01"],
                    "'294277-01-01' is not a valid ISO 8601 date: it is outside the dates Strata holds, -4713-11-24T00:00:00Z (4713 BC) to 294276-12-31T23:59:59Z")
        try refused(p, ["batch", "update", "--entity", "Food", "--set", "rating=1", "--where", "lastUsed < '-4713-11-23'"],
                    "predicate:1:12: error: lastUsed is date, but '-4713-11-23' is not a valid ISO 8601 date: it is outside the dates Strata holds")
        try refused(p, ["migrate", "--now", "-4714-01-01"], "--now expects an ISO 8601 date, got '-4714-01-01'")
        try refused(p, ["batch", "update", "--entity", "Food", "--set", "rating=1", "--where", "lastUsed < '2024-04-31'"],
                    "predicate:1:12: error: lastUsed is date, but '2024-04-31' is not a valid ISO 8601 date")
        try refused(p, ["batch", "update", "--entity", "Food", "--set-expr", "lastUsed=$D", "--var", "D=2024-05-01T24:00:00Z"],
                    "value:1:1: error: Food.lastUsed is date, but '2024-05-01T24:00:00Z' is not a valid ISO 8601 date")
        try p.hook("d.yaml", """
            id: d
            after: 2
            steps:
              - batchUpdate:
                  entity: Food
                  propertiesToUpdate: { lastUsed: "2024-02-30" }
            """)
        let lint = try CLI.run(["lint"], in: p.dir)
        #expect(lint.status == 2)
        #expect(lint.stderr.contains("migrations/d.yaml:6:40: error: Food.lastUsed is date, but '2024-02-30' is not a valid ISO 8601 date"), "\(lint.stderr)")
        let valid = try p.run(["batch", "update", "--entity", "Food", "--where", "name == 'Soup'", "--set", "lastUsed=2024-05-01T02:00:00+02:00"])
        #expect(valid.status == 0)
        #expect(try p.rows("SELECT lastUsed FROM Food WHERE _pk = 5") == ["1714521600.0"])
    }

    // MARK: 25

    @Test func variablesCountDurations() throws {
        let p = try Self.project()
        let args = ["batch", "update", "--entity", "Food", "--set", "rating=0", "--audit", "none", "--now", Self.now, "--result", "ids"]
        let literal = try p.run(args + ["--where", "lastUsed >= $NOW - 2 days"])
        let variable = try p.run(args + ["--where", "lastUsed >= $NOW - $DAYS days", "--var", "DAYS=2"])
        #expect(literal.status == 0 && variable.status == 0, "\(variable.stderr)")
        #expect(variable.stdout == literal.stdout)
        #expect(variable.stdout.split(separator: "\n").count == 3)
        try refused(p, args + ["--where", "lastUsed >= $NOW - $DAYS days", "--var", "DAYS=abc"],
                    "predicate:1:20: error: $DAYS counts a duration, but its value 'abc' is not an integer")
        try refused(p, args + ["--where", "lastUsed >= $NOW - $DAYS days"], "predicate:1:20: error: unknown variable $DAYS")
        // $NOW is the run's time: `--var NOW=…` was silently ignored; it is refused in every command.
        for command in [args, ["lint"], ["status"]] {
            try refused(p, command + ["--where", "lastUsed >= $NOW"].filter { _ in command == args } + ["--var", "NOW=2000-01-01"],
                        "error: --var NOW: $NOW is the run's start time; pin it with --now ISO8601 (migrate, batch)")
        }
        try p.hook("v.yaml", """
            id: v
            after: 2
            variables: { DAYS: "2" }
            steps:
              - batchUpdate:
                  entity: Food
                  predicate: "lastUsed >= $NOW - $DAYS days"
                  propertiesToUpdate: { rating: 5 }
            """)
        #expect(try CLI.run(["lint"], in: p.dir).status == 0)
        let migrate = try p.run(["migrate", "--now", Self.now])
        #expect(migrate.status == 0, "\(migrate.stderr)")
        #expect(try p.rows("SELECT _pk FROM Food WHERE rating = 5 ORDER BY _pk") == ["1", "2", "5"])
    }
}
