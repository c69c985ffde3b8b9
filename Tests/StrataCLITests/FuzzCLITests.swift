import Foundation
import StrataTestSupport
import GRDB
import Testing

/// Issue 12 "Done when", end to end: the real binary on seeded mutations of the example's newest
/// model and hooks. `lint` exits 0, 2 or 4; `migrate` on a copy of a v3 store with data exits 0, 2,
/// 3 or 4, never crashes, and leaves the store's bytes unchanged whenever it does not succeed.
@Suite struct FuzzCLITests {
    /// SplitMix64: the same cases on every machine for a seed.
    static let odd = ["~", "\"\"", "-1", "0", "9223372036854775808", "1e309", ".nan", "yes", "[]", "{}", "{ a: 1 }",
                      "[[x]]", "'", "\"2024-02-30\"", "%@", "$NOW", "\"rating + 1\"", "\u{1}\u{7F}\u{FFFD}", "*nowhere",
                      String(repeating: "[", count: 1200) + String(repeating: "]", count: 1200)]
    static let keys = ["type", "optional", "default", "destination", "inverse", "toMany", "indexes", "uniqueness",
                       "renamedFrom", "column", "parent", "entity", "predicate", "propertiesToUpdate", "after", "zzz"]

    static func mutate(_ text: String, _ g: inout SeededGenerator) -> String {
        var lines = text.components(separatedBy: "\n")
        for _ in 0...g.next(3) where !lines.isEmpty {
            let i = g.next(lines.count)
            let indent = String(lines[i].prefix { $0 == " " })
            switch g.next(6) {
            case 0: lines.remove(at: i)
            case 1: lines.insert(lines[i], at: i)
            case 2: lines.insert(indent + g.pick(keys) + ": " + g.pick(odd), at: i)
            case 3: lines.swapAt(i, g.next(lines.count))
            default:
                if let colon = lines[i].firstIndex(of: ":") { lines[i] = String(lines[i][...colon]) + " " + g.pick(odd) }
            }
        }
        return lines.joined(separator: "\n")
    }

    @Test func mutatedFilesNeverCrashAndNeverTouchTheStoreOnFailure() throws {
        let template = try CLI.exampleProject()
        #expect(try CLI.run(["migrate", "--create", "--store", "v3.sqlite", "--to", "3"], in: template).status == 0)
        let queue = try DatabaseQueue(path: template + "/v3.sqlite")
        try queue.write { db in
            try db.execute(sql: #"INSERT INTO "Chef" ("name", "email") VALUES ('Ann', 'ann@example.com')"#)
            try db.execute(sql: #"INSERT INTO "Recipe" ("name", "rating", "lastUsed", "author") VALUES ('Soup', 3, ?, 1), ('Untitled', 0, NULL, NULL)"#,
                           arguments: [Date().timeIntervalSince1970 - 86400])
            try db.execute(sql: #"INSERT INTO "Ingredient" ("name", "recipe") VALUES ('salt', 1), ('water', 2)"#)
        }
        try queue.close()
        let targets = ["models/4.yaml", "migrations/favorite-recent-recipes.yaml"]
        let originals = try targets.map { try String(contentsOfFile: template + "/" + $0, encoding: .utf8) }
        var g = SeededGenerator(seed: UInt64(ProcessInfo.processInfo.environment["STRATA_FUZZ_SEED"] ?? "") ?? 2026)
        let deadline = Date().addingTimeInterval(Double(ProcessInfo.processInfo.environment["STRATA_FUZZ_SECONDS"] ?? "") ?? 4)
        var cases = 0
        while Date() < deadline || cases < 4 {
            let which = g.next(targets.count)
            let mutated = Self.mutate(originals[which], &g)
            for (i, target) in targets.enumerated() {
                var bytes = Data((i == which ? mutated : originals[i]).utf8)
                // Now and then raw garbage: bytes that are not UTF-8, NULs, a truncated multi-byte character.
                if i == which && g.next(6) == 0 {
                    for _ in 0...g.next(4) { bytes.insert(g.pick([0x00, 0xFF, 0xC3, 0x80, 0xFE, 0x1B] as [UInt8]), at: g.next(bytes.count + 1)) }
                }
                try bytes.write(to: URL(fileURLWithPath: template + "/" + target))
            }
            let lint = try CLI.run(["lint"], in: template)
            #expect(!lint.signaled && [0, 2, 4].contains(lint.status), "lint exit \(lint.status)\n\(lint.stderr)\n--- \(targets[which]) ---\n\(mutated)")
            // With --format json, one document whatever the input, its `ok` agreeing with the exit code.
            let json = try CLI.run(["lint", "--format", "json"], in: template)
            #expect(json.status == lint.status)
            let document = try? CLI.json(json.stdout)
            #expect(document?["schemaVersion"] as? Int == 1, "not one JSON document:\n\(json.stdout)")
            #expect(document?["ok"] as? Bool == (lint.status == 0))
            try E2E.copy(template + "/v3.sqlite", to: template + "/s.sqlite")
            let before = E2E.storeHashes(template + "/s.sqlite")
            let migrate = try CLI.run(["migrate", "--store", "s.sqlite", "--skip-integrity-check"], in: template)
            #expect(!migrate.signaled && [0, 2, 3, 4].contains(migrate.status), "migrate exit \(migrate.status)\n\(migrate.stderr)\n--- \(targets[which]) ---\n\(mutated)")
            if migrate.status != 0 {
                #expect(E2E.storeHashes(template + "/s.sqlite") == before, "exit \(migrate.status) changed the store\n\(mutated)")
            }
            if lint.status == 2 { #expect(migrate.status == 2, "lint found invalid input that migrate did not\n\(lint.stderr)\n\(mutated)") }
            cases += 1
        }
        #expect(cases >= 4)
    }

}
