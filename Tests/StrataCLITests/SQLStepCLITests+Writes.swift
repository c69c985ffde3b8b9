import Foundation
import Testing
import StrataTestSupport

/// `writes:` on a hook with `sql:` steps (SPEC §11.4 "What a raw step wrote"): the entities it names are audited
/// in full and invalidated, like those the authorizer saw the statements write.
extension SQLStepCLITests {
    @Test func writesNamesEntitiesThatAreAuditedInFullAndInvalidated() throws {
        // The statement writes Chef only; Recipe "b" already breaks rating's max of 5.
        let text = "id: fix\nafter: 2\nwrites: [Recipe]\nsteps:\n  - sql: INSERT INTO {{Chef}} ({{Chef.name}}) VALUES ('Ann')\n"
        let dir = try Self.project(hook: text)
        let path = try Self.v1Store(dir)
        try E2E.execute(path, #"UPDATE "Recipe" SET "rating" = 9 WHERE "name" = 'b'"#)
        let lint = try CLI.run(["lint"], in: dir)
        #expect(lint.status == 0, "\(lint.stderr)")
        let failed = try CLI.run(["migrate", "--store", "app.sqlite", "--format", "json"], in: dir)
        #expect(failed.status == 3, "\(failed.stderr)")
        let hooks = try #require((try CLI.json(failed.stdout)["migration"] as? [String: Any])?["hooks"] as? [[String: Any]])
        let audit = try #require(hooks.first?["audit"] as? [String: Any])
        #expect(audit["entities"] as? [String] == ["Chef", "Recipe"])
        #expect(audit["totalViolations"] as? Int == 1)
        #expect(try E2E.rows(path, #"SELECT max("toVersion") FROM "strata_history""#) == ["1"])
        // Under warn it commits, and the change set says to refetch both.
        try (text + "onViolation: warn\n").write(toFile: dir + "/migrations/fix.yaml", atomically: true, encoding: .utf8)
        let warned = try CLI.run(["migrate", "--store", "app.sqlite", "--changes-out", "changes.json"], in: dir)
        #expect(warned.status == 0, "\(warned.stderr)")
        let changes = try CLI.json(try String(contentsOfFile: dir + "/changes.json", encoding: .utf8))
        #expect(changes["invalidated"] as? [String] == ["Chef", "Recipe"])
        #expect(try E2E.rows(path, #"SELECT "name" FROM "Chef""#) == ["Ann"])
    }

    @Test(arguments: [
        ("id: fix\nafter: 2\nwrites: [Recipe, Chefs]\nsteps:\n  - sql: DELETE FROM {{Chef}}\n",
         "migrations/fix.yaml:3:18: error: writes: no entity 'Chefs' in model version 2"),
        ("id: fix\nafter: 2\nwrites: [Recipe]\nsteps:\n  - batchDelete: { entity: Chef }\n",
         "migrations/fix.yaml:3:1: error: 'writes' declares what sql: steps or a Swift stage write; this hook has no sql: step"),
        ("id: fix\nafter: 2\nwrites: Recipe\nsteps:\n  - sql: DELETE FROM {{Chef}}\n",
         "migrations/fix.yaml:3:9: error: writes must be a list of names"),
    ])
    func writesErrorsAreLocatedInLintAndMigrate(text: String, expected: String) throws {
        // The store is made first: a bad hook file stops every migrate, --create included.
        let dir = try Self.project(hook: Self.hook("DELETE FROM {{Chef}};"))
        let path = try Self.v1Store(dir)
        try text.write(toFile: dir + "/migrations/fix.yaml", atomically: true, encoding: .utf8)
        let before = E2E.storeHashes(path)
        for args in [["lint"], ["migrate", "--store", "app.sqlite"]] {
            let result = try CLI.run(args, in: dir)
            #expect(result.status == 2)
            #expect(result.stderr.contains(expected), "\(args): \(result.stderr)")
        }
        #expect(E2E.storeHashes(path) == before)
    }
}
