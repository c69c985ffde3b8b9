import Testing
@testable import StrataCore

@Suite struct VersionHashTests {
    static let base = """
        version: 1
        entities:
          Recipe:
            attributes:
              name: { type: string, optional: false, default: Untitled, minLength: 1 }
              rating: { type: int16, min: 0, max: 5 }
            relationships:
              chef: { destination: Chef, inverse: recipes }
            uniqueness: [[name]]
            indexes: [[rating]]
          Chef:
            relationships:
              recipes: { destination: Recipe, toMany: true, inverse: chef }
        """

    static func hashes(_ yaml: String) throws -> [String: String] {
        VersionHash.entityHashes(of: try ModelLoader.load(yaml: yaml, file: "m.yaml"))
    }

    @Test func canonicalFormIsPinned() throws {
        let model = try ModelLoader.load(yaml: Self.base, file: "m.yaml")
        #expect(VersionHash.canonicalJSON(of: model.entity("Recipe")!, in: model, visiting: []).text == #"""
            {"abstract":false,"name":"Recipe","parent":null,"properties":[{"column":null,"deleteRule":"nullify","destination":"Chef","inverse":"recipes","kind":"relationship","name":"chef","optional":true,"ordered":false,"toMany":false,"versionHashModifier":null},{"column":null,"kind":"attribute","name":"name","optional":false,"type":"string","versionHashModifier":null},{"column":null,"kind":"attribute","name":"rating","optional":true,"type":"int16","versionHashModifier":null}],"table":null,"uniqueness":[["name"]],"versionHashModifier":null}
            """#)
        #expect(VersionHash.entityHashes(of: model)["Recipe"] == SHA256.hex(VersionHash.canonicalJSON(of: model.entity("Recipe")!, in: model, visiting: []).text))
        let sorted = VersionHash.entityHashes(of: model).values.sorted().joined()
        #expect(VersionHash.modelHash(of: model) == SHA256.hex(sorted))
    }

    /// Strings are escaped as RFC 8259 requires and nothing else: quotes, backslashes and control
    /// characters (short forms where JSON has them), everything else as its UTF-8 bytes, including a
    /// combining mark right after an escaped quote and `\r\n` (one `Character` in Swift).
    @Test func stringsAreEscapedByTheirBytes() {
        let value = CanonicalJSON.object([
            "q\"\u{301}": .string("a\\b\r\nc\td\u{1}e\u{1F}f\u{7F}"),
            "é": .array([.string("🍲"), .string(""), .null, .int(-3), .bool(true)]),
            "Z": .string("plain"),
        ])
        #expect(value.text == #"{"Z":"plain","q\"\#u{301}":"a\\b\r\nc\td\u0001e\u001ff\#u{7F}","é":["🍲","",null,-3,true]}"#)
        #expect(value.bytes == Array(value.text.utf8))
        #expect(CanonicalJSON.escaped("say \"hi\"\n") == #""say \"hi\"\n""#)
    }

    /// Changes that must NOT change any hash.
    @Test(arguments: [
        ("default", "default: Untitled", "default: Nameless"),
        ("minLength rule", "minLength: 1", "minLength: 3"),
        ("max rule", "max: 5", "max: 10"),
        ("index", "indexes: [[rating]]", "indexes: [[rating], [name]]"),
        ("indexed flag", "rating: { type: int16,", "rating: { type: int16, indexed: true,"),
        ("renamedFrom", "rating: { type: int16,", "rating: { type: int16, renamedFrom: stars,"),
        ("userInfo", "rating: { type: int16,", "rating: { type: int16, userInfo: { a: b },"),
        ("validation predicate", "    indexes: [[rating]]", "    indexes: [[rating]]\n    validation:\n      - predicate: \"rating >= 0\""),
    ])
    func unhashedChanges(what: String, from: String, to: String) throws {
        #expect(Self.base.contains(from))
        #expect(try Self.hashes(Self.base) == Self.hashes(Self.base.replacingOccurrences(of: from, with: to)), "\(what)")
    }

    /// Changes that MUST change the Recipe hash.
    @Test(arguments: [
        ("type", "type: int16", "type: int32"),
        ("optionality", "optional: false, default", "optional: true, default"),
        ("destination", "chef: { destination: Chef, inverse: recipes }", "chef: { destination: Recipe }"),
        ("uniqueness", "uniqueness: [[name]]", "uniqueness: [[name, rating]]"),
        ("column", "rating: { type: int16,", "rating: { type: int16, column: stars,"),
        ("delete rule", "inverse: recipes }", "inverse: recipes, deleteRule: cascade }"),
        ("versionHashModifier", "rating: { type: int16,", "rating: { type: int16, versionHashModifier: \"2\","),
        ("table", "  Recipe:\n", "  Recipe:\n    table: recipes\n"),
    ])
    func hashedChanges(what: String, from: String, to: String) throws {
        #expect(Self.base.contains(from))
        let before = try Self.hashes(Self.base), after = try Self.hashes(Self.base.replacingOccurrences(of: from, with: to))
        #expect(before["Recipe"] != after["Recipe"], "\(what)")
    }

    @Test func parentHashPropagatesToSubEntities() throws {
        let yaml = "version: 1\nentities:\n  Item:\n    attributes:\n      title: { type: string }\n  Dessert: { parent: Item }\n"
        let before = try Self.hashes(yaml)
        let after = try Self.hashes(yaml.replacingOccurrences(of: "type: string", with: "type: uri"))
        #expect(before["Dessert"] != after["Dessert"])
    }

    @Test func fileOrderDoesNotMatter() throws {
        let reordered = """
            version: 1
            entities:
              Chef:
                relationships:
                  recipes: { destination: Recipe, toMany: true, inverse: chef }
              Recipe:
                indexes: [[rating]]
                uniqueness: [[name]]
                relationships:
                  chef: { destination: Chef, inverse: recipes }
                attributes:
                  rating: { type: int16, min: 0, max: 5 }
                  name: { type: string, optional: false, default: Untitled, minLength: 1 }
            """
        #expect(try Self.hashes(Self.base) == Self.hashes(reordered))
    }
}
