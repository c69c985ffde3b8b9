import Testing
@testable import StrataCore

/// Malformed models: each must fail with the exact located message, never crash.
@Suite struct ModelLoaderErrorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var yaml: String
        /// Every error headline, in order.
        var errors: [String]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "bad YAML indentation", yaml: "version: 1\nentities:\n  A:\n    attributes:\n      x: { type: string\n",
             errors: ["m.yaml:6:1: error: invalid YAML: did not find expected ',' or '}' (while parsing a flow mapping)"]),
        Case(name: "tab indentation", yaml: "version: 1\nentities:\n\tA: {}\n",
             errors: ["m.yaml:3:1: error: invalid YAML: found character that cannot start any token (while scanning for the next token)"]),
        Case(name: "empty file", yaml: "",
             errors: ["m.yaml:1:1: error: the model file is empty"]),
        Case(name: "root is a list", yaml: "- 1\n- 2\n",
             errors: ["m.yaml:1:1: error: a model file must be a mapping"]),
        Case(name: "missing version", yaml: "entities:\n  A: {}\n",
             errors: ["m.yaml:1:1: error: missing 'version'"]),
        Case(name: "missing entities", yaml: "version: 1\n",
             errors: ["m.yaml:1:1: error: missing 'entities'"]),
        Case(name: "version zero", yaml: "version: 0\nentities: {}\n",
             errors: ["m.yaml:1:10: error: version must be at least 1, not 0"]),
        Case(name: "version not an integer", yaml: "version: two\nentities: {}\n",
             errors: ["m.yaml:1:10: error: version must be an integer"]),
        Case(name: "unknown top-level key", yaml: "version: 1\nentitys: {}\n",
             errors: ["m.yaml:1:1: error: missing 'entities'", "m.yaml:2:1: error: unknown key 'entitys' in a model file"]),
        Case(name: "unknown entity key", yaml: "version: 1\nentities:\n  A:\n    atributes: {}\n",
             errors: ["m.yaml:4:5: error: unknown key 'atributes' in entity 'A'"]),
        Case(name: "unknown attribute key", yaml: "version: 1\nentities:\n  A:\n    attributes:\n      x: { type: string, optinal: true }\n",
             errors: ["m.yaml:5:26: error: unknown key 'optinal' in attribute 'x'"]),
        Case(name: "unknown relationship key", yaml: "version: 1\nentities:\n  A:\n    relationships:\n      b: { destination: A, inverse: b, deleteRul: cascade }\n",
             errors: ["m.yaml:5:40: error: unknown key 'deleteRul' in relationship 'b'"]),
        Case(name: "unknown type", yaml: "version: 1\nentities:\n  A:\n    attributes:\n      x: { type: int23 }\n",
             errors: ["m.yaml:5:18: error: unknown type 'int23'"]),
        Case(name: "missing type", yaml: "version: 1\nentities:\n  A:\n    attributes:\n      x: { optional: false }\n",
             errors: ["m.yaml:5:7: error: attribute 'x' has no type"]),
        Case(name: "default of wrong type (int)", yaml: "version: 1\nentities:\n  A:\n    attributes:\n      x: { type: int16, default: many }\n",
             errors: ["m.yaml:5:34: error: default is not a valid int16: 'many' is not an integer"]),
        Case(name: "default out of int16 range", yaml: "version: 1\nentities:\n  A:\n    attributes:\n      x: { type: int16, default: 40000 }\n",
             errors: ["m.yaml:5:34: error: default is not a valid int16: 40000 is out of range for int16 (-32768...32767)"]),
        Case(name: "default of wrong type (bool)", yaml: "version: 1\nentities:\n  A:\n    attributes:\n      x: { type: bool, default: maybe }\n",
             errors: ["m.yaml:5:33: error: default is not a valid bool: 'maybe' is not a boolean (use true/false or YES/NO)"]),
        Case(name: "default of wrong type (date)", yaml: "version: 1\nentities:\n  A:\n    attributes:\n      x: { type: date, default: yesterday }\n",
             errors: ["m.yaml:5:33: error: default is not a valid date: 'yesterday' is not an ISO 8601 date (e.g. \"2024-05-01\" or \"2024-05-01T00:00:00Z\")"]),
        Case(name: "default of wrong type (uuid)", yaml: "version: 1\nentities:\n  A:\n    attributes:\n      x: { type: uuid, default: abc }\n",
             errors: ["m.yaml:5:33: error: default is not a valid uuid: 'abc' is not a UUID"]),
        Case(name: "default of wrong type (decimal)", yaml: "version: 1\nentities:\n  A:\n    attributes:\n      x: { type: decimal, default: \"1,5\" }\n",
             errors: ["m.yaml:5:36: error: default is not a valid decimal: '1,5' is not a decimal number (write digits, e.g. \"12.50\")"]),
        Case(name: "null default", yaml: "version: 1\nentities:\n  A:\n    attributes:\n      x: { type: string, default: ~ }\n",
             errors: ["m.yaml:5:35: error: default cannot be null"]),
        Case(name: "min of wrong type", yaml: "version: 1\nentities:\n  A:\n    attributes:\n      x: { type: int32, min: low }\n",
             errors: ["m.yaml:5:30: error: min is not a valid int32: 'low' is not an integer"]),
        Case(name: "min on a string", yaml: "version: 1\nentities:\n  A:\n    attributes:\n      x: { type: string, min: 1 }\n",
             errors: ["m.yaml:5:31: error: 'min' applies to numbers and dates, not string"]),
        Case(name: "min greater than max", yaml: "version: 1\nentities:\n  A:\n    attributes:\n      x: { type: int32, min: 5, max: 1 }\n",
             errors: ["m.yaml:5:30: error: min (5) is greater than max (1)"]),
        Case(name: "date min after max", yaml: "version: 1\nentities:\n  A:\n    attributes:\n      x: { type: date, min: \"2025-01-01\", max: \"2024-01-01\" }\n",
             errors: ["m.yaml:5:29: error: min (1735689600.0) is greater than max (1704067200.0)"]),
        Case(name: "minLength greater than maxLength", yaml: "version: 1\nentities:\n  A:\n    attributes:\n      x: { type: string, minLength: 9, maxLength: 2 }\n",
             errors: ["m.yaml:5:37: error: minLength (9) is greater than maxLength (2)"]),
        Case(name: "negative maxLength", yaml: "version: 1\nentities:\n  A:\n    attributes:\n      x: { type: string, maxLength: -1 }\n",
             errors: ["m.yaml:5:37: error: maxLength must be at least 0, not -1"]),
        Case(name: "maxLength on an int", yaml: "version: 1\nentities:\n  A:\n    attributes:\n      x: { type: int64, maxLength: 3 }\n",
             errors: ["m.yaml:5:36: error: 'maxLength' applies to strings and binary data, not int64"]),
        Case(name: "invalid regex", yaml: "version: 1\nentities:\n  A:\n    attributes:\n      x: { type: string, pattern: \"[a-z\" }\n",
             errors: ["m.yaml:5:35: error: invalid regular expression '[a-z'"]),
        Case(name: "default breaks max", yaml: "version: 1\nentities:\n  A:\n    attributes:\n      x: { type: int16, max: 5, default: 9 }\n",
             errors: ["m.yaml:5:42: error: default 9 breaks the attribute's own rule: greater than max 5"]),
        Case(name: "default breaks pattern", yaml: "version: 1\nentities:\n  A:\n    attributes:\n      x: { type: string, pattern: \"[A-Z].*\", default: lower }\n",
             errors: ["m.yaml:5:55: error: default \"lower\" breaks the attribute's own rule: does not match pattern \"[A-Z].*\""]),
        // The audit matches the whole value (`\A…\z`): a trailing newline is not allowed before the end, as `$` would.
        Case(name: "default breaks pattern by a trailing newline", yaml: "version: 1\nentities:\n  A:\n    attributes:\n      x: { type: string, pattern: \"[a-z]+\", default: \"abc\\n\" }\n",
             errors: ["m.yaml:5:54: error: default \"abc\\n\" breaks the attribute's own rule: does not match pattern \"[a-z]+\""]),
        // Bounds compare exactly, as the audit's SQL does: 2^53 + 1 is not 2^53, nor 0.1…02 0.1…01 (as Doubles they are).
        Case(name: "int64 default above max by one past 2^53", yaml: "version: 1\nentities:\n  A:\n    attributes:\n      x: { type: int64, max: 9007199254740992, default: 9007199254740993 }\n",
             errors: ["m.yaml:5:57: error: default 9007199254740993 breaks the attribute's own rule: greater than max 9007199254740992"]),
        Case(name: "int64 min above max by one past 2^53", yaml: "version: 1\nentities:\n  A:\n    attributes:\n      x: { type: int64, min: 9007199254740993, max: 9007199254740992 }\n",
             errors: ["m.yaml:5:30: error: min (9007199254740993) is greater than max (9007199254740992)"]),
        Case(name: "decimal default above max in the 22nd digit", yaml: "version: 1\nentities:\n  A:\n    attributes:\n      x: { type: decimal, max: \"0.1000000000000000000001\", default: \"0.1000000000000000000002\" }\n",
             errors: ["m.yaml:5:69: error: default \"0.1000000000000000000002\" breaks the attribute's own rule: greater than max \"0.1000000000000000000001\""]),
        Case(name: "default breaks maxLength", yaml: "version: 1\nentities:\n  A:\n    attributes:\n      x: { type: string, maxLength: 2, default: abc }\n",
             errors: ["m.yaml:5:49: error: default \"abc\" breaks the attribute's own rule: longer than maxLength 2"]),
        // In flow style too, at the later occurrence (nested mappings skipped, quoted keys, across lines).
        Case(name: "duplicate key in a flow mapping", yaml: "version: 1\nentities:\n  A:\n    attributes:\n      x: { type: string, type: int16 }\n",
             errors: ["m.yaml:5:26: error: duplicate key 'type'"]),
        Case(name: "duplicate quoted key in a flow mapping after a nested one", yaml: "version: 1\nentities:\n  A:\n    attributes:\n      x: { type: string, userInfo: { type: a }, \"type\": int16 }\n",
             errors: ["m.yaml:5:49: error: duplicate key 'type'"]),
        Case(name: "duplicate key in a flow mapping over two lines", yaml: "version: 1\nentities:\n  A:\n    attributes:\n      x: { type: string,\n           type: int16 }\n",
             errors: ["m.yaml:6:12: error: duplicate key 'type'"]),
        Case(name: "duplicate entity", yaml: "version: 1\nentities:\n  A: {}\n  B: {}\n  A: {}\n",
             errors: ["m.yaml:5:3: error: duplicate key 'A'"]),
        Case(name: "duplicate attribute", yaml: "version: 1\nentities:\n  A:\n    attributes:\n      x: { type: string }\n      x: { type: int16 }\n",
             errors: ["m.yaml:6:7: error: duplicate key 'x'"]),
        Case(name: "attribute and relationship with one name", yaml: "version: 1\nentities:\n  A:\n    attributes:\n      b: { type: string }\n    relationships:\n      b: { destination: A, inverse: b }\n",
             errors: ["m.yaml:7:7: error: 'A' declares 'b' both as an attribute and as a relationship"]),
        Case(name: "attribute and stored to-one with one name", yaml: "version: 1\nentities:\n  A:\n    attributes:\n      b: { type: string }\n    relationships:\n      b: { destination: A }\n",
             errors: ["m.yaml:7:7: error: 'A' declares 'b' both as an attribute and as a relationship"]),
        Case(name: "case-colliding columns", yaml: "version: 1\nentities:\n  A:\n    attributes:\n      name: { type: string }\n      Name: { type: string }\n",
             errors: ["m.yaml:6:7: error: 'A.Name' would be stored in the same column as 'name' (names equal ignoring case)"]),
        Case(name: "column colliding with attribute", yaml: "version: 1\nentities:\n  A:\n    attributes:\n      a: { type: string }\n      b: { type: string, column: A }\n",
             errors: ["m.yaml:6:7: error: 'A.b' would be stored in the same column as 'a' (names equal ignoring case)"]),
        Case(name: "case-colliding tables", yaml: "version: 1\nentities:\n  Order: {}\n  Other: { table: ORDER }\n",
             errors: ["m.yaml:4:19: error: table 'ORDER' of 'Other' has the same name as the table of 'Order' (ignoring case)"]),
        Case(name: "reserved entity name", yaml: "version: 1\nentities:\n  strata_things: {}\n",
             errors: ["m.yaml:3:3: error: entity name 'strata_things' is reserved: names starting with 'strata_' are reserved for Strata"]),
        Case(name: "reserved sqlite table", yaml: "version: 1\nentities:\n  A: { table: SQLITE_x }\n",
             errors: ["m.yaml:3:15: error: table name 'SQLITE_x' is reserved: names starting with 'sqlite_' are reserved by SQLite"]),
        Case(name: "underscore attribute", yaml: "version: 1\nentities:\n  A:\n    attributes:\n      _pk: { type: int64 }\n",
             errors: ["m.yaml:5:7: error: attribute name '_pk' is reserved: names starting with '_' are reserved for Strata's own columns"]),
        Case(name: "invalid name", yaml: "version: 1\nentities:\n  2Fast: {}\n",
             errors: ["m.yaml:3:3: error: invalid entity name '2Fast'"]),
        Case(name: "invalid column name", yaml: "version: 1\nentities:\n  A:\n    attributes:\n      x: { type: string, column: \"a b\" }\n",
             errors: ["m.yaml:5:34: error: invalid column name 'a b'"]),
        Case(name: "unknown destination", yaml: "version: 1\nentities:\n  Recipe:\n    relationships:\n      chef: { destination: Cheff }\n  Chef: {}\n",
             errors: ["m.yaml:5:28: error: unknown destination entity 'Cheff'"]),
        Case(name: "missing destination", yaml: "version: 1\nentities:\n  A:\n    relationships:\n      b: { toMany: true }\n",
             errors: ["m.yaml:5:7: error: relationship 'b' has no destination"]),
        Case(name: "unknown delete rule", yaml: "version: 1\nentities:\n  A:\n    relationships:\n      b: { destination: A, inverse: b, deleteRule: cascad }\n",
             errors: ["m.yaml:5:52: error: unknown delete rule 'cascad'"]),
        Case(name: "minCount on a to-one", yaml: "version: 1\nentities:\n  A:\n    relationships:\n      b: { destination: A, inverse: b, minCount: 1 }\n",
             errors: ["m.yaml:5:50: error: 'minCount' applies to to-many relationships only"]),
        Case(name: "minCount greater than maxCount", yaml: "version: 1\nentities:\n  A:\n    relationships:\n      b: { destination: A, toMany: true, minCount: 3, maxCount: 1 }\n",
             errors: ["m.yaml:5:52: error: minCount (3) is greater than maxCount (1)"]),
        Case(name: "unknown parent", yaml: "version: 1\nentities:\n  A: { parent: Itme }\n  Item: {}\n",
             errors: ["m.yaml:3:16: error: unknown parent entity 'Itme'"]),
        Case(name: "parent cycle", yaml: "version: 1\nentities:\n  A: { parent: B }\n  B: { parent: A }\n",
             errors: ["m.yaml:3:16: error: entity 'A' is its own ancestor (parent cycle)",
                      "m.yaml:4:16: error: entity 'B' is its own ancestor (parent cycle)"]),
        Case(name: "abstract without sub-entities", yaml: "version: 1\nentities:\n  Item: { abstract: true }\n",
             errors: ["m.yaml:3:21: error: abstract entity 'Item' has no sub-entities"]),
        Case(name: "sub-entity with table", yaml: "version: 1\nentities:\n  Item: {}\n  Dessert: { parent: Item, table: desserts }\n",
             errors: ["m.yaml:4:35: error: sub-entity 'Dessert' cannot declare a table: it is stored in its root's table"]),
        Case(name: "sub-entity redeclares inherited attribute", yaml: "version: 1\nentities:\n  Item:\n    attributes:\n      title: { type: string }\n  Dessert:\n    parent: Item\n    attributes:\n      title: { type: string }\n",
             errors: ["m.yaml:9:7: error: 'Dessert' redeclares 'title', which it inherits"]),
        Case(name: "uniqueness on unknown attribute", yaml: "version: 1\nentities:\n  A:\n    attributes:\n      name: { type: string }\n    uniqueness: [[nmae]]\n",
             errors: ["m.yaml:6:18: error: uniqueness names unknown attribute 'nmae' of 'A'"]),
        Case(name: "index on a to-many", yaml: "version: 1\nentities:\n  A:\n    relationships:\n      bs: { destination: B, toMany: true, inverse: a }\n  B:\n    relationships:\n      a: { destination: A, inverse: bs }\n    indexes: [[a]]\n  C:\n    relationships:\n      x: { destination: A, toMany: true }\n    indexes: [[x]]\n",
             errors: ["m.yaml:13:15: error: indexes cannot use the to-many relationship 'x'"]),
        Case(name: "generated join table collides", yaml: "version: 1\nentities:\n  A:\n    relationships:\n      tags: { destination: T, toMany: true }\n  T: {}\n  X: { table: _A_tags }\n",
             errors: ["m.yaml:7:15: error: table name '_A_tags' is reserved: names starting with '_' are reserved for Strata's own columns",
                      "m.yaml:7:15: error: generated join table '_A_tags' collides with the table of 'X'"]),
        Case(name: "two generated join tables collide", yaml: "version: 1\nentities:\n  A_b:\n    relationships:\n      c: { destination: T, toMany: true }\n  A:\n    relationships:\n      b_c: { destination: T, toMany: true }\n  T: {}\n",
             errors: ["m.yaml:8:7: error: generated join table '_A_b_c' collides with join table '_A_b_c'"]),
        // Relationships whose names differ only in case: one error, at the later, and not its indexes' clash too.
        Case(name: "join tables whose names differ in case", yaml: "version: 1\nentities:\n  Order:\n    relationships:\n      tags: { destination: T, toMany: true }\n      Tags: { destination: T, toMany: true }\n  T: {}\n",
             errors: ["m.yaml:6:7: error: generated join table '_Order_tags' collides with join table '_Order_Tags'"]),
        // A many-to-many that is its own inverse owns its join table from its one side (which holds `target`).
        Case(name: "a symmetric many-to-many's join table collides", yaml: "version: 1\nentities:\n  A_b:\n    relationships:\n      c: { destination: A_b, toMany: true, inverse: c }\n  A:\n    relationships:\n      b_c: { destination: T, toMany: true }\n  T: {}\n",
             errors: ["m.yaml:8:7: error: generated join table '_A_b_c' collides with join table '_A_b_c'"]),
        Case(name: "a symmetric many-to-many's join table collides with an entity table", yaml: "version: 1\nentities:\n  P:\n    relationships:\n      friends: { destination: P, toMany: true, inverse: friends }\n  X: { table: _P_friends }\n",
             errors: ["m.yaml:6:15: error: table name '_P_friends' is reserved: names starting with '_' are reserved for Strata's own columns",
                      "m.yaml:6:15: error: generated join table '_P_friends' collides with the table of 'X'"]),
        Case(name: "optional not a bool", yaml: "version: 1\nentities:\n  A:\n    attributes:\n      x: { type: string, optional: sometimes }\n",
             errors: ["m.yaml:5:36: error: optional must be true or false, not 'sometimes'"]),
        Case(name: "attributes not a mapping", yaml: "version: 1\nentities:\n  A:\n    attributes: [x, y]\n",
             errors: ["m.yaml:4:17: error: attributes of 'A' must be a mapping"]),
        Case(name: "validation without predicate", yaml: "version: 1\nentities:\n  A:\n    validation:\n      - message: hi\n",
             errors: ["m.yaml:5:9: error: a validation rule needs a 'predicate'"]),
        Case(name: "several errors in one file", yaml: "version: 1\nentities:\n  A:\n    attributes:\n      x: { type: strin }\n      y: { type: int16, default: x }\n",
             errors: ["m.yaml:5:18: error: unknown type 'strin'", "m.yaml:6:34: error: default is not a valid int16: 'x' is not an integer"]),
    ]

    @Test(arguments: cases)
    func malformedModel(_ c: Case) {
        do {
            _ = try ModelLoader.load(yaml: c.yaml, file: "m.yaml")
            Issue.record("expected errors for \(c.name)")
        } catch {
            #expect(error.errors.map(\.headline) == c.errors)
        }
    }

    /// A relationship has no `table:`: the hint for a join table's clash says what can be done.
    @Test func aJoinTableClashHintsAtARename() throws {
        let yaml = "version: 1\nentities:\n  Order:\n    relationships:\n      tags: { destination: T, toMany: true }\n      Tags: { destination: T, toMany: true }\n  T: {}\n"
        #expect(throws: DiagnosticList.self) { _ = try ModelLoader.load(yaml: yaml, file: "m.yaml") }
        do { _ = try ModelLoader.load(yaml: yaml, file: "m.yaml") } catch {
            #expect(error.errors.map(\.hint) == ["rename one of the relationships: SQLite's table names ignore case"])
        }
    }

    @Test func hintsSuggestNearNames() throws {
        let yaml = "version: 1\nentities:\n  A:\n    attributes:\n      x: { type: int23 }\n"
        do {
            _ = try ModelLoader.load(yaml: yaml, file: "models/4.yaml")
            Issue.record("expected an error")
        } catch {
            #expect(error.description == """
                models/4.yaml:5:18: error: unknown type 'int23'
                          x: { type: int23 }
                                     ^
                hint: did you mean 'int32'?
                """)
        }
    }

    /// The two sides of one many-to-many name the same table: no clash (`A.b_c` owns `_A_b_c`, which is also
    /// the name `A_b.c` would give a table of its own).
    @Test func bothSidesOfAJoinTableDoNotClash() throws {
        let yaml = "version: 1\nentities:\n  A_b:\n    relationships:\n      c: { destination: A, toMany: true, inverse: b_c }\n  A:\n    relationships:\n      b_c: { destination: A_b, toMany: true, inverse: c }\n"
        let model = try ModelLoader.load(yaml: yaml, file: "m.yaml")
        let layout = LayoutBuilder.layout(for: model)
        #expect(layout.tables.map(\.name).sorted() == ["A", "A_b", "_A_b_c"])
    }

    @Test func duplicateVersionsAcrossFiles() throws {
        let dir = TestStore.directory()
        try "version: 1\nentities:\n  A: {}\n".write(toFile: dir + "/a.yaml", atomically: true, encoding: .utf8)
        try "# again\nversion: 1\nentities:\n  A: {}\n".write(toFile: dir + "/b.yml", atomically: true, encoding: .utf8)
        do {
            _ = try ModelHistory.load(directory: dir)
            Issue.record("expected an error")
        } catch {
            #expect(error.errors.map(\.headline) == ["\(dir)/b.yml:2:10: error: version 1 is already declared in \(dir)/a.yaml"])
        }
    }

    @Test func inverseWarnings() throws {
        let yaml = """
            version: 1
            entities:
              Recipe:
                relationships:
                  chef: { destination: Chef, inverse: dishes }
                  tags: { destination: Tag, toMany: true }
              Chef:
                relationships:
                  recipes: { destination: Recipe, toMany: true, inverse: chef }
              Tag: {}
            """
        let model = try ModelLoader.load(yaml: yaml, file: "m.yaml")
        #expect(model.warnings.map(\.headline) == [
            "m.yaml:5:43: warning: inverse of 'Recipe.chef' does not point back: 'Chef' has no relationship 'dishes'; stored as if it had no inverse",
            "m.yaml:6:7: warning: relationship 'Recipe.tags' has no inverse",
            "m.yaml:9:62: warning: inverse of 'Chef.recipes' does not point back: 'Recipe.chef' does not point back to 'Chef.recipes'; stored as if it had no inverse",
        ])
    }
}

@Suite struct ValidationPredicateLintTests {
    @Test func validationPredicatesAreCheckedWhenTheModelLoads() {
        let yaml = """
            version: 1
            entities:
              Recipe:
                attributes:
                  rating: { type: int16 }
                  favorite: { type: bool }
                validation:
                  - predicate: "favorite == NO OR ratng >= 3"
                  - predicate: "rating <= $MAX"
                  - predicate: "rating == 'five'"
            """
        do {
            _ = try ModelLoader.load(yaml: yaml, file: "m.yaml")
            Issue.record("expected errors")
        } catch {
            #expect(error.errors.map(\.headline) == [
                "m.yaml:8:39: error: Recipe has no attribute 'ratng' (did you mean 'rating'?)",
                "m.yaml:10:31: error: rating is int16, but 'five' is not an integer",
            ])
        }
    }
}
