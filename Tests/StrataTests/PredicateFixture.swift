import Foundation
import GRDB
@testable import Strata
import StrataTestSupport

/// A small recipes store with NULLs, accents, ß, Turkish ı/İ, dates, decimals, a hierarchy
/// (Dessert is a Recipe), to-one, to-many and many-to-many relationships.
enum PredicateFixture {
    static let yaml = """
    version: 1
    entities:
      Recipe:
        attributes:
          name:     { type: string }
          rating:   { type: int16 }
          lastUsed: { type: date }
          favorite: { type: bool }
          price:    { type: decimal }
          calories: { type: double }
          code:     { type: uuid }
          notes:    { type: string }
        relationships:
          author:      { destination: Chef, inverse: recipes, deleteRule: nullify }
          ingredients: { destination: Ingredient, toMany: true, inverse: recipe, deleteRule: cascade }
          tags:        { destination: Tag, toMany: true, inverse: recipes }
      Dessert:
        parent: Recipe
        attributes:
          sweetness: { type: int16 }
      Chef:
        attributes:
          name: { type: string }
        relationships:
          recipes: { destination: Recipe, toMany: true, inverse: author, deleteRule: nullify }
      Ingredient:
        attributes:
          name:     { type: string }
          quantity: { type: int32 }
        relationships:
          recipe: { destination: Recipe, inverse: ingredients, deleteRule: nullify }
      Tag:
        attributes:
          label: { type: string }
        relationships:
          recipes: { destination: Recipe, toMany: true, inverse: tags }
    """

    /// `$NOW` in the tests: 2024-05-21T00:00:00Z.
    static let now: Double = 1_716_249_600

    static let rows = """
    INSERT INTO "Chef" ("_pk", "name") VALUES (1, 'Ana'), (2, 'Bjørn'), (3, 'Çelik'), (4, 'Dora');
    INSERT INTO "Tag" ("_pk", "label") VALUES (1, 'quick'), (2, 'sweet'), (3, 'french'), (4, 'unused');
    INSERT INTO "Recipe" ("_pk", "_entity", "name", "rating", "lastUsed", "favorite", "price", "calories", "code", "author", "sweetness") VALUES
      (1, 'Recipe',  'Soup',          3,    1715299200, 0,    '12.5',  250.0, '6f1c0d2a-8b3e-4c5d-9e7f-0a1b2c3d4e5f', 1, NULL),
      (2, 'Dessert', 'Crème brûlée',  5,    1711929600, 1,    '7.25',  420.5, NULL, 2, 5),
      (3, 'Recipe',  'Straße Salad',  NULL, NULL,       NULL, NULL,    NULL,  NULL, NULL, NULL),
      (4, 'Recipe',  'ıspanak',       1,    1714564800, 0,    '100',   90.0,  NULL, 1, NULL),
      (5, 'Recipe',  'CREME',         2,    1703980800, 1,    '0.5',   NULL,  NULL, 3, NULL),
      (6, 'Dessert', 'Ice Cream',     4,    1716163200, 0,    '3',     300.0, NULL, NULL, 9),
      (7, 'Recipe',  'İskender',      0,    1640995200, 0,    '-2.5',  800.0, NULL, 2, NULL),
      (8, 'Recipe',  'naïve stew',    5,    1715761800, 1,    '12.50', 500.0, '00000000-0000-0000-0000-000000000001', 3, NULL);
    INSERT INTO "Ingredient" ("_pk", "name", "quantity", "recipe") VALUES
      (1, 'salt', 2, 1), (2, 'water', 500, 1), (3, 'cream', 200, 2), (4, 'sugar', 100, 2), (5, 'lettuce', 1, 3),
      (6, 'egg', 3, 5), (7, 'salt', 1, 5), (8, 'water', 1000, 8), (9, 'pepper', NULL, NULL);
    INSERT INTO "_Recipe_tags" ("source", "target") VALUES (1, 1), (2, 2), (2, 3), (4, 1), (6, 2);
    """

    struct Fixture {
        var store: Store
        var model: Model
        var layout: StoreLayout
        var directory: URL
        var compiler: PredicateCompiler { PredicateCompiler(model: model, layout: layout) }
    }

    /// A fresh store with the rows above, in a temporary directory.
    static func make(yaml: String = yaml, rows: String = rows) throws -> Fixture {
        let model = try ModelLoader.load(yaml: yaml, file: "fixture.yaml")
        let directory = URL(fileURLWithPath: Temporary.directory("predicate"))
        let store = try StoreCreator.create(at: directory.appendingPathComponent("store.sqlite").path, model: model)
        try store.queue.write { db in try db.execute(sql: rows) }
        let layout = try store.metadata().layout
        return Fixture(store: store, model: model, layout: layout, directory: directory)
    }

    /// The primary keys of `entity`'s table rows matching the predicate, ascending.
    static func matches(_ fixture: Fixture, _ predicate: String, entity: String = "Recipe",
                        arguments: [PredicateArgument] = [], variables: [String: String] = [:]) throws -> [Int64] {
        let context = PredicateContext(arguments: arguments, variables: variables, now: now)
        let statement = try fixture.compiler.compile(predicate, entity: entity, context: context)
        var conditions = [statement.sql]
        var values = statement.arguments
        if let filter = fixture.compiler.entityFilter(for: entity) {
            conditions.insert(filter.sql, at: 0)
            values.insert(contentsOf: filter.arguments, at: 0)
        }
        let table = fixture.layout.storage(of: entity)!.table
        let sql = "SELECT t.\"_pk\" FROM \(quoted(table)) AS t WHERE \(conditions.joined(separator: " AND ")) ORDER BY t.\"_pk\""
        return try fixture.store.queue.read { db in
            try Int64.fetchAll(db, sql: sql, arguments: RenderedSQL(sql, values).statementArguments)
        }
    }
}
