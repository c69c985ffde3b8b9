/// An attribute of an entity, as declared in a model file.
public struct Attribute: Hashable, Sendable {
    public var name: String
    public var type: AttributeType
    /// Core Data's default: attributes are optional unless declared otherwise.
    public var isOptional: Bool = true
    /// The default value in storage form, or nil when the attribute has none.
    public var defaultValue: Value?
    /// Lower and upper bounds (numbers and dates), in storage form.
    public var minValue: Value?
    public var maxValue: Value?
    public var minLength: Int?
    public var maxLength: Int?
    /// A regular expression the whole value must match (NSPredicate `MATCHES`).
    public var pattern: String?
    public var renamedFrom: String?
    public var isIndexed: Bool = false
    /// The declared SQL column name, when it differs from the attribute name.
    public var column: String?
    public var versionHashModifier: String?
    public var userInfo: [String: String] = [:]
    /// Where the attribute is declared (its name's key in the YAML file).
    public var location: SourceLocation?
    /// Where each declared key's value is in the file (`"type"`, `"uniqueness.0"`, …), for located errors.
    public var keyLocations: [String: SourceLocation] = [:]

    public init(name: String, type: AttributeType, isOptional: Bool = true, defaultValue: Value? = nil,
                location: SourceLocation? = nil) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.defaultValue = defaultValue
        self.location = location
    }
}
