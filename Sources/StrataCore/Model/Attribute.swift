/// An attribute of an entity, as declared in a model file.
public struct Attribute: Hashable, Sendable {
    /// The stored values, in one copy-on-write box (`CopyOnWrite`): a copy is one retain.
    struct Fields: Hashable, Sendable {
        var name: String
        var type: AttributeType
        var isOptional: Bool = true
        var defaultValue: Value? = nil
        var minValue: Value? = nil
        var maxValue: Value? = nil
        var minLength: Int? = nil
        var maxLength: Int? = nil
        var pattern: String? = nil
        var renamedFrom: String? = nil
        var isIndexed: Bool = false
        var column: String? = nil
        var versionHashModifier: String? = nil
        var userInfo: [String: String] = [:]
        var location: SourceLocation? = nil
        var keyLocations: [String: SourceLocation] = [:]
    }

    private var fields: CopyOnWrite<Fields>

    public var name: String {
        get { fields.value.name }
        _modify { yield &fields.value.name }
    }
    public var type: AttributeType {
        get { fields.value.type }
        _modify { yield &fields.value.type }
    }
    /// Core Data's default: attributes are optional unless declared otherwise.
    public var isOptional: Bool {
        get { fields.value.isOptional }
        _modify { yield &fields.value.isOptional }
    }
    /// The default value in storage form, or nil when the attribute has none.
    public var defaultValue: Value? {
        get { fields.value.defaultValue }
        _modify { yield &fields.value.defaultValue }
    }
    /// Lower and upper bounds (numbers and dates), in storage form.
    public var minValue: Value? {
        get { fields.value.minValue }
        _modify { yield &fields.value.minValue }
    }
    public var maxValue: Value? {
        get { fields.value.maxValue }
        _modify { yield &fields.value.maxValue }
    }
    public var minLength: Int? {
        get { fields.value.minLength }
        _modify { yield &fields.value.minLength }
    }
    public var maxLength: Int? {
        get { fields.value.maxLength }
        _modify { yield &fields.value.maxLength }
    }
    /// A regular expression the whole value must match (NSPredicate `MATCHES`).
    public var pattern: String? {
        get { fields.value.pattern }
        _modify { yield &fields.value.pattern }
    }
    public var renamedFrom: String? {
        get { fields.value.renamedFrom }
        _modify { yield &fields.value.renamedFrom }
    }
    public var isIndexed: Bool {
        get { fields.value.isIndexed }
        _modify { yield &fields.value.isIndexed }
    }
    /// The declared SQL column name, when it differs from the attribute name.
    public var column: String? {
        get { fields.value.column }
        _modify { yield &fields.value.column }
    }
    public var versionHashModifier: String? {
        get { fields.value.versionHashModifier }
        _modify { yield &fields.value.versionHashModifier }
    }
    public var userInfo: [String: String] {
        get { fields.value.userInfo }
        _modify { yield &fields.value.userInfo }
    }
    /// Where the attribute is declared (its name's key in the YAML file).
    public var location: SourceLocation? {
        get { fields.value.location }
        _modify { yield &fields.value.location }
    }
    /// Where each declared key's value is in the file (`"type"`, `"uniqueness.0"`, …), for located errors.
    public var keyLocations: [String: SourceLocation] {
        get { fields.value.keyLocations }
        _modify { yield &fields.value.keyLocations }
    }

    public init(name: String, type: AttributeType, isOptional: Bool = true, defaultValue: Value? = nil,
                location: SourceLocation? = nil) {
        var fields = Fields(name: name, type: type)
        fields.isOptional = isOptional
        fields.defaultValue = defaultValue
        fields.location = location
        self.fields = CopyOnWrite(fields)
    }
}
