import Foundation
import Testing
@testable import Strata
import StrataCore
import StrataTestSupport

/// `LayoutJSON` writes the bytes `JSONEncoder` with `.sortedKeys` writes, and reads them back to the values
/// `JSONDecoder` reads.
@Suite struct LayoutJSONTests {
    static func foundationText<T: Encodable>(_ value: T, _ formatting: JSONEncoder.OutputFormatting = [.sortedKeys]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = formatting
        return String(decoding: try! encoder.encode(value), as: UTF8.self)
    }

    /// The example's layouts: each version's, and version 4's keeping version 1's columns.
    static func exampleLayouts() throws -> [StoreLayout] {
        let history = try ModelHistory.load(directory: TestStore.packageRoot + "/models")
        var layouts = history.models.map { LayoutBuilder.layout(for: $0) }
        layouts.append(LayoutBuilder.layout(for: history.latest!, keeping: layouts[0].entities.mapValues(\.attributeColumns)))
        return layouts
    }

    /// Names that escape, sort differently by bytes than as Swift strings, or are not ASCII.
    static let awkwardNames = [
        "plain", "quote\"d", "back\\slash", "sl/ash", "ctl\u{01}\u{1F}", "tab\tnew\nline\rcr", "bs\u{08}ff\u{0C}vt\u{0B}",
        "nul\u{00}", "del\u{7F}", "é", "e\u{301}x", "日本", "😀", "line\u{2028}sep", "Z", "a", "ab", "B", "z", "a10", "a9", "",
        "\u{212A}elvin",
    ]

    /// A layout whose every name is one of `names`, with every optional set on some members and unset on others.
    static func layout(names: [String]) -> StoreLayout {
        var tables: [TableSpec] = []
        var entities: [String: EntityStorage] = [:]
        for (i, name) in names.enumerated() {
            let other = names[(i + 1) % names.count]
            let columns = [
                ColumnSpec(name: "_pk", sqlType: "INTEGER", isPrimaryKey: true, isNotNull: true),
                ColumnSpec(name: name, sqlType: "TEXT", isNotNull: i % 2 == 0),
                ColumnSpec(name: other, sqlType: "INTEGER", references: i % 3 == 0 ? nil : other,
                           onDelete: i % 3 == 0 ? nil : "SET NULL"),
            ]
            tables.append(TableSpec(name: name, kind: i % 4 == 3 ? .join : .entity, rootEntity: i % 2 == 0 ? name : nil,
                                    columns: columns, primaryKey: i % 4 == 3 ? [name, other] : [],
                                    indexes: [IndexSpec(name: "strata_" + name, columns: [name, other], isUnique: i % 2 == 1)]))
            let kinds: [RelationshipStorage.Kind] = [.foreignKey, .inverseForeignKey, .joinTable]
            entities[name] = EntityStorage(
                entity: name, root: other, table: name, isDiscriminated: i % 2 == 0, kinds: [name, other],
                attributeColumns: [name: other, other: name],
                relationships: [name: RelationshipStorage(kind: kinds[i % 3], destination: other, isToMany: i % 2 == 1,
                                                          table: other, column: name,
                                                          otherColumn: i % 3 == 2 ? other : nil,
                                                          orderColumn: i % 2 == 1 ? name + "_order" : nil)])
        }
        return StoreLayout(tables: tables, entities: entities)
    }

    /// 80 entities in trees of four (one root and its sub-entities in a discriminated table), a join table for
    /// every fifth, relationships of each kind, every optional set on some and unset on others.
    static func generatedLayout(entities count: Int = 80) -> StoreLayout {
        var tables: [TableSpec] = []
        var entities: [String: EntityStorage] = [:]
        for i in 0..<count {
            let name = "Entity\(i)", root = "Entity\(i - i % 4)", target = "Entity\((i + 4) % count - (i + 4) % count % 4)"
            var relationships = [
                "owner": RelationshipStorage(kind: .foreignKey, destination: target, isToMany: false, table: root, column: "owner\(i)"),
                "items": RelationshipStorage(kind: .inverseForeignKey, destination: target, isToMany: true, table: target,
                                             column: "owner\(i)", orderColumn: i % 2 == 0 ? "owner\(i)_order" : nil),
            ]
            if i % 5 == 0 {
                let join = "\(name)_tags"
                relationships["tags"] = RelationshipStorage(kind: .joinTable, destination: target, isToMany: true, table: join,
                                                            column: "a", otherColumn: "b", orderColumn: i % 10 == 0 ? "a_order" : nil)
                tables.append(TableSpec(name: join, kind: .join, columns: [
                    ColumnSpec(name: "a", sqlType: "INTEGER", isNotNull: true, references: root, onDelete: "CASCADE"),
                    ColumnSpec(name: "b", sqlType: "INTEGER", isNotNull: true, references: target, onDelete: "CASCADE"),
                    ColumnSpec(name: "a_order", sqlType: "INTEGER"),
                ], primaryKey: ["a", "b"], indexes: [IndexSpec(name: "strata_\(join)_b", columns: ["b"], isUnique: false)]))
            }
            entities[name] = EntityStorage(entity: name, root: root, table: root, isDiscriminated: true,
                                           kinds: i % 4 == 0 ? (i..<i + 4).map { "Entity\($0)" } : [name],
                                           attributeColumns: Dictionary(uniqueKeysWithValues: (0..<10).map { ("attr\($0)", "\(name)_attr\($0)") }),
                                           relationships: relationships)
            if i % 4 == 0 {
                let columns = [ColumnSpec(name: "_pk", sqlType: "INTEGER", isPrimaryKey: true, isNotNull: true),
                               ColumnSpec(name: "_entity", sqlType: "INTEGER", isNotNull: true)]
                    + (i..<i + 4).flatMap { j in (0..<10).map { ColumnSpec(name: "Entity\(j)_attr\($0)", sqlType: "REAL") } }
                    + (i..<i + 4).map { ColumnSpec(name: "owner\($0)", sqlType: "INTEGER", references: target, onDelete: "SET NULL") }
                tables.append(TableSpec(name: name, kind: .entity, rootEntity: i % 8 == 0 ? name : nil, columns: columns,
                                        indexes: [IndexSpec(name: "strata_\(name)_owner", columns: ["owner\(i)"], isUnique: i % 3 == 0)]))
            }
        }
        return StoreLayout(tables: tables, entities: entities)
    }

