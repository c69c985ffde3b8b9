/// An attribute of an entity, as declared in a model file.
public struct Attribute: Hashable, Sendable {
    public var name: String
    public var type: AttributeType
    /// Core Data's default: attributes are optional unless declared otherwise.
    public var isOptional: Bool = true
    /// The default value in storage form, or nil when the attribute has none.
    public var defaultValue: Value? = nil
    /// Lower and upper bounds (numbers and dates), in storage form.
    public var minValue: Value? = nil
    public var maxValue: Value? = nil
    public var minLength: Int? = nil
    public var maxLength: Int? = nil
    /// A regular expression the whole value must match (NSPredicate `MATCHES`).
    public var pattern: String? = nil
    public var renamedFrom: String? = nil
    public var isIndexed: Bool = false
    /// The declared SQL column name, when it differs from the attribute name.
    public var column: String? = nil
    public var versionHashModifier: String? = nil
    public var userInfo: [String: String] = [:]
    /// Where the attribute is declared (its name's key in the YAML file).
    public var location: SourceLocation? = nil
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
