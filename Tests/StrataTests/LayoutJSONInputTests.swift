import Foundation
import Testing
@testable import Strata
import StrataCore

/// Texts no Strata writes, read by `LayoutJSON` as `JSONDecoder` reads them: the same value when it reads one,
/// an error when it throws.
@Suite struct LayoutJSONInputTests {
    static let column = #"{"isNotNull":true,"isPrimaryKey":true,"name":"_pk","sqlType":"INTEGER"}"#
    static let relationship = #"{"column":"c","destination":"A","isToMany":false,"kind":"foreignKey","table":"A"}"#
    static let table = #"{"columns":[COLUMN],"indexes":[{"columns":["c"],"isUnique":false,"name":"strata_i"}],"kind":"entity","name":"A","primaryKey":[],"rootEntity":"A"}"#

    /// A one-entity layout with `column`, `relationship` and `table` in their places (`table` holds `column`) and
    /// `top` added to the outer object's members.
    static func document(column: String = column, relationship: String = relationship, table: String = table,
                         top: String = "") -> String {
        #"{"entities":{"A":{"attributeColumns":{"x":"x"},"entity":"A","isDiscriminated":false,"kinds":["A"],"#
            + #""relationships":{"r":RELATIONSHIP},"root":"A","table":"A"}},"tables":[TABLE]"#
            .replacingOccurrences(of: "RELATIONSHIP", with: relationship)
            .replacingOccurrences(of: "TABLE", with: table.replacingOccurrences(of: "COLUMN", with: column))
            + top + "}"
    }

    static func both(_ text: String) -> (ours: StoreLayout?, foundation: StoreLayout?) {
        (try? LayoutJSON.layout(from: text), try? JSONDecoder().decode(StoreLayout.self, from: Data(text.utf8)))
    }

