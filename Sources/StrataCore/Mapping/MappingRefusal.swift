/// A change Strata cannot infer: the step stops before touching the store (exit 4).
public struct MappingRefusal: Hashable, Sendable, Codable {
    public var fromVersion: Int
    public var toVersion: Int
    public var entity: String
    public var property: String?
    /// The change, e.g. "type changes from string to int16".
    public var change: String
    /// What the user can do.
    public var hint: String
    /// Where the offending node is declared in the destination model file.
    public var location: SourceLocation?

    public init(fromVersion: Int, toVersion: Int, entity: String, property: String? = nil, change: String, hint: String,
                location: SourceLocation? = nil) {
        self.fromVersion = fromVersion
        self.toVersion = toVersion
        self.entity = entity
        self.property = property
        self.change = change
        self.hint = hint
        self.location = location
    }

    /// `models/3.yaml:12:7: error: v2 → v3: Recipe.rating: type changes from string to int16, not a lightweight change`
    public var diagnostic: Diagnostic {
        let target = property.map { "\(entity).\($0)" } ?? entity
        return .error("v\(fromVersion) → v\(toVersion): \(target): \(change), which Strata cannot infer",
                      at: location, hint: hint)
    }
}
