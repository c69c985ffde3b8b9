import Foundation
import Testing
import StrataTestSupport

/// `setRelationship` on a one-to-one, end to end (SPEC §11.4): an ambiguity on either side is exit 3 naming
/// both sides, even under `warn`, and rolls the step back; a clean match moves the wallet to its new owner.
@Suite struct OneToOneLinkCLITests {
    static func model(_ version: Int) -> String {
        """
        version: \(version)
        entities:
          User:
            attributes: { name: { type: string }, walletCode: { type: string } }
            relationships: { wallet: { destination: Wallet, inverse: owner } }
          Wallet:
            attributes: { code: { type: string }\(version == 2 ? ", note: { type: string }" : "") }
            relationships: { owner: { destination: User, inverse: wallet } }
        """
    }

    /// Users ann (walletCode A), bob (B), cy (A); wallets A, B; dee holds wallet B.
    static func project(entity: String, relationship: String, match: String) throws -> String {
        let dir = Temporary.directory("one-to-one")
        try FileManager.default.createDirectory(atPath: dir + "/models", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/migrations", withIntermediateDirectories: true)
        for v in [1, 2] { try model(v).write(toFile: dir + "/models/\(v).yaml", atomically: true, encoding: .utf8) }
        let created = try CLI.run(["migrate", "--create", "--to", "1", "--store", "app.sqlite"], in: dir)
        #expect(created.status == 0, "\(created.stderr)")
        try E2E.execute(dir + "/app.sqlite", """
            INSERT INTO "Wallet" ("_pk", "code") VALUES (1, 'A'), (2, 'B');
            INSERT INTO "User" ("_pk", "name", "walletCode", "wallet") VALUES (1, 'ann', 'A', NULL), (2, 'bob', 'B', NULL), (3, 'cy', 'A', NULL), (4, 'dee', NULL, 2);
            """)
        let hook = "id: link\nafter: 2\nonViolation: warn\nsteps:\n  - setRelationship: { entity: \(entity), relationship: \(relationship), match: { \(match) } }\n"
        try hook.write(toFile: dir + "/migrations/link.yaml", atomically: true, encoding: .utf8)
        return dir
    }

    @Test(arguments: [("User", "wallet", "walletCode: code", "User.wallet"), ("Wallet", "owner", "code: walletCode", "Wallet.owner")])
    func twoOwnersForOneWalletAreExit3NamingBothSides(entity: String, relationship: String, match: String, name: String) throws {
        let dir = try Self.project(entity: entity, relationship: relationship, match: match)
        let path = dir + "/app.sqlite"
        let before = try E2E.rows(path, #"SELECT "_pk", "wallet" FROM "User" ORDER BY 1"#)
        let run = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(run.status == 3)
        let uuid = try E2E.rows(path, #"SELECT "value" FROM "strata_metadata" WHERE "key" = 'strata.uuid'"#).first ?? ""
        #expect(run.stderr.contains("hook 'link': setRelationship \(name) is ambiguous: Wallet x-strata://\(uuid)/Wallet/p1 "
                                    + "(code = \"A\") matches several User objects: x-strata://\(uuid)/User/p1, x-strata://\(uuid)/User/p3"),
                "\(run.stderr)")
        #expect(try E2E.rows(path, #"SELECT max("toVersion") FROM "strata_history""#) == ["1"])
        #expect(try E2E.rows(path, #"SELECT "_pk", "wallet" FROM "User" ORDER BY 1"#) == before)
        // Once cy's code no longer matches, bob gets wallet B and dee loses it: a one-to-one holds one owner.
        try E2E.execute(path, #"UPDATE "User" SET "walletCode" = 'C' WHERE "_pk" = 3"#)
        let fixed = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(fixed.status == 0, "\(fixed.stderr)")
        #expect(try E2E.rows(path, #"SELECT "_pk", "wallet" FROM "User" ORDER BY 1"#) == ["1|1", "2|2", "3|NULL", "4|NULL"])
    }
}
