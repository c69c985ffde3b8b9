import Foundation
import StrataCore
@testable import StrataPostgres
import Testing

/// The shop fixture's step and hierarchy, link and refused steps rendered for PostgreSQL: exact statements.
extension PostgresStepPlannerTests {
    @Test func shopStepIsInPlace() throws {
        let plan = try Self.plan(PostgresShopFixture.history(), 1, 2)
        #expect(Self.dependents(plan) == ["Customer.score", "Item.pages", "Item.watts", "Order.number", "Order.total", "Order.note"])
        #expect(Self.statements(plan) == [
            #"DELETE FROM "Item" WHERE "_entity" NOT IN ($1, $2)"#,
            #"ALTER TABLE "Customer" ALTER COLUMN "score" TYPE integer USING CAST("score" AS integer)"#,
            #"ALTER TABLE "Item" ALTER COLUMN "pages" TYPE integer USING CAST("pages" AS integer)"#,
            #"ALTER TABLE "Order" ALTER COLUMN "number" TYPE bigint USING CAST("number" AS bigint), "#
                + #"ALTER COLUMN "total" TYPE double precision USING CAST("total" AS double precision)"#,
            #"ALTER TABLE "Item" DROP COLUMN "watts""#,
            #"ALTER TABLE "Order" DROP COLUMN "note""#,
            #"ALTER TABLE "Customer" RENAME COLUMN "group" TO "user""#,
            #"ALTER TABLE "Order" RENAME TO "Purchase""#,
            #"UPDATE "Item" SET "label" = $1 WHERE "label" IS NULL"#,
            "-- check: Customer.name has no NULLs (it becomes non-optional and has no default)\n"
                + #"SELECT t."_pk", $1 FROM "Customer" AS t WHERE t."name" IS NULL ORDER BY t."_pk""#,
            #"ALTER TABLE "Purchase" RENAME CONSTRAINT "strata_fkey_Order_customer" TO "strata_fkey_Purchase_customer""#,
            #"ALTER INDEX "strata_idx_Order_number" RENAME TO "strata_idx_Purchase_number""#,
            #"ALTER INDEX "strata_fk_Order_customer" RENAME TO "strata_fk_Purchase_customer""#,
        ])
        guard case .execute(let delete) = plan.operations[1] else { Issue.record("not a DELETE"); return }
        #expect(delete.arguments == [.text("Book"), .text("Item")])
    }

    /// Users, groups (many-to-many) and pets (to-many with a to-one inverse); in v2 the pets' owners become
    /// a to-many (a join table) and the groups' members ordered.
    static let links = [
        "1.yaml": """
            version: 1
            entities:
              User:
                attributes: { name: { type: string } }
                relationships:
                  groups: { destination: Group, toMany: true, inverse: members }
                  pets: { destination: Pet, toMany: true, inverse: owner }
              Group:
                relationships:
                  members: { destination: User, toMany: true, inverse: groups }
              Pet:
                relationships:
                  owner: { destination: User, inverse: pets }
            """,
        "2.yaml": """
            version: 2
            entities:
              User:
                attributes: { name: { type: string } }
                relationships:
                  groups: { destination: Group, toMany: true, inverse: members }
                  pets: { destination: Pet, toMany: true, inverse: owners }
              Group:
                relationships:
                  members: { destination: User, toMany: true, inverse: groups, ordered: true }
              Pet:
                relationships:
                  owners: { destination: User, toMany: true, inverse: pets, renamedFrom: owner }
            """,
    ]

    /// A to-many's links move from a foreign key into a new join table (copied, then the column dropped);
    /// a many-to-many becomes ordered (its order column filled by a window function, joined back on the key).
    @Test func linksMoveIntoAJoinTableAndAnOrderColumnIsFilled() throws {
        let history = try ModelHistory.load(yaml: Self.links)
        let plan = try Self.plan(history, 1, 2)
        #expect(Self.dependents(plan) == ["Pet.owner"])
        #expect(Self.statements(plan) == [
            #"DROP INDEX "strata_fk_Pet_owner""#,
            #"CREATE TABLE "_Pet_owners" ("source" bigint NOT NULL, "target" bigint NOT NULL, PRIMARY KEY ("source", "target"))"#,
            #"INSERT INTO "_Pet_owners" ("source", "target") SELECT l."_pk", l."owner" FROM "Pet" AS l WHERE l."_pk" IS NOT NULL AND l."owner" IS NOT NULL"#,
            #"ALTER TABLE "_Group_members" ADD COLUMN "source_order" bigint"#,
            #"UPDATE "_Group_members" AS "strata_target" SET "source_order" = strata_row."strata_value" FROM (SELECT strata_old."source" AS "strata_key0", "#
                + #"strata_old."target" AS "strata_key1", row_number() OVER (PARTITION BY "strata_old"."source" ORDER BY "strata_old"."target") AS "strata_value" "#
                + #"FROM "_Group_members" AS "strata_old") AS "strata_row" WHERE strata_target."source" = strata_row."strata_key0" AND strata_target."target" = strata_row."strata_key1""#,
            #"ALTER TABLE "Pet" DROP COLUMN "owner""#,
            #"ALTER TABLE "_Pet_owners" ADD CONSTRAINT "strata_fkey__Pet_owners_source" FOREIGN KEY ("source") REFERENCES "Pet" ("_pk") ON DELETE CASCADE DEFERRABLE INITIALLY IMMEDIATE"#,
            #"ALTER TABLE "_Pet_owners" ADD CONSTRAINT "strata_fkey__Pet_owners_target" FOREIGN KEY ("target") REFERENCES "User" ("_pk") ON DELETE CASCADE DEFERRABLE INITIALLY IMMEDIATE"#,
            #"CREATE INDEX "strata_fk__Pet_owners_target" ON "_Pet_owners" ("target")"#,
        ])
    }
}

