import Foundation
import Testing

/// A small fuzz of `batch update --where` on the real binary: exit 0 or a located exit 2, the store unchanged on 2.
extension PredicateCLITests {
    static func yamlQuoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case _ where scalar.value < 0x20: out += "\\x" + String(format: "%02x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Random predicates and values in a hook file: `lint` exits 0 or 2 (located in the file), and
    /// `migrate` never writes the store when lint said 2.
    @Test func hookPredicateFuzz() throws {
        let p = try Self.project()
        var state: UInt64 = ProcessInfo.processInfo.environment["STRATA_FUZZ_SEED"].flatMap { UInt64($0) } ?? 91
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
        let pieces = ["rating", "calories", "name", "lastUsed", "==", "<", "AND", "OR", "NOT", "(", ")", "{", "}", ",", "+", "*", "IN",
                      "MATCHES", "'(x'", "'a.*'", "9223372036854775808", "-9223372036854775808", "'2024-02-30'", "'2024-05-01'",
                      "$NOW", "$DAYS", "days", "nil", "1", "\"", "\\", "%@", "$", "[c]", "TRUEPREDICATE", "\t"]
        var refusals = 0
        for round in 0..<12 {
            let predicate = (0..<(1 + next(10))).map { _ in pieces[next(pieces.count)] }.joined(separator: " ")
            let value = ["rating + 1", "9223372036854775807", "'2024-02-30'", "calories * 2", "(((1)))", "$DAYS"][next(6)]
            try p.hook("f.yaml", """
                id: f\(round)
                after: 2
                variables: { DAYS: "3" }
                steps:
                  - batchUpdate:
                      entity: Food
                      predicate: \(Self.yamlQuoted(predicate))
                      propertiesToUpdate: { calories: { expression: \(Self.yamlQuoted(value)) } }
                """)
            let lint = try CLI.run(["lint"], in: p.dir)
            #expect(lint.status == 0 || lint.status == 2, "exit \(lint.status) for \(predicate): \(lint.stderr.prefix(300))")
            if lint.status == 2 {
                refusals += 1
                #expect(lint.stderr.contains("migrations/f.yaml:"), "unlocated: \(predicate): \(lint.stderr.prefix(300))")
                let before = E2E.storeHashes(p.store)
                let migrate = try p.run(["migrate"])
                #expect(migrate.status == 2, "\(predicate): \(migrate.stderr.prefix(300))")
                #expect(E2E.storeHashes(p.store) == before)
            }
        }
        #expect(refusals > 0)
        try FileManager.default.removeItem(atPath: p.dir + "/migrations/f.yaml")
    }

    /// Random `--where` inputs on the real binary: exit 0 or 2 only, the store's bytes unchanged on 2.
    @Test func batchUpdateFuzz() throws {
        let p = try Self.project()
        var state: UInt64 = ProcessInfo.processInfo.environment["STRATA_FUZZ_SEED"].flatMap { UInt64($0) } ?? 77
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
        let pieces = ["rating", "calories", "name", "lastUsed", "==", "!=", "<", ">=", "AND", "OR", "NOT", "!", "(", ")", "{", "}", ",",
                      "+", "-", "*", "/", "IN", "BETWEEN", "MATCHES", "\"(x\"", "\"S.*\"", "9223372036854775807", "9223372036854775808",
                      "-9223372036854775808", "\"2024-02-30\"", "\"2024-05-01\"", "$NOW", "$DAYS", "days", "nil", "YES", "1", "0.5",
                      "TRUEPREDICATE", "\"", "%@", "$", "abs(", "[c]", ""]
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(8)
        var runs = 0
        while clock.now < deadline, runs < 60 {
            runs += 1
            var text = (0..<(1 + next(12))).map { _ in pieces[next(pieces.count)] }.joined(separator: " ")
            if next(4) == 0 { text = String(repeating: "(", count: next(300)) + text }
            let before = E2E.storeHashes(p.store)
            let run = try p.run(["batch", "update", "--entity", "Food", "--where=" + text, "--set", "rating=1", "--audit", "none", "--var", "DAYS=3"])
            #expect(run.status == 0 || run.status == 2, "exit \(run.status) for \(text): \(run.stderr.prefix(300))")
            if run.status == 2 {
                #expect(run.stderr.contains("predicate:1:"), "unlocated: \(text): \(run.stderr.prefix(300))")
                #expect(E2E.storeHashes(p.store) == before, "store changed on exit 2 for \(text)")
            }
        }
        #expect(runs >= 10)
    }
}