    static func allLayouts() throws -> [StoreLayout] {
        let large = try ModelLoader.load(yaml: LargeModel.yaml(entities: 80), file: "large.yaml")
        return try exampleLayouts() + [LayoutBuilder.layout(for: large), generatedLayout(), layout(names: awkwardNames)]
    }

    @Test func writesWhatJSONEncoderWrites() throws {
        for layout in try Self.allLayouts() {
            #expect(LayoutJSON.text(of: layout) == Self.foundationText(layout))
        }
    }

    @Test func readsWhatJSONDecoderReads() throws {
        for layout in try Self.allLayouts() {
            for formatting: JSONEncoder.OutputFormatting in [[.sortedKeys], [], [.prettyPrinted], [.prettyPrinted, .withoutEscapingSlashes]] {
                let text = Self.foundationText(layout, formatting)
                let foundation = try JSONDecoder().decode(StoreLayout.self, from: Data(text.utf8))
                #expect(try LayoutJSON.layout(from: text) == foundation)
                #expect(foundation == layout)
            }
        }
    }

    /// The tables keep the order they are written in, as with `JSONDecoder` (`StoreLayout.init` would sort them).
    @Test func keepsTheTablesInTheirOrder() throws {
        var layout = Self.generatedLayout(entities: 8)
        layout.tables.reverse()
        let text = Self.foundationText(layout)
        #expect(try LayoutJSON.layout(from: text).tables.map(\.name) == layout.tables.map(\.name))
        #expect(try LayoutJSON.layout(from: text) == JSONDecoder().decode(StoreLayout.self, from: Data(text.utf8)))
    }

    @Test func entityHashesReadAndWriteAsWithFoundation() throws {
        let model = try ModelHistory.load(directory: TestStore.packageRoot + "/models").latest!
        let awkward = Dictionary(Self.awkwardNames.map { ($0, $0 + "\u{01}\"/\\") }, uniquingKeysWith: { first, _ in first })
        for hashes in [VersionHash.entityHashes(of: model), awkward, [:]] {
            let text = LayoutJSON.text(of: hashes)
            #expect(text == Self.foundationText(hashes))
            #expect(try LayoutJSON.strings(from: text) == hashes)
            let pretty = Self.foundationText(hashes, [.prettyPrinted])
            #expect(try LayoutJSON.strings(from: pretty) == JSONDecoder().decode([String: String].self, from: Data(pretty.utf8)))
        }
    }

    /// Keys sort by their UTF-8 bytes, not as Swift strings: "B" before "a", "Z" before "a", "a10" before "a9", "é" after "z".
    @Test func sortsKeysByTheirBytes() {
        let text = LayoutJSON.text(of: ["a": "", "z": "", "é": "", "ab": "", "B": "", "Z": "", "a9": "", "a10": ""])
        #expect(text == #"{"B":"","Z":"","a":"","a10":"","a9":"","ab":"","z":"","é":""}"#)
    }

    @Test func escapesAsJSONEncoderDoes() {
        #expect(LayoutJSON.text(of: ["k": "\"\\/\u{08}\u{0C}\n\r\t\u{01}\u{1F}\u{7F}é😀"])
                == "{\"k\":\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u0001\\u001f\u{7F}é😀\"}")
    }

    /// A metadata value nested deeper than `JSONDecoder`'s limit of 512 arrays and objects is an error, not a
    /// stack overflow.
    @Test func deepNestingIsAnError() throws {
        let deep = String(repeating: "[", count: 100_000)
        #expect(throws: LayoutJSONReader.Error.self) { try LayoutJSON.layout(from: deep) }
        #expect(throws: LayoutJSONReader.Error.self) { try LayoutJSON.strings(from: deep) }
        #expect(throws: LayoutJSONReader.Error.self) { try LayoutJSON.layout(from: #"{"x":"# + deep) }
        #expect(throws: LayoutJSONReader.Error.self) { try LayoutJSON.layout(from: #"{"x":"# + deep + String(repeating: "]", count: 100_000) + "}") }
    }

    /// At the limit, both read it: the top object and 511 arrays; one more array, neither does.
    @Test(arguments: [511, 512])
    func nestingLimitIsJSONDecoders(arrays: Int) throws {
        let base = Self.foundationText(Self.generatedLayout(entities: 4))
        let text = #"{"x":"# + String(repeating: "[", count: arrays) + String(repeating: "]", count: arrays) + "," + base.dropFirst()
        let foundation = try? JSONDecoder().decode(StoreLayout.self, from: Data(text.utf8))
        let ours = try? LayoutJSON.layout(from: text)
        #expect(ours == foundation)
        #expect((ours != nil) == (arrays == 511))
    }
}
