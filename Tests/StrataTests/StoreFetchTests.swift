import Foundation
import GRDB
import Testing
@testable import Strata
import StrataTestSupport

/// Reading objects back (SPEC §13): `Store.fetch` compiles the predicate against the recorded model and
/// streams rows through a cursor; `table(for:)` / `column(for:property:)` answer where a property lives.
@Suite struct StoreFetchTests {
    /// "pk Entity values" of each object, values in name order.
    static func lines(_ objects: [FetchedObject]) -> [String] {
        objects.map { object in
            "\(object.id.primaryKey) \(object.entity) " + object.values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        }
    }

    @Test func objectsCarryTheirIDAndTheirOwnEntitysAttributes() async throws {
        let store = try await StoreOpenTests.v1Store()
        let uuid = try store.metadata().storeUUID
        let all = try store.fetchAll("Item", sortedBy: [PropertySort("rank", ascending: false)])
        #expect(Self.lines(all) == [
            "3 Item rank=7 title=\"Lamp\"",
            "2 Book pages=412 rank=5 title=\"Dune\"",
            "4 Book pages=320 rank=2 title=\"Emma\"",
            "1 Item rank=1 title=\"Pen\"",
        ])
        #expect(all[1].id == ObjectID(storeUUID: uuid, entity: "Book", primaryKey: 2))
        #expect(all[1]["pages"] == .integer(412))
        #expect(all[0]["pages"] == nil)   // not an attribute of Item
        #expect(all[1].string("title") == "Dune" && all[1].int("pages") == 412 && all[1].double("rank") == 5)
        #expect(all[1].string("rank") == nil && all[0].int("pages") == nil)

        #expect(try store.fetchAll("Item", includesSubentities: false).map(\.id.primaryKey) == [1, 3])
        #expect(try store.fetchAll("Book").map(\.id.primaryKey) == [2, 4])
        #expect(try store.fetchAll("Item", where: "rank >= %@ AND title != %@", arguments: [.number(2), .text("Dune")],
                                   sortedBy: [PropertySort("title")]).map(\.id.primaryKey) == [4, 3])
        #expect(try store.fetchAll("Item", sortedBy: [PropertySort("title", ascending: false)], limit: 2).map(\.id.primaryKey) == [1, 3])
        #expect(try store.fetchAll("Item", limit: 0).isEmpty)
        // $NOW and variables come from the context.
        let context = PredicateContext(variables: ["MIN": "5"], now: Date(timeIntervalSince1970: 86_400))
        #expect(context.now == 86_400 && context.nowDate == Date(timeIntervalSince1970: 86_400))
        #expect(try store.fetchAll("Item", where: "rank >= $MIN", context: context).map(\.id.primaryKey) == [2, 3])
    }

    @Test func equalSortKeysFallBackToThePrimaryKey() async throws {
        let store = try await StoreOpenTests.v1Store()
        try store.write { try $0.execute(sql: #"UPDATE "Item" SET "rank" = 1"#) }
        #expect(try store.fetchAll("Item", sortedBy: [PropertySort("rank")]).map(\.id.primaryKey) == [1, 2, 3, 4])
        #expect(try store.fetchAll("Item", sortedBy: [PropertySort("rank", ascending: false)]).map(\.id.primaryKey) == [1, 2, 3, 4])
    }

    @Test func aLargeResultStreamsThroughTheCursor() async throws {
        let store = try await StoreOpenTests.v1Store()
        try store.write { db in
            try db.execute(sql: """
                WITH RECURSIVE n(i) AS (SELECT 5 UNION ALL SELECT i + 1 FROM n WHERE i < 100004)
                INSERT INTO "Item" ("_pk", "_entity", "title", "rank") SELECT i, 'Item', 'x' || i, i % 10 FROM n
                """)
        }
        let (count, rankSum) = try store.fetch("Item", where: "rank >= 8") { cursor in
            var count = 0, sum: Int64 = 0
            while let object = try cursor.next() {
                count += 1
                if case .integer(let rank)? = object["rank"] { sum += rank }
            }
            return (count, sum)
        }
        #expect(count == 20_000)
        #expect(rankSum == 10_000 * 8 + 10_000 * 9)
        // Stopping early reads no further.
        let first = try store.fetch("Item", sortedBy: [PropertySort("title")]) { cursor in try cursor.next()?["title"] }
        #expect(first == .text("Dune"))
    }

    @Test func badFetchesAreLocatedErrorsInLibraryTerms() async throws {
        let store = try await StoreOpenTests.v1Store()
        let entity = #expect(throws: FetchError.self) { try store.fetchAll("Itme") }
        #expect(entity?.description == "error: the store's model has no entity 'Itme'\nhint: did you mean 'Item'?")
        let sort = #expect(throws: FetchError.self) { try store.fetchAll("Item", sortedBy: [PropertySort("rnak")]) }
        #expect(sort?.description == "error: Item has no attribute 'rnak'\nhint: did you mean 'rank'?")
        let limit = #expect(throws: FetchError.self) { try store.fetchAll("Item", limit: -1) }
        #expect(limit?.description == "error: the limit -1 is negative\nhint: give 0 or more, or nil for no limit")
        let predicate = #expect(throws: PredicateCompileError.self) { try store.fetchAll("Item", where: "rank >> 3") }
        #expect(predicate?.description == """
            predicate:1:7: error: expected a value but found '>'
                rank >> 3
                      ^
            """)
        let extra = #expect(throws: Diagnostic.self) { try store.fetchAll("Item", arguments: [.number(1)]) }
        #expect(extra?.message == "1 arguments given without a predicate")
        // A value is bound, never pasted: a quote in it is data.
        #expect(try store.fetchAll("Item", where: "title == %@", arguments: [.text("x' OR 1=1 --")]).isEmpty)
    }

    @Test func theLayoutNamesTablesAndColumnsForGRDBQueries() async throws {
        let root = TestStore.packageRoot
        let models = ProjectSource.directory(root + "/models")
        let v1 = StoreOpenTests.options(target: 1)
        let migrated = try await Store.open(at: TestStore.directory() + "/old.sqlite", models: models, options: v1)
        try migrated.write { try $0.execute(sql: #"INSERT INTO "Recipe" ("_pk", "name", "servings", "rating") VALUES (1, 'Soup', 4, 3)"#) }
        _ = try await Store.open(at: migrated.path, models: models, options: StoreOpenTests.options())
        let created = try await Store.open(at: TestStore.directory() + "/new.sqlite", models: models, options: StoreOpenTests.options())
        try created.write { try $0.execute(sql: #"INSERT INTO "Recipe" ("_pk", "name", "portions", "rating") VALUES (1, 'Soup', 4, 3)"#) }

        let names = try [migrated, created].map { try $0.column(for: "Recipe", property: "portions") }
        #expect(names == ["portions", "portions"])   // a rename is a column rename on the migrated store
        for store in [migrated, created] {
            let table = try store.table(for: "Recipe")
            let column = try store.column(for: "Recipe", property: "portions")
            #expect(column == (try store.metadata().layout.storage(of: "Recipe")?.attributeColumns["portions"]))
            let portions = try store.read { db in
                try Int.fetchOne(db, SQLRequest(literal: "SELECT \(identifier: column) FROM \(identifier: table) WHERE \"_pk\" = 1"))
            }
            #expect(portions == 4)
            #expect(try store.fetchAll("Recipe").first?["portions"] == .integer(4))
            #expect(try store.column(for: "Recipe", property: "author") == store.metadata().layout.storage(of: "Recipe")?.relationships["author"]?.column)
        }
        let toMany = #expect(throws: FetchError.self) { try created.column(for: "Recipe", property: "ingredients") }
        #expect(toMany?.description == """
            error: Recipe.ingredients is not a column of Recipe's table: it is stored in table 'Ingredient'
            hint: query that table for it, or use a to-one relationship
            """)
        let unknown = #expect(throws: FetchError.self) { try created.column(for: "Recipe", property: "portion") }
        #expect(unknown?.description == "error: Recipe has no attribute 'portion'\nhint: did you mean 'portions'?")
        #expect(try created.table(for: "Recipe") == "Recipe")
        let book = try await StoreOpenTests.v1Store()
        #expect(try book.table(for: "Book") == "Item")
    }
}
