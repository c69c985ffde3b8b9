import Foundation
import GRDB
import Testing
@testable import Strata

/// One inferable change kind: a store at v1 with data, migrated to v2; every surviving value and the
/// resulting schema asserted exactly.
struct ChangeKindCase: CustomTestStringConvertible, Sendable {
    var name: String
    var v1: String
    var v2: String
    var fill: String
    /// Table actions of the step, e.g. `["rebuild Recipe"]` (empty: metadata and indexes only).
    var actions: [String]
    /// (query, rows as `a|b|c`).
    var expect: [(String, [String])]
    var testDescription: String { name }
}

private let recipe = """
      Recipe:
        attributes:
          name: { type: string }
          rating: { type: int16 }
    """
private let recipeFill = "INSERT INTO Recipe (name, rating) VALUES ('Pie', 5), (NULL, NULL), ('Crème brûlée 🍮', -32768), ('Tart', 32767);"
private let chefRecipe = """
      Chef:
        attributes:
          name: { type: string }
        relationships:
          recipes: { destination: Recipe, toMany: true, inverse: author, deleteRule: cascade }
      Recipe:
        attributes:
          name: { type: string }
        relationships:
          author: { destination: Chef, inverse: recipes }
    """
private let chefFill = """
    INSERT INTO Chef (_pk, name) VALUES (1, 'Ana'), (2, 'Bo');
    INSERT INTO Recipe (_pk, name, author) VALUES (10, 'Pie', 1), (11, 'Tart', 1), (12, 'Soup', 2), (13, 'Loose', NULL);
    """
private let item = """
      Item:
        attributes:
          title: { type: string }
      Dessert:
        parent: Item
        attributes:
          sweetness: { type: int16 }
      Soup:
        parent: Item
        attributes:
          hot: { type: bool }
    """
private let itemFill = """
    INSERT INTO Item (_pk, _entity, title, sweetness, hot) VALUES
      (1, 'Item', 'plain', NULL, NULL), (2, 'Dessert', 'cake', 7, NULL), (3, 'Soup', 'miso', NULL, 1), (4, 'Dessert', 'ice', NULL, NULL);
    """

