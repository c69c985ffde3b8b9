/// Version hashes (SPEC §2): what shapes the stored data, plus the optional flag.
///
/// An entity's hash is the SHA-256 (lowercase hex) of the canonical JSON object
/// ```
/// {"abstract":false,"name":"Recipe","parent":null,"properties":[…],"table":null,
///  "uniqueness":[["name"]],"versionHashModifier":null}
/// ```
/// where `parent` is the parent's hash, `properties` are sorted by name, each
/// `{"column":null,"kind":"attribute","name":"rating","optional":false,"type":"int16","versionHashModifier":null}`
/// or `{"column":null,"deleteRule":"cascade","destination":"Ingredient","inverse":"recipe","kind":"relationship",
/// "name":"ingredients","optional":true,"ordered":false,"toMany":true,"versionHashModifier":null}`,
/// and `uniqueness` lists each constraint's names sorted, the constraints sorted.
/// The model's hash is the SHA-256 of its entity hashes, sorted, concatenated.
public enum VersionHash {
    /// Entity name → hash.
    public static func entityHashes(of model: Model) -> [String: String] {
        Dictionary(uniqueKeysWithValues: model.entities.map { ($0.name, hash(of: $0, in: model, visiting: [])) })
    }

    /// SHA-256 over the sorted entity hashes.
    public static func modelHash(of model: Model) -> String {
        modelHash(fromEntityHashes: entityHashes(of: model))
    }

    public static func modelHash(fromEntityHashes hashes: [String: String]) -> String {
        SHA256.hex(hashes.values.sorted().joined())
    }

    static func hash(of entity: Entity, in model: Model, visiting: Set<String>) -> String {
        SHA256.hex(canonicalJSON(of: entity, in: model, visiting: visiting).bytes)
    }

    /// The canonical JSON form hashed for `entity` (shown in the comment on ``VersionHash``).
    static func canonicalJSON(of entity: Entity, in model: Model, visiting: Set<String>) -> CanonicalJSON {
        var parentHash: CanonicalJSON = .null
        if let parent = entity.parent, !visiting.contains(parent), let p = model.entity(parent) {
            parentHash = .string(hash(of: p, in: model, visiting: visiting.union([entity.name])))
        }
        var properties: [(String, CanonicalJSON)] = entity.attributes.map { a in
            (a.name, .object([
                "kind": .string("attribute"), "name": .string(a.name), "column": .optional(a.column),
                "optional": .bool(a.isOptional), "versionHashModifier": .optional(a.versionHashModifier),
                "type": .string(a.type.rawValue),
            ]))
        }
        properties += entity.relationships.map { r in
            (r.name, .object([
                "kind": .string("relationship"), "name": .string(r.name), "column": .optional(r.column),
                "optional": .bool(r.isOptional), "versionHashModifier": .optional(r.versionHashModifier),
                "destination": .string(r.destination), "inverse": .optional(r.inverse), "toMany": .bool(r.isToMany),
                "ordered": .bool(r.isOrdered), "deleteRule": .string(r.deleteRule.rawValue),
            ]))
        }
        properties.sort { $0.0 < $1.0 }
        let uniqueness = entity.uniqueness.map { $0.sorted() }.sorted { $0.lexicographicallyPrecedes($1) }
        return .object([
            "name": .string(entity.name), "table": .optional(entity.table), "parent": parentHash,
            "abstract": .bool(entity.isAbstract), "versionHashModifier": .optional(entity.versionHashModifier),
            "properties": .array(properties.map(\.1)),
            "uniqueness": .array(uniqueness.map { .array($0.map(CanonicalJSON.string)) }),
        ])
    }
}
