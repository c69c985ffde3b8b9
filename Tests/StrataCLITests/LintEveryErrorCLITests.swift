import Foundation
import StrataTestSupport
import Testing

/// `lint` reports all errors at once, each located (Docs/commands.md): a step stopped at its first bad value,
/// so a second bad object of a `batchInsert` or a bad property beside a bad predicate came out only after the
/// first was fixed. Each object and each property is now checked on its own once the step has an error.
@Suite struct LintEveryErrorCLITests {
    static let model = "version: 1\nentities:\n  Rec:\n    attributes: { s: { type: int16 }, u: { type: uuid } }\n"
    static let hook = """
        id: h
        after: 1
        steps:
          - batchInsert:
              entity: Rec
              objects:
                - { s: 32768 }
                - { u: "nope" }
                - { s: 1 }
          - batchUpdate:
              entity: Rec
              predicate: "zz == 1"
              propertiesToUpdate: { s: 99999, u: "also-not-a-uuid" }

        """

    @Test func everyBadValueOfEveryStepIsReported() throws {
        let dir = Temporary.directory("lint-every")
        try FileManager.default.createDirectory(atPath: dir + "/models", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/migrations", withIntermediateDirectories: true)
        try Self.model.write(toFile: dir + "/models/1.yaml", atomically: true, encoding: .utf8)
        try Self.hook.write(toFile: dir + "/migrations/h.yaml", atomically: true, encoding: .utf8)
        let r = try CLI.run(["lint"], in: dir)
        #expect(r.status == 2, "\(r.stderr)")
        let located = r.stderr.split(separator: "\n").filter { $0.hasPrefix("migrations/h.yaml:") }.map { String($0) }
        #expect(located.map { String($0.prefix { $0 != " " }) } == [
            "migrations/h.yaml:7:16:", "migrations/h.yaml:8:17:", "migrations/h.yaml:12:19:", "migrations/h.yaml:13:32:", "migrations/h.yaml:13:43:",
        ], "\(r.stderr)")
        #expect(r.stdout.contains("5 error(s)"), "\(r.stdout)")
    }

    /// A malformed value is its own error, not also "batchUpdate needs 'propertiesToUpdate'" at the step.
    @Test func aMalformedValueIsOneError() throws {
        let dir = Temporary.directory("lint-one")
        try FileManager.default.createDirectory(atPath: dir + "/models", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/migrations", withIntermediateDirectories: true)
        try Self.model.write(toFile: dir + "/models/1.yaml", atomically: true, encoding: .utf8)
        try "id: h\nafter: 1\nsteps:\n  - batchUpdate:\n      entity: Rec\n      propertiesToUpdate: { s: [1] }\n"
            .write(toFile: dir + "/migrations/h.yaml", atomically: true, encoding: .utf8)
        let r = try CLI.run(["lint"], in: dir)
        #expect(r.status == 2, "\(r.stderr)")
        let located = r.stderr.split(separator: "\n").filter { $0.hasPrefix("migrations/h.yaml:") }.map { String($0) }
        #expect(located == ["migrations/h.yaml:6:32: error: the value of 's' must be a literal or { expression: … }"], "\(r.stderr)")
    }

    /// A valid step is still checked once: no error, no repeat.
    @Test func aValidStepHasNoError() throws {
        let dir = Temporary.directory("lint-every-ok")
        try FileManager.default.createDirectory(atPath: dir + "/models", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/migrations", withIntermediateDirectories: true)
        try Self.model.write(toFile: dir + "/models/1.yaml", atomically: true, encoding: .utf8)
        let valid = Self.hook.replacingOccurrences(of: "32768", with: "2").replacingOccurrences(of: "\"nope\"", with: "\"6f1c3c2e-0000-4000-8000-000000000001\"")
            .replacingOccurrences(of: "zz == 1", with: "s == 1").replacingOccurrences(of: "99999", with: "3")
            .replacingOccurrences(of: "\"also-not-a-uuid\"", with: "\"6f1c3c2e-0000-4000-8000-000000000002\"")
        try valid.write(toFile: dir + "/migrations/h.yaml", atomically: true, encoding: .utf8)
        let r = try CLI.run(["lint"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("0 error(s)"), "\(r.stdout)")
    }
}
