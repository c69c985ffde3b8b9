import Foundation
import Strata
import StrataCore
@testable import StrataPostgres
import StrataTestSupport
import Testing

/// In-place steps on a PostgreSQL store with data (the shop fixture): retyped, renamed and dropped columns,
/// a renamed table, objects of a removed entity deleted, checks that roll back (exit 3) and user views that
/// stop a step (exit 4). Rows and object IDs are compared exactly. Skipped (and said so on stderr) without
/// PostgreSQL.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresInPlaceStepTests {
    static let none = HookSet(hooks: [])

    static func psql(_ sql: String) throws -> [String] { try PostgresStoreTests.psql(sql) }

    /// A shop store at v1 with customers, orders and items (a book, a gadget and a plain item).
    static func shop() async throws -> (url: PostgresStoreURL, schema: String, uuid: String) {
        let (url, schema) = try await PostgresMigrationTests.create(PostgresShopFixture.history(), at: 1)
        _ = try psql("""
            SET search_path TO "\(schema)";
            INSERT INTO "Customer" ("name", "group", "score") VALUES ('Ann', 'vip', 7), (NULL, NULL, NULL);
            INSERT INTO "Order" ("number", "total", "note", "customer") VALUES (1, 9.5, 'gift', 2), (2, NULL, NULL, NULL);
            INSERT INTO "Item" ("_entity", "label", "pages", "watts") VALUES
              ('Item', NULL, NULL, NULL), ('Book', 'Dune', 412, NULL), ('Gadget', 'Lamp', NULL, 40), ('Book', NULL, 90, NULL);
            INSERT INTO "Review" ("stars", "item") VALUES (5, 2), (1, 3);
            """)
        let uuid = try psql("SELECT value FROM \"\(schema)\".strata_metadata WHERE key = 'strata.uuid'")[0]
        return (url, schema, uuid)
    }

    static func version(_ schema: String) throws -> [String] {
        try psql("SELECT value FROM \"\(schema)\".strata_metadata WHERE key = 'strata.version'")
    }

    static func columns(_ schema: String) throws -> [String] {
        try psql("""
            SELECT table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable FROM information_schema.columns
            WHERE table_schema = '\(schema)' AND table_name IN ('Customer', 'Item', 'Order', 'Purchase', 'Review') ORDER BY table_name, ordinal_position
            """)
    }

    static let v1Columns = [
        "Customer._pk bigint NO", "Customer.name text YES", "Customer.group text YES", "Customer.score smallint YES",
        "Item._pk bigint NO", "Item._entity text NO", "Item.label text YES", "Item.pages smallint YES", "Item.watts integer YES",
        "Order._pk bigint NO", "Order.number integer YES", "Order.total real YES", "Order.note text YES", "Order.customer bigint YES",
        "Review._pk bigint NO", "Review.stars smallint YES", "Review.item bigint YES",
    ]

    @Test func retypesRenamesAndDropsInPlaceKeepingRowsAndIDs() async throws {
        let (url, schema, _) = try await Self.shop()
        _ = try Self.psql(#"UPDATE "\#(schema)"."Customer" SET "name" = 'Bea' WHERE "_pk" = 2"#)
        _ = try Self.psql("""
            SET search_path TO "\(schema)";
            CREATE TABLE audit_log (what text);
            CREATE FUNCTION log_customer() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO "\(schema)".audit_log VALUES ('c'); RETURN NEW; END $$;
            CREATE TRIGGER "Customer_log" AFTER UPDATE ON "Customer" FOR EACH ROW EXECUTE FUNCTION log_customer();
            """)
        let report = try await PostgresMigration.run(url, models: PostgresShopFixture.history(), hooks: Self.none, options: .init())
        #expect(report.toVersion == 2 && report.steps.count == 1)
        #expect(try Self.columns(schema) == [
            "Customer._pk bigint NO", "Customer.name text YES", "Customer.user text YES", "Customer.score integer YES",
            "Item._pk bigint NO", "Item._entity text NO", "Item.label text YES", "Item.pages integer YES",
            "Purchase._pk bigint NO", "Purchase.number bigint YES", "Purchase.total double precision YES", "Purchase.customer bigint YES",
            "Review._pk bigint NO", "Review.stars smallint YES", "Review.item bigint YES",
        ])
        #expect(try Self.psql(#"SELECT concat_ws(' ', "_pk", "name", coalesce("user", '-'), coalesce("score"::text, '-')) FROM "\#(schema)"."Customer" ORDER BY 1"#)
                    == ["1 Ann vip 7", "2 Bea - -"])
        #expect(try Self.psql(#"SELECT concat_ws(' ', "_pk", "number", coalesce("total"::text, '-'), coalesce("customer"::text, '-')) FROM "\#(schema)"."Purchase" ORDER BY 1"#)
                    == ["1 1 9.5 2", "2 2 - -"])
        #expect(try Self.psql(#"SELECT concat_ws(' ', "_pk", "_entity", "label", coalesce("pages"::text, '-')) FROM "\#(schema)"."Item" ORDER BY 1"#)
                    == ["1 Item unnamed -", "2 Book Dune 412", "4 Book unnamed 90"])
        #expect(try Self.psql(#"SELECT concat_ws(' ', "_pk", "stars", coalesce("item"::text, '-')) FROM "\#(schema)"."Review" ORDER BY 1"#)
                    == ["1 5 2", "2 1 -"])
        #expect(try Self.psql("""
            SELECT conname || ' ' || confrelid::regclass::text FROM pg_constraint WHERE contype = 'f' AND connamespace = '\(schema)'::regnamespace
            ORDER BY conname
            """) == [#"strata_fkey_Purchase_customer \#(schema)."Customer""#, #"strata_fkey_Review_item \#(schema)."Item""#])
        let indexes = try Self.psql("""
            SELECT indexname FROM pg_indexes WHERE schemaname = '\(schema)' AND indexname LIKE 'strata_%' AND indexname NOT LIKE '%pkey' ORDER BY indexname
            """)
        #expect(indexes == ["strata_fk_Purchase_customer", "strata_fk_Review_item", "strata_idx_Item__entity", "strata_idx_Purchase_number"])
        // The user's trigger is still attached and fires.
        _ = try Self.psql(#"UPDATE "\#(schema)"."Customer" SET "score" = 8 WHERE "_pk" = 1"#)
        #expect(try Self.psql(#"SELECT count(*) FROM "\#(schema)".audit_log"#) == ["1"])
        #expect(try Self.version(schema) == ["2"])
    }

    @Test func aNullInAnAttributeBecomingMandatoryRollsTheStepBack() async throws {
        let (url, schema, uuid) = try await Self.shop()
        await #expect {
            try await PostgresMigration.run(url, models: PostgresShopFixture.history(), hooks: Self.none, options: .init())
        } throws: { error in
            guard case MigrationError.violations(1, 2, let v) = error else { return false }
            return v.map(\.check) == [.nullInMandatoryAttribute] && v.map(\.code) == [1570] && v.map(\.entity) == ["Customer"]
                && v.map(\.properties) == [["name"]] && v.map(\.objects) == [[ObjectID(storeUUID: uuid, entity: "Customer", primaryKey: 2)]]
        }
        #expect(try Self.version(schema) == ["1"])
        #expect(try Self.columns(schema) == Self.v1Columns)
        #expect(try Self.psql(#"SELECT count(*) FROM "\#(schema)"."Item""#) == ["4"])
    }

    @Test func aUserViewOnADroppedColumnStopsTheStepWithExit4() async throws {
        let (url, schema, _) = try await Self.shop()
        _ = try Self.psql(#"UPDATE "\#(schema)"."Customer" SET "name" = 'Bea' WHERE "_pk" = 2"#)
        _ = try Self.psql("""
            SET search_path TO "\(schema)";
            CREATE VIEW gifts AS SELECT "_pk", "note" FROM "Order" WHERE "note" IS NOT NULL;
            CREATE MATERIALIZED VIEW item_labels AS SELECT "label" FROM "Item";
            CREATE VIEW scores AS SELECT "score" FROM "Customer";
            CREATE FUNCTION noop() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;
            CREATE TRIGGER "note changed" AFTER UPDATE OF "note" ON "Order" FOR EACH ROW EXECUTE FUNCTION noop();
            CREATE TRIGGER "any change" AFTER UPDATE ON "Order" FOR EACH ROW EXECUTE FUNCTION noop();
            """)
        let error = await #expect(throws: PostgresStoreError.self) {
            try await PostgresMigration.run(url, models: PostgresShopFixture.history(), hooks: Self.none, options: .init())
        }
        #expect(error == .dependentObjects(step: "version 1 → 2", objects: [
            #"trigger "note changed" on "Order" (on "Order".note)"#, #"view gifts (on "Order".note)"#, #"view scores (on "Customer".score)"#,
        ]))
        #expect(error?.exitCode == .notInferable)
        #expect(try Self.version(schema) == ["1"])
        #expect(try Self.columns(schema) == Self.v1Columns)
        #expect(try Self.psql(#"SELECT count(*) FROM "\#(schema)"."Item""#) == ["4"])
    }
}
