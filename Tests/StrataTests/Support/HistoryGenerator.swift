@testable import Strata

/// Generates long model histories of the size real apps ship (80 entities, 700+ attributes, 100+
/// versions), one deterministic change per version, for planning tests and the benchmark.
enum HistoryGenerator {
    /// What version `v` changes, and on which entity's table.
    enum Change: String { case addAttribute, renameAttribute, addIndex, changeDefault, removeAttribute, addEntity }

    static func change(at version: Int) -> Change {
        [.addAttribute, .renameAttribute, .addIndex, .changeDefault, .removeAttribute, .addEntity][version % 6]
    }

    static func target(at version: Int) -> String { "E\((version * 7) % 80)" }

    static func history(versions: Int = 117, entities: Int = 80, attributesPerEntity: Int = 9) -> [Model] {
        var list: [Entity] = (0..<entities).map { i in
            var e = Entity(name: "E\(i)", parent: i % 10 == 2 ? "E\(i - 1)" : nil)
            let types: [AttributeType] = [.string, .int16, .double, .date, .bool, .int64, .decimal, .uuid, .binary]
            e.attributes = (0..<attributesPerEntity).map { j in Attribute(name: i % 10 == 2 ? "s\(j)" : "a\(j)", type: types[(i + j) % types.count]) }
            if i > 0, i % 10 != 2 { e.relationships = [Relationship(name: "prev", destination: "E\(i - 1)")] }
            return e
        }
        var models = [Model(version: 1, entities: list)]
        for v in 2...max(2, versions) {
            let name = target(at: v)
            let i = list.firstIndex { $0.name == name }!
            switch change(at: v) {
            case .addAttribute: list[i].attributes.append(Attribute(name: "n\(v)", type: .string))
            case .renameAttribute:
                var a = list[i].attributes[1]
                a.renamedFrom = a.name
                a.name = "r\(v)"
                list[i].attributes[1] = a
            case .addIndex: list[i].indexes.append([list[i].attributes[2].name])
            case .changeDefault: list[i].attributes[0].versionHashModifier = String(v)
            case .removeAttribute: list[i].attributes.removeLast()
            case .addEntity: list.append(Entity(name: "N\(v)", attributes: [Attribute(name: "x", type: .string)]))
            }
            for j in list.indices { list[j].attributes = list[j].attributes.map { var a = $0; if a.name != "r\(v)" { a.renamedFrom = nil }; return a } }
            models.append(Model(version: v, entities: list))
        }
        return models
    }
}
