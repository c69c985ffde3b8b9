import Foundation
import GRDB
@testable import Strata
import StrataTestSupport

/// A store with at least one violation of every audit rule and rows exactly on every boundary.
/// Built from Swift values (and created with `SchemaSQL`) so it does not depend on the YAML loader.
enum AuditFixture {
    static let storeUUID = "11111111-2222-3333-4444-555555555555"

    static func attribute(_ name: String, _ type: AttributeType, optional: Bool = true, min: Value? = nil, max: Value? = nil,
                          minLength: Int? = nil, maxLength: Int? = nil, pattern: String? = nil) -> Attribute {
        var a = Attribute(name: name, type: type, isOptional: optional)
        a.minValue = min
        a.maxValue = max
        a.minLength = minLength
        a.maxLength = maxLength
        a.pattern = pattern
        return a
    }

    static func relationship(_ name: String, _ destination: String, inverse: String?, toMany: Bool = false,
                             deleteRule: DeleteRule = .nullify, optional: Bool = true, minCount: Int? = nil,
                             maxCount: Int? = nil) -> Relationship {
        var r = Relationship(name: name, destination: destination, inverse: inverse, isToMany: toMany, deleteRule: deleteRule)
        r.isOptional = optional
        r.minCount = minCount
        r.maxCount = maxCount
        return r
    }

    static func date(_ text: String) -> Value { .real(DateText.parse(text)!) }

    static var model: Model {
        var recipe = Entity(name: "Recipe", attributes: [
            attribute("name", .string, optional: false, minLength: 2, maxLength: 5, pattern: "[A-Z].*"),
            attribute("rating", .int16, min: .integer(0), max: .integer(5)),
            attribute("servings", .int16),
            attribute("lastUsed", .date, min: date("2020-01-01"), max: date("2030-01-01")),
            attribute("price", .decimal, min: .text("0.5"), max: .text("99.99")),
            attribute("weight", .double, min: .real(0), max: .real(10.5)),
        ], relationships: [
            relationship("ingredients", "Ingredient", inverse: "recipe", toMany: true, deleteRule: .cascade,
                         optional: false, minCount: 2, maxCount: 3),
            relationship("author", "Chef", inverse: "recipes", optional: false),
        ])
        recipe.uniqueness = [["name"]]
        recipe.validation = [ValidationRule(predicate: "NOT (name BEGINSWITH 'Z')", message: "no Z names")]
        let dessert = Entity(name: "Dessert", parent: "Recipe", attributes: [
            attribute("sweetness", .int32, min: .integer(1), max: .integer(10)),
        ])
        let ingredient = Entity(name: "Ingredient", attributes: [attribute("amount", .double, min: .real(0))],
                                relationships: [relationship("recipe", "Recipe", inverse: "ingredients")])
        var chef = Entity(name: "Chef", attributes: [attribute("name", .string)], relationships: [
            relationship("recipes", "Recipe", inverse: "author", toMany: true),
            relationship("favorites", "Recipe", inverse: nil, toMany: true, maxCount: 2),
            relationship("profile", "Profile", inverse: "chef", optional: false),
            relationship("tags", "Tag", inverse: "owner", toMany: true, deleteRule: .noAction),
        ])
        chef.validation = [ValidationRule(predicate: "name != 'Bob'")]
        let profile = Entity(name: "Profile", relationships: [relationship("chef", "Chef", inverse: "profile", optional: false)])
        let tag = Entity(name: "Tag", relationships: [relationship("owner", "Chef", inverse: "tags")])
        return Model(version: 1, entities: [recipe, dessert, ingredient, chef, profile, tag])
    }

    /// A temporary database with Strata's functions, the fixture's schema and no rows.
    static func emptyStore(model: Model = model) throws -> (DatabaseQueue, StoreLayout) {
        var config = Configuration()
        config.prepareDatabase { db in
            db.registerStrataFunctions()
        }
        let path = Temporary.directory("audit") + "/store.sqlite"
        let queue = try DatabaseQueue(path: path, configuration: config)
        let layout = LayoutBuilder.layout(for: model)
        try queue.write { db in
            for statement in SchemaSQL.createStatements(for: layout) { try db.execute(sql: statement.sql) }
        }
        return (queue, layout)
    }

