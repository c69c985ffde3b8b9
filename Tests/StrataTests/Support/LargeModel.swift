/// Generates model YAML of the shape real Core Data apps ship: many entities and attributes,
/// SQL keywords as names, inheritance with sibling attributes of one name, relationships
/// without inverses, many-to-many and ordered relationships.
enum LargeModel {
    static let keywords = ["order", "index", "desc", "select", "group", "where", "from", "table", "default", "check"]
    static let types = ["int16", "int32", "int64", "decimal", "double", "float", "string", "bool", "date", "binary", "uuid", "uri"]

    /// - Parameters:
    ///   - entities: number of entities (every tenth is a root with two sub-entities sharing attribute names).
    ///   - attributesPerEntity: attributes declared on each entity.
    static func yaml(version: Int = 1, entities: Int = 80, attributesPerEntity: Int = 9) -> String {
        var lines = ["version: \(version)", "entities:"]
        for i in 0..<entities {
            let name = i % 10 == 0 ? "Order\(i)" : "Entity\(i)"
            lines.append("  \(name):")
            if i % 10 == 2 || i % 10 == 3 { lines.append("    parent: Entity\(i - i % 10 + 1)") }
            let isSub = i % 10 == 2 || i % 10 == 3
            lines.append("    attributes:")
            for j in 0..<attributesPerEntity {
                // Sub-entities are siblings declaring the same names (stored in one table).
                let attr = isSub ? "sub\(j)" : (j % 3 == 0 ? keywords[(i + j) % keywords.count] : "attr\(j)")
                let type = types[(i + j) % types.count]
                lines.append("      \(attr): { type: \(type) }")
            }
            lines.append(isSub ? "      key: { type: string }" : "      id: { type: int64 }")
            if i > 0 {
                lines.append("    relationships:")
                let target = i % 10 == 0 ? "Order\(i - 10)" : "Order\(i - i % 10)"
                if i % 10 == 2 || i % 10 == 3 {
                    lines.append("      owner: { destination: \(target) }")   // no inverse
                } else if i % 10 == 5 {
                    lines.append("      tags: { destination: Entity\(i - 1), toMany: true, ordered: true }")
                } else {
                    lines.append("      parentOrder: { destination: \(target), deleteRule: cascade }")
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
