import Foundation
import GRDB

/// Stores of the example (recipes) app filled with generated rows, for end-to-end tests.
enum ExampleData {
    /// 2024-06-01T00:00:00Z: the `--now` every test pins.
    static let now = "2024-06-01T00:00:00Z"
    static let nowSeconds = 1_717_200_000.0

    /// Creates a v1 store in `dir` with `recipes` recipes (2 ingredients each) and returns its path.
    /// Recipe i was last used i % 365 days before `now` (NULL when i % 20 == 0), so recipes with
    /// i % 365 in 0...30 and i % 20 != 0 are "used in the last month"; every 50th is an untitled draft.
    @discardableResult
    static func v1Store(in dir: String, recipes: Int, name: String = "app.sqlite") throws -> String {
        let created = try CLI.run(["migrate", "--create", "--to", "1", "--store", name], in: dir)
        precondition(created.status == 0, created.stderr)
        let path = dir + "/" + name
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
                INSERT INTO "Recipe" ("_pk", "name", "lastUsed", "servings", "rating")
                SELECT i, CASE WHEN i % 50 = 0 THEN 'Untitled' ELSE 'Recipe ' || i END,
                       CASE WHEN i % 20 = 0 OR i % 50 = 0 THEN NULL ELSE ? - (i % 365) * 86400.0 - 3600 END,
                       1 + i % 8, i % 6
                FROM n
                """, arguments: [recipes, nowSeconds])
            try db.execute(sql: """
                INSERT INTO "Ingredient" ("name", "quantity", "recipe")
                SELECT 'salt', '1 tsp', "_pk" FROM "Recipe" UNION ALL SELECT 'flour', '2 cups', "_pk" FROM "Recipe"
                """)
        }
        try queue.close()
        return path
    }

    /// How many recipes the favorites hook should mark after the drafts hook ran.
    static func expectedFavorites(recipes: Int) -> Int {
        (1...recipes).filter { i in i % 20 != 0 && i % 50 != 0 && (0...29).contains(i % 365) }.count
    }

    static func expectedDrafts(recipes: Int) -> Int { recipes / 50 }

    /// Runs a query on a store.
    static func query<T: DatabaseValueConvertible>(_ path: String, _ sql: String) throws -> T? {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { try T.fetchOne($0, sql: sql) }
    }
}