    static let accepted: [String] = [
        document(),
        // Whitespace where JSON allows it, keys in any order.
        " \t\r\n" + document().replacingOccurrences(of: ",", with: " ,\n\t").replacingOccurrences(of: ":", with: "\r: ") + "\n ",
        document(column: #"{"sqlType":"INTEGER","name":"_pk","isPrimaryKey":true,"isNotNull":true}"#),
        // Unknown keys, whatever their value; a skipped number, string or key is not checked further.
        document(column: #"{"isNotNull":true,"isPrimaryKey":true,"name":"_pk","sqlType":"INTEGER","n":-1.5e+3,"o":{"a":[1,{"b":null}],"c":{}},"a":[],"z":null,"t":true,"f":false,"s":"s"}"#),
        document(top: #","x":01"#), document(top: #","x":1.2.3"#), document(top: #","x":-"#), document(top: #","x":1e5e+-"#),
        document(top: #","x":"\q""#), document(top: #","x":"\ud800""#), document(top: ",\"x\":\"\u{01}\t\""),
        document(top: #","x":{"\q":1}"#), document(top: #","x":"\u\\\\""#), document(top: #","x":"\"""#),
        // Optionals: null, missing, set.
        document(column: #"{"isNotNull":true,"isPrimaryKey":true,"name":"_pk","sqlType":"INTEGER","references":null,"onDelete":null}"#),
        document(column: #"{"isNotNull":true,"isPrimaryKey":false,"name":"b","sqlType":"INTEGER","references":"B","onDelete":"CASCADE"}"#),
        document(relationship: #"{"column":"c","destination":"A","isToMany":true,"kind":"joinTable","table":"J","otherColumn":"d","orderColumn":null}"#),
        document(table: table.replacingOccurrences(of: #","rootEntity":"A""#, with: #","rootEntity":null"#)),
        document(table: table.replacingOccurrences(of: #","rootEntity":"A""#, with: "")),
        // A key given twice: the first value counts, the second is not looked at.
        document(column: #"{"isNotNull":true,"isPrimaryKey":true,"name":"a","name":"b","sqlType":"INTEGER"}"#),
        document(column: #"{"isNotNull":true,"isPrimaryKey":true,"name":"a","name":3,"sqlType":"INTEGER"}"#),
        document(column: #"{"isNotNull":true,"isPrimaryKey":true,"name":"a","sqlType":"INTEGER","references":null,"references":"B"}"#),
        document(column: #"{"isNotNull":true,"isPrimaryKey":true,"name":"a","sqlType":"INTEGER","references":"B","references":null}"#),
        document(relationship: relationship.replacingOccurrences(of: #""column":"c","#, with: #""column":"c","column":{},"#)),
        document().replacingOccurrences(of: #"{"x":"x"}"#, with: #"{"x":"1","x":"2","x":[]}"#),
        document(top: #","tables":3"#),
        // A comma after the last member or element.
        document(column: #"{"isNotNull":true,"isPrimaryKey":true,"name":"_pk","sqlType":"INTEGER",}"#),
        document().replacingOccurrences(of: #"["A"]"#, with: #"["A" , ]"#), document(top: #","x":[1,]"#),
        // Escapes in keys and values; keys compared as Swift strings (U+212A KELVIN SIGN is canonically "K").
        document(column: #"{"isNotNull":true,"isPrimaryKey":true,"\u006eame":"\ud83d\ude00\u00E9\/\b\f\n\r\t\"\\\u0000","sqlType":"INTEGER"}"#),
        document(table: table.replacingOccurrences(of: "primaryKey", with: #"primary\u212Aey"#)),
        document(relationship: relationship.replacingOccurrences(of: "foreignKey", with: "foreign\u{212A}ey")),
        "\u{FEFF}" + document(),
        "\u{FEFF} " + document(),
    ]

    @Test(arguments: accepted)
    func readsWhatJSONDecoderReads(_ text: String) {
        let (ours, foundation) = Self.both(text)
        #expect(foundation != nil)
        #expect(ours == foundation)
    }

    static let rejected: [String] = [
        "", " ", "null", "[]", #""x""#, "{}", #"{"tables":[]}"#, #"{"tables":3,"entities":{}}"#, #"{"tables":null,"entities":{}}"#,
        // Missing, null or mistyped members; unknown kinds.
        document(column: #"{"isPrimaryKey":true,"name":"_pk","sqlType":"INTEGER"}"#),
        document(column: #"{"isNotNull":null,"isPrimaryKey":true,"name":"_pk","sqlType":"INTEGER"}"#),
        document(column: #"{"isNotNull":"true","isPrimaryKey":true,"name":"_pk","sqlType":"INTEGER"}"#),
        document(column: #"{"isNotNull":1,"isPrimaryKey":true,"name":"_pk","sqlType":"INTEGER"}"#),
        document(column: #"{"isNotNull":true,"isPrimaryKey":true,"name":null,"sqlType":"INTEGER"}"#),
        document(column: #"{"isNotNull":true,"isPrimaryKey":true,"name":1,"sqlType":"INTEGER"}"#),
        document(column: #"{"isNotNull":true,"isPrimaryKey":true,"name":"_pk","sqlType":"INTEGER","references":1}"#),
        document(column: #"{"isNotNull":true,"isPrimaryKey":true,"name":3,"name":"a","sqlType":"INTEGER"}"#),
        document(table: table.replacingOccurrences(of: #""kind":"entity""#, with: #""kind":"view""#)),
        document(relationship: relationship.replacingOccurrences(of: "foreignKey", with: "ForeignKey")),
        document().replacingOccurrences(of: #"["A"]"#, with: "[null]"),
        document().replacingOccurrences(of: #"{"x":"x"}"#, with: #"{"x":1}"#),
        document().replacingOccurrences(of: #""kinds":["A"]"#, with: #""kinds":null"#),
        // Strings that do not decode: escapes, surrogates, control characters; a bad key of an object that is read.
        document(column: Self.column.replacingOccurrences(of: "_pk", with: #"\q"#)),
        document(column: Self.column.replacingOccurrences(of: "_pk", with: #"\u12"#)),
        document(column: Self.column.replacingOccurrences(of: "_pk", with: #"\u004G"#)),
        document(column: Self.column.replacingOccurrences(of: "_pk", with: #"\u+041"#)),
        document(column: Self.column.replacingOccurrences(of: "_pk", with: #"\ud83d"#)),
        document(column: Self.column.replacingOccurrences(of: "_pk", with: #"\ude00"#)),
        document(column: Self.column.replacingOccurrences(of: "_pk", with: #"\ud83dx"#)),
        document(column: Self.column.replacingOccurrences(of: "_pk", with: #"\ud83d\u0041"#)),
        document(column: Self.column.replacingOccurrences(of: "_pk", with: #"\ud83d\ud83d"#)),
        document(column: Self.column.replacingOccurrences(of: "_pk", with: "a\tb")),
        document(column: Self.column.replacingOccurrences(of: "_pk", with: "a\u{01}b")),
        document(top: #","\q":1"#), document(top: #","\ud800":1"#),
        // Not JSON.
        document() + "x", document() + "{}", document() + "\u{0}", document() + ",",
        String(document().dropLast()), String(document().dropLast(3)),
        document().replacingOccurrences(of: #"{"entities""#, with: #"{,"entities""#),
        document().replacingOccurrences(of: #""entities":"#, with: #""entities""#),
        document().replacingOccurrences(of: #"},"tables""#, with: #"} "tables""#),
        document().replacingOccurrences(of: #""A""#, with: "'A'"),
        document(top: #","x":[,]"#), document(top: #","x":{,}"#), document(top: #","x":[1,,]"#), document(top: #","x":{"k"}"#),
        document(top: #","x":.5"#), document(top: #","x":+1"#), document(top: #","x":0x1"#), document(top: #","x":NaN"#),
        document(top: #","x":Infinity"#), document(top: #","x":True"#), document(top: #","x":nul"#), document(top: #","x":truex"#),
        document(top: #","x":"\u12"}"#), document(top: #","x":"abc"#), document(top: #","x":1 // c"#), "/* c */" + document(),
        "\u{0C}" + document(), "\u{0B}" + document(), "\u{A0}" + document(), " \u{FEFF}" + document(), "\u{FEFF}\u{FEFF}" + document(),
        document(top: #","x":"# + String(repeating: "[", count: 512) + String(repeating: "]", count: 512)),
        document(top: #","x":"# + String(repeating: #"{"k":"#, count: 512) + "1" + String(repeating: "}", count: 512)),
    ]

    @Test(arguments: rejected)
    func rejectsWhatJSONDecoderRejects(_ text: String) {
        let (ours, foundation) = Self.both(text)
        #expect(foundation == nil)
        #expect(ours == nil)
    }

    static let hashes: [(text: String, accepted: Bool)] = [
        (#"{"A":"1","B":"2"}"#, true), (" {\n \"A\" : \"1\" ,\n} ", true), (#"{"A":"1","A":"2"}"#, true), (#"{"A":"1","A":2}"#, true),
        ("{\"e\u{301}\":\"1\",\"\u{E9}\":\"2\"}", true), (#"{"\u00e9\/":"\ud83d\ude00"}"#, true), ("{}", true), ("\u{FEFF}{}", true),
        (#"{"A":1}"#, false), (#"{"A":null}"#, false), (#"{"A":["1"]}"#, false), (#"{"A":{}}"#, false), (#"{"A":"\ud800"}"#, false),
        (#"{"A":"1"}x"#, false), (#"["A"]"#, false), ("", false), (#"{"A":"1",,}"#, false), (#"{"A":"1""#, false),
    ]

    @Test(arguments: hashes)
    func readsEntityHashesAsJSONDecoder(_ text: String, accepted: Bool) {
        let ours = try? LayoutJSON.strings(from: text)
        let foundation = try? JSONDecoder().decode([String: String].self, from: Data(text.utf8))
        #expect((foundation != nil) == accepted)
        #expect(ours == foundation)
        // The same keys, byte for byte (NFC and NFD spellings are one key to a Swift dictionary: the first is kept).
        #expect(ours.map { $0.keys.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) } }
                == foundation.map { $0.keys.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) } })
    }
}