let changeKindCases: [ChangeKindCase] = [
    ChangeKindCase(name: "add entity", v1: recipe, v2: recipe + "\n  Chef:\n    attributes:\n      name: { type: string }",
                   fill: recipeFill, actions: ["create Chef"],
                   expect: [("SELECT count(*) FROM Chef", ["0"]), ("SELECT name, rating FROM Recipe ORDER BY _pk", ["Pie|5", "NULL|NULL", "Crème brûlée 🍮|-32768", "Tart|32767"])]),
    ChangeKindCase(name: "remove entity", v1: recipe + "\n  Chef:\n    attributes:\n      name: { type: string }", v2: recipe,
                   fill: recipeFill + "INSERT INTO Chef (name) VALUES ('Ana');", actions: ["drop Chef"],
                   expect: [("SELECT count(*) FROM sqlite_master WHERE name = 'Chef'", ["0"]), ("SELECT count(*) FROM Recipe", ["4"])]),
    ChangeKindCase(name: "rename entity", v1: recipe,
                   v2: "  Dish:\n    renamedFrom: Recipe\n    attributes:\n      name: { type: string }\n      rating: { type: int16 }",
                   fill: recipeFill, actions: ["alter Dish"],
                   expect: [("SELECT _pk, name, rating FROM Dish ORDER BY _pk", ["1|Pie|5", "2|NULL|NULL", "3|Crème brûlée 🍮|-32768", "4|Tart|32767"])]),
    ChangeKindCase(name: "add optional attribute", v1: recipe, v2: recipe + "\n      notes: { type: string }",
                   fill: recipeFill, actions: ["alter Recipe"],
                   expect: [("SELECT name, notes FROM Recipe ORDER BY _pk", ["Pie|NULL", "NULL|NULL", "Crème brûlée 🍮|NULL", "Tart|NULL"])]),
    ChangeKindCase(name: "add attribute with default", v1: recipe, v2: recipe + "\n      unit: { type: string, default: \"it's\" }",
                   fill: recipeFill, actions: ["alter Recipe"],
                   expect: [("SELECT unit FROM Recipe ORDER BY _pk", ["it's", "it's", "it's", "it's"])]),
    ChangeKindCase(name: "add mandatory attribute to empty table", v1: recipe, v2: recipe + "\n      code: { type: int32, optional: false }",
                   fill: "", actions: ["alter Recipe"], expect: [("SELECT count(*) FROM Recipe", ["0"])]),
    ChangeKindCase(name: "remove attribute", v1: recipe, v2: "  Recipe:\n    attributes:\n      name: { type: string }",
                   fill: recipeFill, actions: ["rebuild Recipe"],
                   expect: [("SELECT _pk, name FROM Recipe ORDER BY _pk", ["1|Pie", "2|NULL", "3|Crème brûlée 🍮", "4|Tart"])]),
    ChangeKindCase(name: "rename attribute", v1: recipe,
                   v2: "  Recipe:\n    attributes:\n      title: { type: string, renamedFrom: name }\n      rating: { type: int16 }",
                   fill: recipeFill, actions: ["alter Recipe"],
                   expect: [("SELECT title, rating FROM Recipe ORDER BY _pk", ["Pie|5", "NULL|NULL", "Crème brûlée 🍮|-32768", "Tart|32767"])]),
    ChangeKindCase(name: "optional to mandatory with default", v1: recipe,
                   v2: "  Recipe:\n    attributes:\n      name: { type: string }\n      rating: { type: int16, optional: false, default: 3 }",
                   fill: recipeFill, actions: [],
                   expect: [("SELECT rating FROM Recipe ORDER BY _pk", ["5", "3", "-32768", "32767"])]),
    ChangeKindCase(name: "mandatory to optional", v1: "  Recipe:\n    attributes:\n      name: { type: string, optional: false, default: x }",
                   v2: "  Recipe:\n    attributes:\n      name: { type: string }",
                   fill: "INSERT INTO Recipe (name) VALUES ('a'), ('é');", actions: [],
                   expect: [("SELECT name FROM Recipe ORDER BY _pk", ["a", "é"])]),
    ChangeKindCase(name: "default and rules change", v1: recipe,
                   v2: "  Recipe:\n    attributes:\n      name: { type: string, default: Untitled, maxLength: 10 }\n      rating: { type: int16, min: 0, max: 5 }",
                   fill: recipeFill, actions: [],
                   expect: [("SELECT name, rating FROM Recipe ORDER BY _pk", ["Pie|5", "NULL|NULL", "Crème brûlée 🍮|-32768", "Tart|32767"])]),
    ChangeKindCase(name: "versionHashModifier change", v1: recipe,
                   v2: "  Recipe:\n    versionHashModifier: \"2\"\n    attributes:\n      name: { type: string }\n      rating: { type: int16 }",
                   fill: recipeFill, actions: [], expect: [("SELECT count(*) FROM Recipe", ["4"])]),
    ChangeKindCase(name: "widen int16 to int64", v1: recipe,
                   v2: "  Recipe:\n    attributes:\n      name: { type: string }\n      rating: { type: int64 }",
                   fill: recipeFill, actions: [],
                   expect: [("SELECT rating, typeof(rating) FROM Recipe ORDER BY _pk", ["5|integer", "NULL|null", "-32768|integer", "32767|integer"])]),
    ChangeKindCase(name: "widen int16 to double", v1: recipe,
                   v2: "  Recipe:\n    attributes:\n      name: { type: string }\n      rating: { type: double }",
                   fill: recipeFill, actions: ["rebuild Recipe"],
                   expect: [("SELECT rating, typeof(rating) FROM Recipe ORDER BY _pk", ["5.0|real", "NULL|null", "-32768.0|real", "32767.0|real"])]),
    ChangeKindCase(name: "widen float to double", v1: "  M:\n    attributes:\n      x: { type: float }",
                   v2: "  M:\n    attributes:\n      x: { type: double }",
                   fill: "INSERT INTO M (x) VALUES (1.5), (NULL), (-0.25);", actions: [],
                   expect: [("SELECT x FROM M ORDER BY _pk", ["1.5", "NULL", "-0.25"])]),
    ChangeKindCase(name: "add to-one relationship", v1: recipe + "\n  Chef:\n    attributes:\n      name: { type: string }",
                   v2: recipe + "\n    relationships:\n      author: { destination: Chef }\n  Chef:\n    attributes:\n      name: { type: string }",
                   fill: recipeFill, actions: ["alter Recipe"],
                   expect: [("SELECT name, author FROM Recipe ORDER BY _pk", ["Pie|NULL", "NULL|NULL", "Crème brûlée 🍮|NULL", "Tart|NULL"])]),
    ChangeKindCase(name: "remove relationship", v1: chefRecipe,
                   v2: "  Chef:\n    attributes:\n      name: { type: string }\n  Recipe:\n    attributes:\n      name: { type: string }",
                   fill: chefFill, actions: ["rebuild Recipe"],
                   expect: [("SELECT _pk, name FROM Recipe ORDER BY _pk", ["10|Pie", "11|Tart", "12|Soup", "13|Loose"]),
                            ("SELECT name FROM Chef ORDER BY _pk", ["Ana", "Bo"])]),
    ChangeKindCase(name: "rename relationship", v1: chefRecipe,
                   v2: chefRecipe.replacingOccurrences(of: "inverse: author", with: "inverse: chef")
                       .replacingOccurrences(of: "author: { destination: Chef, inverse: recipes }", with: "chef: { destination: Chef, inverse: recipes, renamedFrom: author }"),
                   fill: chefFill, actions: ["alter Recipe"],
                   expect: [("SELECT _pk, chef FROM Recipe ORDER BY _pk", ["10|1", "11|1", "12|2", "13|NULL"])]),
    ChangeKindCase(name: "delete rule change", v1: chefRecipe, v2: chefRecipe.replacingOccurrences(of: "deleteRule: cascade", with: "deleteRule: deny"),
                   fill: chefFill, actions: ["rebuild Recipe"],
                   expect: [("SELECT _pk, author FROM Recipe ORDER BY _pk", ["10|1", "11|1", "12|2", "13|NULL"]),
                            ("SELECT on_delete FROM pragma_foreign_key_list('Recipe')", ["RESTRICT"])]),
    ChangeKindCase(name: "to-one to to-many (links kept in a join table)", v1: chefRecipe,
                   v2: chefRecipe.replacingOccurrences(of: "author: { destination: Chef, inverse: recipes }", with: "author: { destination: Chef, inverse: recipes, toMany: true }"),
                   fill: chefFill, actions: ["create _Chef_recipes", "rebuild Recipe"],
                   expect: [("SELECT source, target FROM _Chef_recipes ORDER BY source, target", ["1|10", "1|11", "2|12"]),
                            ("SELECT _pk, name FROM Recipe ORDER BY _pk", ["10|Pie", "11|Tart", "12|Soup", "13|Loose"])]),
    ChangeKindCase(name: "unordered to ordered (many-to-many)",
                   v1: "  Tag:\n    relationships:\n      posts: { destination: Post, toMany: true, inverse: tags }\n  Post:\n    relationships:\n      tags: { destination: Tag, toMany: true, inverse: posts }",
                   v2: "  Tag:\n    relationships:\n      posts: { destination: Post, toMany: true, inverse: tags }\n  Post:\n    relationships:\n      tags: { destination: Tag, toMany: true, inverse: posts, ordered: true }",
                   fill: "INSERT INTO Tag (_pk) VALUES (1), (2); INSERT INTO Post (_pk) VALUES (5), (6); INSERT INTO _Post_tags (source, target) VALUES (5, 2), (5, 1), (6, 1);",
                   actions: ["rebuild _Post_tags"],
                   expect: [("SELECT source, target, source_order FROM _Post_tags ORDER BY source, target", ["5|1|1", "5|2|2", "6|1|1"])]),
    ChangeKindCase(name: "add uniqueness", v1: recipe, v2: recipe + "\n    uniqueness: [[name]]",
                   fill: "INSERT INTO Recipe (name) VALUES ('a'), ('b'), (NULL), (NULL);", actions: ["alter Recipe"],
                   expect: [("SELECT name FROM pragma_index_info('strata_uniq_Recipe_name')", ["name"])]),
    ChangeKindCase(name: "remove uniqueness", v1: recipe + "\n    uniqueness: [[name]]", v2: recipe,
                   fill: recipeFill, actions: ["alter Recipe"],
                   expect: [("SELECT count(*) FROM sqlite_master WHERE name = 'strata_uniq_Recipe_name'", ["0"]), ("SELECT count(*) FROM Recipe", ["4"])]),
    ChangeKindCase(name: "add index", v1: recipe, v2: recipe + "\n    indexes: [[rating, name]]",
                   fill: recipeFill, actions: ["alter Recipe"],
                   expect: [("SELECT name FROM pragma_index_info('strata_idx_Recipe_rating_name') ORDER BY seqno", ["rating", "name"])]),
    ChangeKindCase(name: "remove indexed flag", v1: "  Recipe:\n    attributes:\n      name: { type: string, indexed: true }",
                   v2: "  Recipe:\n    attributes:\n      name: { type: string }",
                   fill: "INSERT INTO Recipe (name) VALUES ('x');", actions: ["alter Recipe"],
                   expect: [("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND tbl_name = 'Recipe'", ["0"])]),
    ChangeKindCase(name: "add sub-entity", v1: recipe, v2: recipe + "\n  Cake:\n    parent: Recipe\n    attributes:\n      layers: { type: int16 }",
                   fill: recipeFill, actions: ["alter Recipe"],
                   expect: [("SELECT _pk, _entity, name, layers FROM Recipe ORDER BY _pk", ["1|Recipe|Pie|NULL", "2|Recipe|NULL|NULL", "3|Recipe|Crème brûlée 🍮|NULL", "4|Recipe|Tart|NULL"])]),
    ChangeKindCase(name: "add parent", v1: recipe,
                   v2: "  Thing:\n    attributes:\n      label: { type: string }\n" + recipe.replacingOccurrences(of: "Recipe:\n", with: "Recipe:\n    parent: Thing\n"),
                   fill: recipeFill, actions: ["alter Thing"],
                   expect: [("SELECT _pk, _entity, name, rating, label FROM Thing ORDER BY _pk", ["1|Recipe|Pie|5|NULL", "2|Recipe|NULL|NULL|NULL", "3|Recipe|Crème brûlée 🍮|-32768|NULL", "4|Recipe|Tart|32767|NULL"])]),
    ChangeKindCase(name: "entity leaves hierarchy", v1: item,
                   v2: item.replacingOccurrences(of: "  Soup:\n    parent: Item\n", with: "  Soup:\n"),
                   fill: itemFill, actions: ["rebuild Item", "rebuild Soup"],
                   expect: [("SELECT _pk, _entity, title, sweetness FROM Item ORDER BY _pk", ["1|Item|plain|NULL", "2|Dessert|cake|7", "4|Dessert|ice|NULL"]),
                            ("SELECT _pk, hot FROM Soup ORDER BY _pk", ["3|1"])]),
    ChangeKindCase(name: "move attribute up", v1: item,
                   v2: "  Item:\n    attributes:\n      title: { type: string }\n      sweetness: { type: int16 }\n  Dessert:\n    parent: Item\n  Soup:\n    parent: Item\n    attributes:\n      hot: { type: bool }",
                   fill: itemFill, actions: [],
                   expect: [("SELECT _pk, sweetness FROM Item ORDER BY _pk", ["1|NULL", "2|7", "3|NULL", "4|NULL"])]),
    ChangeKindCase(name: "move attribute down", v1: "  Item:\n    attributes:\n      title: { type: string }\n  Dessert:\n    parent: Item\n  Soup:\n    parent: Item",
                   v2: "  Item:\n    attributes:\n      x: { type: int16 }\n  Dessert:\n    parent: Item\n    attributes:\n      title: { type: string }\n  Soup:\n    parent: Item",
                   fill: "INSERT INTO Item (_pk, _entity, title) VALUES (1, 'Item', 'i'), (2, 'Dessert', 'd'), (3, 'Soup', 's');",
                   actions: ["rebuild Item"],
                   expect: [("SELECT _pk, _entity, title FROM Item ORDER BY _pk", ["1|Item|NULL", "2|Dessert|d", "3|Soup|NULL"])]),
    ChangeKindCase(name: "rename a sub-entity", v1: item, v2: item.replacingOccurrences(of: "Dessert:\n", with: "Sweet:\n    renamedFrom: Dessert\n"),
                   fill: itemFill, actions: ["alter Item"],
                   expect: [("SELECT _pk, _entity, sweetness FROM Item ORDER BY _pk", ["1|Item|NULL", "2|Sweet|7", "3|Soup|NULL", "4|Sweet|NULL"])]),
    ChangeKindCase(name: "destination widened to an ancestor",
                   v1: item + "\n  Box:\n    relationships:\n      content: { destination: Dessert }",
                   v2: item + "\n  Box:\n    relationships:\n      content: { destination: Item }",
                   fill: itemFill + "INSERT INTO Box (_pk, content) VALUES (1, 2), (2, NULL);", actions: [],
                   expect: [("SELECT _pk, content FROM Box ORDER BY _pk", ["1|2", "2|NULL"])]),
    ChangeKindCase(name: "inverse added (join table to foreign key)",
                   v1: "  Chef:\n    relationships:\n      recipes: { destination: Recipe, toMany: true }\n  Recipe:\n    attributes:\n      name: { type: string }",
                   v2: chefRecipe.replacingOccurrences(of: "    attributes:\n      name: { type: string }\n    relationships:\n      recipes", with: "    relationships:\n      recipes"),
                   fill: "INSERT INTO Chef (_pk) VALUES (1), (2); INSERT INTO Recipe (_pk, name) VALUES (10, 'a'), (11, 'b'), (12, 'c'); INSERT INTO _Chef_recipes (source, target) VALUES (1, 10), (1, 11), (2, 12);",
                   actions: ["drop _Chef_recipes", "rebuild Recipe"],
                   expect: [("SELECT _pk, author FROM Recipe ORDER BY _pk", ["10|1", "11|1", "12|2"])]),
    ChangeKindCase(name: "declared column change", v1: recipe,
                   v2: "  Recipe:\n    attributes:\n      name: { type: string, column: label }\n      rating: { type: int16 }",
                   fill: recipeFill, actions: ["alter Recipe"],
                   expect: [("SELECT label FROM Recipe ORDER BY _pk", ["Pie", "NULL", "Crème brûlée 🍮", "Tart"])]),
    ChangeKindCase(name: "binary and date survive a rebuild",
                   v1: "  F:\n    attributes:\n      data: { type: binary }\n      at: { type: date }\n      gone: { type: string }",
                   v2: "  F:\n    attributes:\n      data: { type: binary }\n      at: { type: date }",
                   fill: "INSERT INTO F (data, at, gone) VALUES (x'00ff10', 1714521600.5, 'x'), (NULL, NULL, NULL), (x'', -1.0e300, 'y');",
                   actions: ["rebuild F"],
                   expect: [("SELECT _pk, data, at FROM F ORDER BY _pk", ["1|x'00ff10'|1714521600.5", "2|NULL|NULL", "3|x''|-1e+300"])]),
]

