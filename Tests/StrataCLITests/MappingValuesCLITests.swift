import Foundation
import GRDB
import StrataTestSupport
import Testing

/// What a mapping file's expressions and filters read (SPEC §6, §11.1, §11.3): the run's `$NOW` (`now()`), `--var`
/// values over the file's `variables:`; the forms of a value (`{ expression: }`, YAML null); a source named twice.
@Suite struct MappingValuesCLITests {
    static let items1 = """
        version: 1
        entities:
          Item:
            attributes:
              name: { type: string }
              lastUsed: { type: date }
        """
    static let items2 = """
        version: 2
        entities:
          Item:
            attributes:
              name: { type: string }
              lastUsed: { type: date }
              migratedAt: { type: date }
              stamp: { type: string }
              tag: { type: string }
        """
    static let nowMapping = """
        mapping: { from: 1, to: 2 }
        entities:
          Item:
            filter: "lastUsed < $NOW"
            attributes:
              migratedAt: "now()"
              stamp: "string($NOW)"
        """
    static let itemRows = #"SELECT "_pk", "name", "lastUsed", "migratedAt", "stamp", ifnull("tag", 'nil') FROM "Item" ORDER BY "_pk""#

    /// A v1 store with items used on 2024-05-01 and 1970-01-02.
    static func items(_ mapping: String) throws -> (dir: String, store: String) {
        let (dir, store) = try MappingProject.project(v1: items1, v2: items2, files: ["map.yaml": mapping], name: "mapvalues")
        try E2E.execute(store, #"INSERT INTO "Item" ("name", "lastUsed") VALUES ('recent', 1714521600), ('old', 86400)"#)
        return (dir, store)
    }

    @Test func nowAndNowFunctionAreTheRunsNowInExpressionsAndFilters() throws {
        let (dir, store) = try Self.items(Self.nowMapping)
        let r = try CLI.run(["migrate", "--store", "app.sqlite", "--now", "2025-01-01T00:00:00Z"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        // Both rows were used before $NOW: both are kept (with $NOW = 0 the filter dropped them).
        #expect(try E2E.rows(store, Self.itemRows) == [
            "1|recent|1714521600.0|1735689600.0|2025-01-01T00:00:00Z|nil",
            "2|old|86400.0|1735689600.0|2025-01-01T00:00:00Z|nil",
        ])
        #expect(try MappingProject.version(store) == "2")
    }

    @Test func aFilterAgainstNowMinusADurationKeepsWhatTheRunsNowSays() throws {
        let (dir, store) = try Self.items(Self.nowMapping.replacingOccurrences(of: "lastUsed < $NOW", with: "lastUsed >= $NOW - 365 days"))
        let r = try CLI.run(["migrate", "--store", "app.sqlite", "--now", "2025-01-01T00:00:00Z"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try E2E.rows(store, Self.itemRows) == ["1|recent|1714521600.0|1735689600.0|2025-01-01T00:00:00Z|nil"])
    }

    @Test func withoutNowTheRunsStartIsBound() throws {
        let (dir, store) = try Self.items(Self.nowMapping)
        let start = Date().timeIntervalSince1970
        let r = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        let end = Date().timeIntervalSince1970
        #expect(r.status == 0, "\(r.stderr)")
        let stamps = try E2E.rows(store, #"SELECT DISTINCT "migratedAt" FROM "Item""#)
        #expect(stamps.count == 1)
        let value = try #require(Double(stamps[0]))
        #expect(value >= start.rounded(.down) && value <= end.rounded(.up), "\(value) not in \(start)…\(end)")
    }

    @Test func diffSQLBindsThePreviewsOwnNow() throws {
        let (dir, _) = try Self.items(Self.nowMapping)
        let start = Date().timeIntervalSince1970
        let r = try CLI.run(["diff", "1", "2", "--sql"], in: dir)
        let end = Date().timeIntervalSince1970
        #expect(r.status == 0, "\(r.stderr)")
        // The copy binds $NOW three times (now(), string($NOW), the filter), as the preview's time: never 0.
        let copy = try #require(r.stdout.split(separator: "\n").first { $0.hasPrefix(#"INSERT INTO "strata_new_Item""#) })
        #expect(copy.contains(#"SELECT "strata_old"."_pk", "strata_old"."name", "strata_old"."lastUsed", ?, strata_cast(?, ?, ?), NULL FROM "Item" AS "strata_old" WHERE (strata_old."lastUsed" < ?) -- ["#), "\(copy)")
        let bound = (copy.components(separatedBy: " -- [").last ?? "").dropLast(2).components(separatedBy: ", ")
        #expect(bound.count == 5 && bound[2] == #""date""# && bound[3] == #""string""#, "\(copy)")
        let nows = [bound[0], bound[1], bound.last ?? ""].map { Double($0) ?? 0 }
        #expect(Set(nows).count == 1, "\(copy)")
        #expect(nows[0] >= start.rounded(.down) && nows[0] <= end.rounded(.up), "\(copy)")
    }

    static let tagMapping = """
        mapping: { from: 1, to: 2 }
        entities:
          Item:
            attributes:
              tag: "'tag-' + $TAG"
        """

    @Test func varValuesReachMappingExpressions() throws {
        let (dir, store) = try Self.items(Self.tagMapping)
        let lint = try CLI.run(["lint", "--var", "TAG=x"], in: dir)
        #expect(lint.status == 0, "\(lint.stderr)")
        let diff = try CLI.run(["diff", "1", "2", "--var", "TAG=x"], in: dir)
        #expect(diff.status == 0, "\(diff.stderr)")
        let r = try CLI.run(["migrate", "--store", "app.sqlite", "--var", "TAG=x"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try E2E.rows(store, #"SELECT "name", "tag" FROM "Item" ORDER BY "_pk""#) == ["recent|tag-x", "old|tag-x"])
    }

    @Test func aMissingVariableIsOneLocatedErrorWithAHint() throws {
        let (dir, store) = try Self.items(Self.tagMapping)
        let before = E2E.storeHashes(store)
        for args in [["lint"], ["diff", "1", "2"], ["migrate", "--store", "app.sqlite"]] {
            let r = try CLI.run(args, in: dir)
            #expect(r.status == 2, "\(args): \(r.stderr)")
            #expect(r.stderr.contains("migrations/map.yaml:5:22: error: unknown variable $TAG"), "\(args): \(r.stderr)")
            #expect(r.stderr.contains("hint: pass it with --var TAG=VALUE (the library's `variables`) or give it a default in the file's variables:"),
                    "\(args): \(r.stderr)")
            #expect(r.stderr.components(separatedBy: "unknown variable").count == 2, "\(args): \(r.stderr)")
        }
        #expect(E2E.storeHashes(store) == before)
    }

    @Test func theFilesVariablesAreDefaultsThatVarOverrides() throws {
        let (dir, store) = try Self.items("variables: { TAG: d, DAYS: \"365\" }\n" + Self.tagMapping
            + "\n    filter: \"lastUsed >= $NOW - $DAYS days\"\n")
        let lint = try CLI.run(["lint"], in: dir)
        #expect(lint.status == 0, "\(lint.stderr)")
        // The file's DAYS (365) would drop 'old' (1970); --var DAYS=30000 keeps it.
        let dry = try CLI.run(["migrate", "--store", "app.sqlite", "--now", "2025-01-01T00:00:00Z", "--dry-run"], in: dir)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains("1 dropped"), "\(dry.stdout)")
        let r = try CLI.run(["migrate", "--store", "app.sqlite", "--now", "2025-01-01T00:00:00Z", "--var", "DAYS=30000"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try E2E.rows(store, #"SELECT "name", "tag" FROM "Item" ORDER BY "_pk""#) == ["recent|tag-d", "old|tag-d"])
    }

    static let people1 = """
        version: 1
        entities:
          Person:
            attributes:
              age: { type: string }
        """
    static let people2 = """
        version: 2
        entities:
          Person:
            attributes:
              age: { type: int16 }
        """

    static func people(_ mapping: String) throws -> (dir: String, store: String) {
        let (dir, store) = try MappingProject.project(v1: people1, v2: people2, files: ["map.yaml": mapping], name: "mappeople")
        try E2E.execute(store, #"INSERT INTO "Person" ("age") VALUES ('1'), ('2')"#)
        return (dir, store)
    }

    @Test(arguments: [
        #"age: { expression: "int16(age) + 1" }"#,
        "age: { expression: int16(age) + 1 }",
        "age:\n        expression: \"int16(age) + 1\"",
    ])
    func anExpressionMayBeWrittenAsAnExpressionMap(_ line: String) throws {
        let (dir, store) = try Self.people("mapping: { from: 1, to: 2 }\nentities:\n  Person:\n    attributes:\n      \(line)\n")
        let lint = try CLI.run(["lint"], in: dir)
        #expect(lint.status == 0, "\(lint.stderr)")
        let r = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try E2E.rows(store, #"SELECT "_pk", "age" FROM "Person" ORDER BY "_pk""#) == ["1|2", "2|3"])
    }

    @Test func anExpressionMapIsAlsoAcceptedPerSourceInAMerge() throws {
        let (dir, store) = try MergeProject.make(["v2.yaml": MergeProject.mapping.replacingOccurrences(
            of: #"{ Photo: "0", Video: "int64(seconds)" }"#, with: #"{ Photo: { expression: "0" }, Video: { expression: "int64(seconds)" } }"#)])
        let r = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try E2E.rows(store, MappingMergeCLITests.media) == MappingMergeCLITests.mergedMedia)
    }

    @Test func aSourceNamedExpressionKeepsItsPerSourceMap() throws {
        let v1 = "version: 1\nentities:\n  expression:\n    attributes:\n      age: { type: string }\n"
        let v2 = "version: 2\nentities:\n  Person:\n    attributes:\n      age: { type: int16 }\n"
        let mapping = "mapping: { from: 1, to: 2 }\nentities:\n  Person:\n    source: expression\n    attributes:\n      age: { expression: \"int16(age)\" }\n"
        let (dir, store) = try MappingProject.project(v1: v1, v2: v2, files: ["map.yaml": mapping], name: "mapexpr")
        try E2E.execute(store, #"INSERT INTO "expression" ("age") VALUES ('7')"#)
        let r = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try E2E.rows(store, #"SELECT "age" FROM "Person""#) == ["7"])
    }

    @Test(arguments: ["~", "null", "Null", "NULL", ""])
    func yamlNullSetsNil(_ value: String) throws {
        let (dir, store) = try Self.people("mapping: { from: 1, to: 2 }\nentities:\n  Person:\n    attributes:\n      age: \(value)\n")
        let lint = try CLI.run(["lint"], in: dir)
        #expect(lint.status == 0, "\(value): \(lint.stderr)")
        let r = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(r.status == 0, "\(value): \(r.stderr)")
        #expect(try E2E.rows(store, #"SELECT "_pk", ifnull("age", 'nil') FROM "Person" ORDER BY "_pk""#) == ["1|nil", "2|nil"])
    }

    /// A YAML null (or `nil`) into a non-optional attribute is exit 2 at lint, located, as in hooks (it was
    /// found only by the step's audit, exit 3).
    @Test(arguments: ["~", "null", "\"nil\""])
    func nilIntoANonOptionalAttributeIsExit2AtLint(_ value: String) throws {
        let (dir, store) = try MappingProject.project(v1: Self.people1, v2: Self.people2.replacingOccurrences(of: "{ type: int16 }", with: "{ type: int16, optional: false, default: 0 }"),
                                                      files: ["map.yaml": "mapping: { from: 1, to: 2 }\nentities:\n  Person:\n    attributes:\n      age: \(value)\n"],
                                                      name: "mapnil")
        let before = E2E.storeHashes(store)
        for args in [["lint"], ["migrate", "--store", "app.sqlite"]] {
            let r = try CLI.run(args, in: dir)
            #expect(r.status == 2, "\(value) \(args): \(r.stderr)")
            #expect(r.stderr.contains("migrations/map.yaml:5:\(value == "\"nil\"" ? 13 : 12): error: Person.age is not optional: it cannot be set to nil"),
                    "\(value): \(r.stderr)")
        }
        #expect(E2E.storeHashes(store) == before)
    }

    @Test func yamlNullPerSourceSetsNil() throws {
        let (dir, store) = try MergeProject.make(["v2.yaml": MergeProject.mapping.replacingOccurrences(
            of: #"{ Photo: "0", Video: "int64(seconds)" }"#, with: #"{ Photo: "0", Video: "int64(seconds)" }"# + "\n      width: { Photo: ~, Video: \"1\" }")])
        let r = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try E2E.rows(store, #"SELECT "name", ifnull("width", 'nil') FROM "Media" ORDER BY "_pk""#)
                == ["p1|nil", "p2|nil", "p3|nil", "v1|1", "v2|1", "v7|1"])
    }

    @Test func aSourceNamedTwiceIsExit2AtTheSecondBeforeAnythingRuns() throws {
        let (dir, store) = try Self.people("""
            mapping: { from: 1, to: 2 }
            entities:
              Person:
                source: [Person, Person]
                attributes: { age: "int16(age)" }
            """)
        let before = E2E.storeHashes(store)
        for args in [["lint"], ["diff", "1", "2"], ["migrate", "--store", "app.sqlite"]] {
            let r = try CLI.run(args, in: dir)
            #expect(r.status == 2, "\(args): \(r.stderr)")
            #expect(r.stderr.contains("migrations/map.yaml:4:22: error: 'Person' is named twice in the sources of Person"), "\(args): \(r.stderr)")
            #expect(!r.stderr.contains("strata_remap"), "\(args): \(r.stderr)")
        }
        #expect(E2E.storeHashes(store) == before)
        #expect(try MappingProject.version(store) == "1")
    }
}
