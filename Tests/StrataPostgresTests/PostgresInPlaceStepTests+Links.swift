import Foundation
import Strata
import StrataCore
@testable import StrataPostgres
import StrataTestSupport
import Testing

/// Links moved in place, a uniqueness whose duplicates roll the step back, and a materialized view and a
/// rule on a dropped table, against the throwaway server.
extension PostgresInPlaceStepTests {
    @Test func linksMoveIntoAJoinTableAndGetTheirOrder() async throws {
        let history = try ModelHistory.load(yaml: PostgresStepPlannerTests.links)
        let (url, schema) = try await PostgresMigrationTests.create(history, at: 1)
        _ = try Self.psql("""
            SET search_path TO "\(schema)";
            INSERT INTO "User" ("name") VALUES ('Ann'), ('Bob'), ('Cy');
            INSERT INTO "Group" DEFAULT VALUES;
            INSERT INTO "Group" DEFAULT VALUES;
            INSERT INTO "_Group_members" ("source", "target") VALUES (1, 3), (1, 1), (2, 2);
            INSERT INTO "Pet" ("owner") VALUES (2), (NULL), (1);
            """)
        let report = try await PostgresMigration.run(url, models: history, hooks: Self.none, options: .init())
        #expect(report.toVersion == 2)
        #expect(try Self.psql(#"SELECT "source" || ' ' || "target" FROM "\#(schema)"."_Pet_owners" ORDER BY 1"#) == ["1 2", "3 1"])
        #expect(try Self.psql(#"SELECT "source" || ' ' || "target" || ' ' || "source_order" FROM "\#(schema)"."_Group_members" ORDER BY 1"#)
                    == ["1 1 1", "1 3 2", "2 2 1"])
        #expect(try Self.psql(#"SELECT "_pk" FROM "\#(schema)"."Pet" ORDER BY 1"#) == ["1", "2", "3"])
        #expect(try Self.psql("""
            SELECT count(*) FROM information_schema.columns WHERE table_schema = '\(schema)' AND table_name = 'Pet' AND column_name = 'owner'
            """) == ["0"])
    }

    @Test func duplicatesForANewUniquenessRollTheStepBack() async throws {
        let history = try ModelHistory.load(yaml: [
            "1.yaml": "version: 1\nentities:\n  Order:\n    attributes:\n      code: { type: string }\n      desc: { type: string }\n",
            "2.yaml": "version: 2\nentities:\n  Order:\n    attributes:\n      code: { type: string }\n    uniqueness: [[code]]\n",
        ])
        let (url, schema) = try await PostgresMigrationTests.create(history, at: 1)
        _ = try Self.psql(#"INSERT INTO "\#(schema)"."Order" ("code", "desc") VALUES ('a', 'x'), ('b', NULL), ('a', NULL), (NULL, NULL), (NULL, NULL)"#)
        let uuid = try Self.psql("SELECT value FROM \"\(schema)\".strata_metadata WHERE key = 'strata.uuid'")[0]
        // The report SQLite gives (MigrationFailureTests): the objects grouped by their shared values.
        await #expect {
            try await PostgresMigration.run(url, models: history, hooks: Self.none, options: .init())
        } throws: { error in
            (error as? MigrationError)?.description == """
                error: v1 → v2: no duplicates of Order.code (new uniqueness constraint): 2 objects (code 1551)
                  "a": x-strata://\(uuid)/Order/p1 x-strata://\(uuid)/Order/p3
                hint: remove the duplicates in a hook of an earlier version, then add the uniqueness constraint; the store was not changed
                """
        }
        #expect(try Self.version(schema) == ["1"])
        #expect(try Self.psql(#"SELECT count("desc") FROM "\#(schema)"."Order""#) == ["1"])
    }

    @Test func aMaterializedViewAndARuleOnADroppedTableStopTheStep() async throws {
        let history = try ModelHistory.load(yaml: [
            "1.yaml": "version: 1\nentities:\n  group:\n    attributes:\n      name: { type: string }\n  Tag:\n    attributes:\n      name: { type: string }\n",
            "2.yaml": "version: 2\nentities:\n  Tag:\n    attributes:\n      name: { type: string }\n",
        ])
        let (url, schema) = try await PostgresMigrationTests.create(history, at: 1)
        _ = try Self.psql("""
            SET search_path TO "\(schema)";
            CREATE MATERIALIZED VIEW "group names" AS SELECT "name" FROM "group";
            CREATE RULE tag_copy AS ON INSERT TO "Tag" DO ALSO INSERT INTO "group" ("name") VALUES (NEW."name");
            CREATE RULE group_self AS ON DELETE TO "group" DO ALSO NOTIFY strata_test;
            """)
        let error = await #expect(throws: PostgresStoreError.self) {
            try await PostgresMigration.run(url, models: history, hooks: Self.none, options: .init())
        }
        #expect(error == .dependentObjects(step: "version 1 → 2", objects: [
            #"materialized view "group names" (on "group")"#, #"rule tag_copy on "Tag" (on "group")"#,
        ]))
        #expect(try Self.version(schema) == ["1"])
        #expect(try Self.psql("SELECT count(*) FROM information_schema.tables WHERE table_schema = '\(schema)' AND table_name = 'group'") == ["1"])
    }
}

extension PostgresInPlaceStepTests {
    @Test func aLinkMovesToTheOtherSideOfAOneToOne() async throws {
        let history = try ModelHistory.load(yaml: PostgresStepPlannerTests.walletGetsAnInverse)
        let (url, schema) = try await PostgresMigrationTests.create(history, at: 1)
        _ = try Self.psql("""
            SET search_path TO "\(schema)";
            INSERT INTO "User" ("name") VALUES ('Ann'), ('Bob'), ('Cy');
            INSERT INTO "Wallet" ("owner") VALUES (2), (NULL), (1);
            """)
        _ = try await PostgresMigration.run(url, models: history, hooks: Self.none, options: .init())
        #expect(try Self.psql(#"SELECT "_pk" || ' ' || "name" || ' ' || coalesce("wallet"::text, '-') FROM "\#(schema)"."User" ORDER BY 1"#)
                    == ["1 Ann 3", "2 Bob 1", "3 Cy -"])
        #expect(try Self.psql(#"SELECT string_agg("_pk"::text, ' ' ORDER BY "_pk") FROM "\#(schema)"."Wallet""#) == ["1 2 3"])
        #expect(try Self.version(schema) == ["2"])
    }
}