@Suite struct MigrationChangeKindsTests {
    @Test(arguments: changeKindCases)
    func migrates(_ c: ChangeKindCase) throws {
        let history = try MigrationSupport.history("version: 1\nentities:\n" + c.v1, "version: 2\nentities:\n" + c.v2)
        let store = try MigrationSupport.store(history, at: 1, fill: c.fill)
        let result = try Migrator.migrate(store, history: history)
        let actions = result.steps.flatMap(\.step.tableActions).map { "\($0.kind.rawValue) \($0.table)" }.sorted()
        #expect(actions == c.actions.sorted())
        for (sql, rows) in c.expect {
            #expect(try MigrationSupport.dump(store, sql) == rows, "\(sql)")
        }
        #expect(try store.metadata().version == 2)
        #expect(try MigrationSupport.drift(store, history).items == [])
        #expect(try store.queue.read { try String.fetchAll($0, sql: "PRAGMA integrity_check") } == ["ok"])
        #expect(try store.queue.read { try Row.fetchAll($0, sql: "PRAGMA foreign_key_check").count } == 0)
        #expect(try store.queue.read { try Int.fetchOne($0, sql: "PRAGMA foreign_keys") } == 1)
        // The resulting schema is the recorded layout's (drift is empty) and a store created at v2 has the same tables.
        let fresh = try MigrationSupport.store(history, at: 2)
        #expect(try MigrationSupport.tables(store) == MigrationSupport.tables(fresh))
    }
}
