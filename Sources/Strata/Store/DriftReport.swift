/// What makes a store differ from what its recorded version should be (SPEC §2, §10 Drift).
public struct DriftReport: Hashable, Sendable, Codable {
    public struct Item: Hashable, Sendable, Codable, CustomStringConvertible {
        public enum Kind: String, Hashable, Sendable, Codable {
            case entityHash, modelHash, missingModel
            case missingTable, missingColumn, extraColumn, columnType, columnConstraint
            case foreignKey, missingIndex, extraIndex, indexDefinition
            /// A hook file changed after it was applied (SPEC §5): `strata repair` after review.
            case editedHook
            /// A mapping file changed after its step ran (SPEC §11.3): `strata repair` after review.
            case editedMapping
        }
        public var kind: Kind
        public var table: String?
        public var column: String?
        public var expected: String
        public var found: String

        public init(_ kind: Kind, table: String? = nil, column: String? = nil, expected: String, found: String) {
            self.kind = kind
            self.table = table
            self.column = column
            self.expected = expected
            self.found = found
        }

        public var description: String {
            let place = [table, column].compactMap { $0 }.joined(separator: ".")
            return "\(place.isEmpty ? "" : place + ": ")\(kind.rawValue): expected \(expected), found \(found)"
        }
    }

    public var storeVersion: Int
    public var items: [Item]

    public init(storeVersion: Int, items: [Item]) {
        self.storeVersion = storeVersion
        self.items = items
    }

    public var isEmpty: Bool { items.isEmpty }

    public var diagnostics: [Diagnostic] {
        [.error((["the store is in drift from version \(storeVersion) (\(items.count) difference\(items.count == 1 ? "" : "s")):"]
                 + items.map { "  " + $0.description }).joined(separator: "\n"),
                hint: items.allSatisfy { $0.kind == .editedHook || $0.kind == .editedMapping }
                    ? "restore the \(items.allSatisfy { $0.kind == .editedMapping } ? "mapping" : "hook") file, or review the edit and run `strata repair` to accept it; applied hooks and steps never re-run"
                    : "restore the schema or the model file of version \(storeVersion); Strata never migrates a drifted store")]
    }
}
