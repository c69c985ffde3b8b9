import Foundation
import StrataCore
@testable import StrataPostgres
import Testing

/// Hierarchy tables, delete rules and new mandatory properties rendered for PostgreSQL: exact statements.
extension PostgresStepPlannerTests {
    @Test func aRenamedSubEntityAndAFirstSubEntityChangeEntityValuesInPlace() throws {
        let history = try ModelHistory.load(yaml: [
            "1.yaml": """
                version: 1
                entities:
                  Order:
                    attributes: { total: { type: double } }
                    relationships:
                      buyer: { destination: Person, deleteRule: nullify }
                  Person:
                    attributes: { name: { type: string } }
                  Author:
                    parent: Person
                """,
            "2.yaml": """
                version: 2
                entities:
                  Order:
                    attributes: { total: { type: double } }
                    relationships:
                      buyer: { destination: Person, deleteRule: nullify }
                  Refund:
                    parent: Order
                    attributes: { reason: { type: string } }
                  Person:
                    attributes: { name: { type: string } }
                  Writer:
                    parent: Person
                    renamedFrom: Author
                """,
        ])
        let plan = try Self.plan(history, 1, 2)
        #expect(Self.dependents(plan) == [])
        #expect(Self.statements(plan) == [
            #"ALTER TABLE "Order" ADD COLUMN "_entity" text"#,
            #"ALTER TABLE "Order" ADD COLUMN "reason" text"#,
            #"UPDATE "Order" AS "strata_old" SET "_entity" = $1"#,
            #"UPDATE "Person" SET "_entity" = CASE "_entity" WHEN $1 THEN $2 ELSE "_entity" END WHERE "_entity" IN ($3)"#,
            #"ALTER TABLE "Order" ALTER COLUMN "_entity" SET NOT NULL"#,
            #"CREATE INDEX "strata_idx_Order__entity" ON "Order" ("_entity")"#,
        ])
        let arguments = plan.operations.compactMap { if case .execute(let s) = $0 { s.arguments } else { nil } }.filter { !$0.isEmpty }
        #expect(arguments == [[.text("Order")], [.text("Author"), .text("Writer"), .text("Author")]])
    }

    @Test func aNewMandatoryAttributeWithoutDefaultNeedsNoObjectsOfItsEntity() throws {
        let history = try ModelHistory.load(yaml: [
            "1.yaml": "version: 1\nentities:\n  Item:\n    attributes:\n      label: { type: string }\n  Book:\n    parent: Item\n",
            "2.yaml": "version: 2\nentities:\n  Item:\n    attributes:\n      label: { type: string }\n  Book:\n    parent: Item\n    attributes:\n      isbn: { type: string, optional: false }\n",
        ])
        let plan = try Self.plan(history, 1, 2)
        #expect(Self.statements(plan) == [
            #"ALTER TABLE "Item" ADD COLUMN "isbn" text"#,
            "-- check: Book has no objects (new non-optional Book.isbn has no default)\n"
                + #"SELECT t."_pk", t."_entity" FROM "Item" AS t WHERE t."_entity" IN ($1) ORDER BY t."_pk""#,
        ])
    }
}

extension PostgresStepPlannerTests {
    /// A to-one without an inverse gets one: the link moves to the other side, filled by a subquery over the
    /// old column, which is dropped only after every fill of the step. A user two wallets point at stops the
    /// step first (1590), where the subquery would keep one link and drop the other.
    static let walletGetsAnInverse = [
        "1.yaml": "version: 1\nentities:\n  User:\n    attributes:\n      name: { type: string }\n  Wallet:\n    relationships:\n      owner: { destination: User }\n",
        "2.yaml": "version: 2\nentities:\n  User:\n    attributes:\n      name: { type: string }\n    relationships:\n      wallet: { destination: Wallet, inverse: owner }\n  Wallet:\n    relationships:\n      owner: { destination: User, inverse: wallet }\n",
    ]

    @Test func aLinkMovingToTheOtherSideIsFilledFromASubquery() throws {
        let plan = try Self.plan(ModelHistory.load(yaml: Self.walletGetsAnInverse), 1, 2)
        #expect(Self.dependents(plan) == ["Wallet.owner"])
        #expect(Self.statements(plan) == [
            "-- check: each User has at most one link in User.wallet (it moves into a to-one column)\n"
                + #"SELECT l."owner", $1 FROM "Wallet" AS l WHERE l."owner" IS NOT NULL GROUP BY l."owner" HAVING count(*) > 1 ORDER BY 1"#,
            #"DROP INDEX "strata_fk_Wallet_owner""#,
            #"ALTER TABLE "User" ADD COLUMN "wallet" bigint"#,
            #"UPDATE "User" AS "strata_target" SET "wallet" = strata_row."strata_value" FROM (SELECT strata_old."_pk" AS "strata_key0", "#
                + #"(SELECT l."_pk" FROM "Wallet" AS l WHERE l."owner" = "strata_old"."_pk" AND l."_pk" IS NOT NULL ORDER BY l."_pk" LIMIT 1) AS "strata_value" "#
                + #"FROM "User" AS "strata_old") AS "strata_row" WHERE strata_target."_pk" = strata_row."strata_key0""#,
            #"ALTER TABLE "Wallet" DROP COLUMN "owner""#,
            #"ALTER TABLE "User" ADD CONSTRAINT "strata_fkey_User_wallet" FOREIGN KEY ("wallet") REFERENCES "Wallet" ("_pk") ON DELETE SET NULL DEFERRABLE INITIALLY IMMEDIATE"#,
            #"CREATE INDEX "strata_fk_User_wallet" ON "User" ("wallet")"#,
        ])
    }
}

extension PostgresStepPlannerTests {
    /// A renamed entity whose constraint and index names pass 63 bytes: renamed to the shortened new names.
    @Test func longConstraintAndIndexNamesAreRenamedShortened() throws {
        let old = "CustomerLoyaltyProgramMembershipEnrollment", new = "CustomerLoyaltyProgramMembershipRegistration"
        let history = try ModelHistory.load(yaml: [
            "1.yaml": "version: 1\nentities:\n  Person:\n    attributes:\n      name: { type: string }\n"
                + "  \(old):\n    relationships:\n      enrolledCustomer: { destination: Person }\n",
            "2.yaml": "version: 2\nentities:\n  Person:\n    attributes:\n      name: { type: string }\n"
                + "  \(new):\n    renamedFrom: \(old)\n    relationships:\n      enrolledCustomer: { destination: Person }\n",
        ])
        let plan = try Self.plan(history, 1, 2)
        let oldKey = PostgresNames.shortened("strata_fkey_\(old)_enrolledCustomer")
        let newKey = PostgresNames.shortened("strata_fkey_\(new)_enrolledCustomer")
        let oldIndex = PostgresNames.shortened("strata_fk_\(old)_enrolledCustomer")
        let newIndex = PostgresNames.shortened("strata_fk_\(new)_enrolledCustomer")
        #expect(oldKey.utf8.count == 63 && newKey.utf8.count == 63 && oldKey != newKey)
        #expect(Self.statements(plan) == [
            #"ALTER TABLE "\#(old)" RENAME TO "\#(new)""#,
            #"ALTER TABLE "\#(new)" RENAME CONSTRAINT "\#(oldKey)" TO "\#(newKey)""#,
            #"ALTER INDEX "\#(oldIndex)" RENAME TO "\#(newIndex)""#,
        ])
    }
}
