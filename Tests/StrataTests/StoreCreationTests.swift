import Foundation
import GRDB
import Testing
@testable import Strata

@Suite struct StoreCreationTests {
    static func fixture(_ name: String) throws -> String {
        try String(contentsOfFile: TestStore.packageRoot + "/Tests/StrataTests/Fixtures/" + name, encoding: .utf8)
    }

    @Test func exampleSchemaIsExact() throws {
        let history = try ModelHistory.load(directory: TestStore.packageRoot + "/models")
        let store = try StoreCreator.create(at: TestStore.directory() + "/r.sqlite", model: history.latest!)
        #expect(try TestStore.schema(store) == [
            #"CREATE TABLE "Chef" ("_pk" INTEGER PRIMARY KEY AUTOINCREMENT, "name" TEXT, "email" TEXT)"#,
            #"CREATE TABLE "Ingredient" ("_pk" INTEGER PRIMARY KEY AUTOINCREMENT, "name" TEXT, "quantity" TEXT, "recipe" INTEGER REFERENCES "Recipe"("_pk") ON DELETE CASCADE)"#,
            #"CREATE TABLE "Recipe" ("_pk" INTEGER PRIMARY KEY AUTOINCREMENT, "name" TEXT, "lastUsed" REAL, "portions" INTEGER, "rating" INTEGER, "notes" TEXT, "favorite" INTEGER, "author" INTEGER REFERENCES "Chef"("_pk") ON DELETE SET NULL)"#,
            #"CREATE INDEX "strata_fk_Ingredient_recipe" ON "Ingredient" ("recipe")"#,
            #"CREATE INDEX "strata_fk_Recipe_author" ON "Recipe" ("author")"#,
            #"CREATE INDEX "strata_idx_Recipe_favorite_lastUsed" ON "Recipe" ("favorite", "lastUsed")"#,
            #"CREATE INDEX "strata_idx_Recipe_lastUsed" ON "Recipe" ("lastUsed")"#,
            #"CREATE UNIQUE INDEX "strata_uniq_Chef_email" ON "Chef" ("email")"#,
        ])
    }

    @Test func trickyModelSchemaIsExact() throws {
        let (store, _, _) = try TestStore.make(yaml: try Self.fixture("tricky.yaml"))
        #expect(try TestStore.schema(store) == [
            #"CREATE TABLE "Coupon" ("_pk" INTEGER PRIMARY KEY AUTOINCREMENT, "code" TEXT)"#,
            #"CREATE TABLE "Invoice" ("_pk" INTEGER PRIMARY KEY AUTOINCREMENT, "number" TEXT, "order" INTEGER REFERENCES "Order"("_pk") ON DELETE CASCADE)"#,
            #"CREATE TABLE "Item" ("_pk" INTEGER PRIMARY KEY AUTOINCREMENT, "_entity" TEXT NOT NULL, "title" TEXT, "order" INTEGER REFERENCES "Order"("_pk") ON DELETE CASCADE, "sweetness" INTEGER, "group" TEXT, "Drink_sweetness" REAL, "volume" REAL, "_order_Order_items" INTEGER)"#,
            #"CREATE TABLE "Order" ("_pk" INTEGER PRIMARY KEY AUTOINCREMENT, "id" INTEGER, "index" INTEGER, "desc" TEXT, "select" TEXT, "customer" INTEGER REFERENCES "customers"("_pk") ON DELETE RESTRICT, "coupon" INTEGER REFERENCES "Coupon"("_pk") ON DELETE SET NULL)"#,
            #"CREATE TABLE "Tag" ("_pk" INTEGER PRIMARY KEY AUTOINCREMENT, "label" TEXT)"#,
            #"CREATE TABLE "_Order_tags" ("source" INTEGER NOT NULL REFERENCES "Order"("_pk") ON DELETE CASCADE, "target" INTEGER NOT NULL REFERENCES "Tag"("_pk") ON DELETE CASCADE, PRIMARY KEY ("source", "target"))"#,
            #"CREATE TABLE "customers" ("_pk" INTEGER PRIMARY KEY AUTOINCREMENT, "name" TEXT, "referrer" INTEGER REFERENCES "customers"("_pk") ON DELETE SET NULL)"#,
            #"CREATE INDEX "strata_fk_Invoice_order" ON "Invoice" ("order")"#,
            #"CREATE INDEX "strata_fk_Item_order" ON "Item" ("order")"#,
            #"CREATE INDEX "strata_fk_Order_coupon" ON "Order" ("coupon")"#,
            #"CREATE INDEX "strata_fk_Order_customer" ON "Order" ("customer")"#,
            #"CREATE INDEX "strata_fk__Order_tags_target" ON "_Order_tags" ("target")"#,
            #"CREATE INDEX "strata_fk_customers_referrer" ON "customers" ("referrer")"#,
            #"CREATE INDEX "strata_idx_Item__entity" ON "Item" ("_entity")"#,
            #"CREATE INDEX "strata_idx_Order_desc_index" ON "Order" ("desc", "index")"#,
            #"CREATE UNIQUE INDEX "strata_uniq_Order_id" ON "Order" ("id")"#,
        ])
    }

    @Test func layoutRecordsWhereEachPropertyLives() throws {
        let (_, _, layout) = try TestStore.make(yaml: try Self.fixture("tricky.yaml"))
        let drink = try #require(layout.storage(of: "Drink"))
        #expect(drink.table == "Item")
        #expect(drink.isDiscriminated)
        #expect(drink.attributeColumns == ["title": "title", "sweetness": "Drink_sweetness", "volume": "volume"])
        #expect(layout.storage(of: "Dessert")?.attributeColumns["sweetness"] == "sweetness")
        #expect(layout.storage(of: "Item")?.kinds == ["Item", "Dessert", "Drink"])
        let order = try #require(layout.storage(of: "Order"))
        #expect(order.relationships["items"] == RelationshipStorage(kind: .inverseForeignKey, destination: "Item", isToMany: true,
                                                                    table: "Item", column: "order", orderColumn: "_order_Order_items"))
        #expect(order.relationships["tags"] == RelationshipStorage(kind: .joinTable, destination: "Tag", isToMany: true,
                                                                   table: "_Order_tags", column: "source", otherColumn: "target"))
        #expect(order.relationships["invoice"] == RelationshipStorage(kind: .inverseForeignKey, destination: "Invoice", isToMany: false,
                                                                      table: "Invoice", column: "order"))
        #expect(layout.storage(of: "Tag")?.relationships["orders"] == RelationshipStorage(
            kind: .joinTable, destination: "Order", isToMany: true, table: "_Order_tags", column: "target", otherColumn: "source"))
        #expect(layout.storage(of: "Customer")?.table == "customers")
    }

    @Test func foreignKeyActionsFollowTheOtherSidesDeleteRule() throws {
        let (store, _, _) = try TestStore.make(yaml: try Self.fixture("tricky.yaml"))
        try store.queue.write { db in
            try db.execute(sql: """
                INSERT INTO "customers" ("_pk", "name") VALUES (1, 'Ada');
                INSERT INTO "Order" ("_pk", "id", "customer") VALUES (10, 1, 1), (11, 2, NULL);
                INSERT INTO "Item" ("_pk", "_entity", "title", "order") VALUES (100, 'Dessert', 'Tart', 10), (101, 'Drink', 'Tea', 10), (102, 'Drink', 'Water', 11);
                INSERT INTO "Invoice" ("_pk", "number", "order") VALUES (7, 'A-1', 10);
                INSERT INTO "Tag" ("_pk", "label") VALUES (5, 'x');
                INSERT INTO "_Order_tags" ("source", "target") VALUES (10, 5);
                """)
            // deny on Customer.orders → RESTRICT: the customer with orders cannot be deleted by SQLite.
            #expect(throws: DatabaseError.self) { try db.execute(sql: #"DELETE FROM "customers" WHERE "_pk" = 1"#) }
            // cascade on Order.items and Order.invoice; the join row goes too.
            try db.execute(sql: #"DELETE FROM "Order" WHERE "_pk" = 10"#)
            #expect(try Int64.fetchAll(db, sql: #"SELECT "_pk" FROM "Item" ORDER BY 1"#) == [102])
            #expect(try Int.fetchOne(db, sql: #"SELECT count(*) FROM "Invoice""#) == 0)
            #expect(try Int.fetchOne(db, sql: #"SELECT count(*) FROM "_Order_tags""#) == 0)
            #expect(try Int.fetchOne(db, sql: "PRAGMA foreign_keys") == 1)
        }
    }

    @Test func metadataRoundTrip() throws {
        let yaml = try Self.fixture("tricky.yaml")
        let (store, model, layout) = try TestStore.make(yaml: yaml)
        let metadata = try store.metadata()
        #expect(metadata.version == 7)
        #expect(metadata.createdAtVersion == 7)
        #expect(metadata.modelYAML == yaml)
        #expect(metadata.entityHashes == VersionHash.entityHashes(of: model))
        #expect(metadata.modelHash == VersionHash.modelHash(of: model))
        #expect(metadata.layout == LayoutBuilder.layout(for: model))
        #expect(layout == metadata.layout)
        #expect(UUID(uuidString: metadata.storeUUID) != nil && metadata.storeUUID == metadata.storeUUID.lowercased())
        let history = try store.queue.read { try History.entries($0) }
        #expect(history.map(\.kind) == ["create"])
        #expect(history.first?.toVersion == 7 && history.first?.fromVersion == nil)
        #expect(history.first?.toolVersion == StrataVersion.current)
        try store.queue.write { try StoreMetadata.setUserValue($0, key: "team", value: "core") }
        #expect(try store.queue.read { try StoreMetadata.userValues($0) }.map { "\($0.key)=\($0.value)" } == ["team=core"])
        #expect(throws: Diagnostic.self) { try store.queue.write { try StoreMetadata.setUserValue($0, key: "strata.version", value: "9") } }
    }

    @Test func creationRefusesExistingFilesAndMissingDirectories() throws {
        let model = try ModelLoader.load(yaml: "version: 1\nentities:\n  A: {}\n", file: "m.yaml")
        let dir = TestStore.directory()
        try Data("hello".utf8).write(to: URL(fileURLWithPath: dir + "/x.sqlite"))
        let exists = #expect(throws: StoreError.self) { try StoreCreator.create(at: dir + "/x.sqlite", model: model) }
        // Library terms: no command named (the CLI words it with `strata adopt`).
        #expect(exists?.description == """
            error: '\(dir)/x.sqlite' already exists
            hint: open it instead, or adopt it first if it is not a store yet (StoreAdoption.adopt)
            """)
        #expect(try String(contentsOfFile: dir + "/x.sqlite", encoding: .utf8) == "hello")
        do {
            try StoreCreator.create(at: dir + "/missing/x.sqlite", model: model)
            Issue.record("expected an error")
        } catch let error as StoreError {
            #expect(error.exitCode == .invalidInput)
        }
    }
}
