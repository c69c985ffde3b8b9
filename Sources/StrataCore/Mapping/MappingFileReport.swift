/// A destination entity named by a mapping file, as reports show it (SPEC §11.3 "Reports").
public struct MappedEntity: Hashable, Sendable, Codable {
    public var entity: String
    public var source: String
    public var filter: String?
    /// Attribute → expression.
    public var attributes: [String: String]
}

enum MappingFileReport {
    /// `strata diff`'s lines for the entities a mapping file names.
    static func changes(_ mapping: CompiledMapping?) -> [MappingChange] {
        guard let mapping else { return [] }
        return mapping.entities.keys.sorted().map { name in
            let e = mapping.entities[name]!
            var detail = "mapped from \(e.source) (\(mapping.file.file))"
            if let filter = e.filterText { detail += ", filter: \(filter) (other rows dropped)" }
            return MappingChange(.mapEntity, entity: name, detail: detail, isDestructive: e.filter != nil)
        }
    }

    static func entities(_ mapping: CompiledMapping?, destinationLayout: StoreLayout) -> [MappedEntity] {
        guard let mapping else { return [] }
        return mapping.entities.keys.sorted().map { name in
            let e = mapping.entities[name]!
            return MappedEntity(entity: name, source: e.source, filter: e.filterText, attributes: e.expressions)
        }
    }
}

extension MappingRefusal {
    /// The refusal with the way forward: a mapping file (or, when there is one, what it must add).
    func pointingAt(_ file: MappingFile?) -> MappingRefusal {
        var r = self
        if let file {
            r.hint += "; or cover it in \(file.file)"
        } else {
            r.hint += "; or write a mapping file: `strata mapping \(fromVersion) \(toVersion)` prints a skeleton"
        }
        return r
    }
}