    /// The fixture store with its rows.
    static func store() throws -> (DatabaseQueue, Auditor) {
        let (queue, layout) = try emptyStore()
        try queue.write { db in try insertRows(db) }
        return (queue, Auditor(model: model, layout: layout, storeUUID: storeUUID))
    }

    static func seconds(_ text: String) -> Double { DateText.parse(text)! }

    static func insertRows(_ db: Database) throws {
        // A store whose UNIQUE indexes were dropped (or never created): the audit still finds duplicates.
        try db.execute(sql: #"DROP INDEX "strata_uniq_Recipe_name""#)
        try db.execute(sql: #"INSERT INTO "Profile" ("_pk") VALUES (1), (2)"#)
        try db.execute(sql: #"INSERT INTO "Chef" ("_pk", "name", "profile") VALUES (1, 'Ann', 1), (2, 'Bob', NULL)"#)
        let recipes: [[(any DatabaseValueConvertible)?]] = [
            // _pk, _entity, name, rating, servings, lastUsed, price, weight, author, sweetness
            [1, "Recipe", "Ab", 0, -32768, seconds("2020-01-01"), "0.5", 0.0, 1, nil],            // every lower boundary
            [2, "Recipe", "Abcde", 5, 32767, seconds("2030-01-01"), "99.99", 10.5, 1, nil],        // every upper boundary
            [3, "Recipe", "A", 6, 32768, seconds("2019-12-31"), "100", -0.1, nil, nil],
            [4, "Recipe", "Abcdef", -1, -32769, seconds("2030-01-02"), "0.49", 10.6, 2, nil],
            [5, "Recipe", nil, nil, nil, nil, nil, nil, 2, nil],                                     // NULLs
            [6, "Recipe", "ab", nil, nil, nil, nil, nil, 1, nil],
            [7, "Dessert", "Ab", 9, nil, nil, nil, nil, 1, 0],
            [8, "Dessert", "E\u{301}e\u{301}e\u{301}e\u{301}e\u{301}", nil, nil, nil, nil, nil, 1, 10], // 5 Characters, 10 scalars
            [9, "Dessert", "Zé", nil, nil, nil, nil, nil, 1, 11],
        ]
        for r in recipes {
            try db.execute(sql: #"INSERT INTO "Recipe" ("_pk", "_entity", "name", "rating", "servings", "lastUsed", "price", "weight", "author", "sweetness") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"#,
                           arguments: StatementArguments(r))
        }
        // Ingredients per recipe: p1 2 (minCount), p2 3 (maxCount), p3 1, p4 4, p5 0, others 2; one loose ingredient.
        let counts: [Int64: Int] = [1: 2, 2: 3, 3: 1, 4: 4, 6: 2, 7: 2, 8: 2, 9: 2]
        for (recipe, n) in counts.sorted(by: { $0.key < $1.key }) {
            for _ in 0..<n { try db.execute(sql: #"INSERT INTO "Ingredient" ("amount", "recipe") VALUES (0, ?)"#, arguments: [recipe]) }
        }
        try db.execute(sql: #"INSERT INTO "Ingredient" ("amount", "recipe") VALUES (NULL, NULL)"#)
        // Favorites (many-to-many without inverse): Ann 2 (maxCount), Bob 3.
        try db.execute(sql: #"INSERT INTO "_Chef_favorites" ("source", "target") VALUES (1, 1), (1, 2), (2, 1), (2, 2), (2, 3)"#)
        // Tags: owner noAction, p2 dangles.
        try db.execute(sql: #"INSERT INTO "Tag" ("_pk", "owner") VALUES (1, 1), (2, 99), (3, NULL)"#)
    }

    static func id(_ entity: String, _ pk: Int64) -> String {
        ObjectID(storeUUID: storeUUID, entity: entity, primaryKey: pk).uri
    }
}