extension PostgresStepPlannerTests {
    static let leavingHierarchy = [
        "1.yaml": "version: 1\nentities:\n  Item:\n    attributes:\n      label: { type: string }\n  Book:\n    parent: Item\n",
        "2.yaml": "version: 2\nentities:\n  Item:\n    attributes:\n      label: { type: string }\n  Book:\n    attributes:\n      label: { type: string }\n",
    ]

    @Test func objectsLeavingAHierarchyAreCopiedToTheirTableKeepingTheirKeys() throws {
        let history = try ModelHistory.load(yaml: Self.leavingHierarchy)
        let statements = Self.statements(try Self.plan(history, 1, 2))
        // Book's rows are copied with their keys (object IDs) before Item loses them; Book's identity continues above them.
        #expect(statements == [
            #"DROP INDEX "strata_idx_Item__entity""#,
            #"CREATE TABLE "Book" ("_pk" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, "label" text)"#,
            #"INSERT INTO "Book" ("_pk", "label") OVERRIDING SYSTEM VALUE SELECT "strata_old"."_pk", "strata_old"."label" FROM "Item" AS "strata_old" WHERE "strata_old"."_entity" IN ($1) ORDER BY strata_old."_pk""#,
            #"SELECT setval(pg_get_serial_sequence($1, '_pk'), coalesce((SELECT max("_pk") FROM "Book"), 1), (SELECT max("_pk") FROM "Book") IS NOT NULL)"#,
            #"DELETE FROM "Item" WHERE "_entity" NOT IN ($1)"#,
            #"ALTER TABLE "Item" DROP COLUMN "_entity""#,
        ])
        #expect(PostgresStoreError.notYetSupported(what: "x").exitCode == .invalidInput)
    }
}

extension PostgresStepPlannerTests {
    @Test func aToOneWhoseDestinationIsRemovedIsClearedInPlaceAndItsConstraintMoves() throws {
        let history = try ModelHistory.load(yaml: [
            "1.yaml": "version: 1\nentities:\n  Author:\n    attributes:\n      name: { type: string }\n  Book:\n    relationships:\n      author: { destination: Author }\n",
            "2.yaml": "version: 2\nentities:\n  Person:\n    attributes:\n      name: { type: string }\n  Book:\n    relationships:\n      author: { destination: Person }\n",
        ])
        let statements = Self.statements(try Self.plan(history, 1, 2))
        // The links are dropped (SPEC §4) in place; the old constraint goes first, so that Author can be dropped.
        #expect(statements == [
            #"ALTER TABLE "Book" DROP CONSTRAINT "strata_fkey_Book_author""#,
            #"CREATE TABLE "Person" ("_pk" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, "name" text)"#,
            #"ALTER TABLE "Book" ALTER COLUMN "author" TYPE bigint USING NULL"#,
            #"DROP TABLE "Author""#,
            #"ALTER TABLE "Book" ADD CONSTRAINT "strata_fkey_Book_author" FOREIGN KEY ("author") REFERENCES "Person" ("_pk") ON DELETE SET NULL DEFERRABLE INITIALLY IMMEDIATE"#,
        ])
    }
}
