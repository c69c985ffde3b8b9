/// An attribute of an entity, as declared in a model file.
public struct Attribute: Hashable, Sendable {
    /// The stored values, in one copy-on-write box: a model has thousands of properties and the
    /// loader, checker and planner pass them around; a copy is then one retain, not one per field.
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

    final class Box: @unchecked Sendable {
        /// Written only after `unshare()` made the box unique to one value, so no access can overlap a
        /// write: the run-time exclusivity check (on every read of every property) is skipped.
        @exclusivity(unchecked) var fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private var box: Box

    /// Mutations copy the box first when it is shared (value semantics).
    private mutating func unshare() {
        if !isKnownUniquelyReferenced(&box) { box = Box(box.fields) }
    }

    public var name: String {
        get { box.fields.name }
        _modify { unshare(); yield &box.fields.name }
    }
    public var type: AttributeType {
        get { box.fields.type }
        _modify { unshare(); yield &box.fields.type }
    }
    /// Core Data's default: attributes are optional unless declared otherwise.
    public var isOptional: Bool {
        get { box.fields.isOptional }
        _modify { unshare(); yield &box.fields.isOptional }
    }
    /// The default value in storage form, or nil when the attribute has none.
    public var defaultValue: Value? {
        get { box.fields.defaultValue }
        _modify { unshare(); yield &box.fields.defaultValue }
    }
    /// Lower and upper bounds (numbers and dates), in storage form.
    public var minValue: Value? {
        get { box.fields.minValue }
        _modify { unshare(); yield &box.fields.minValue }
    }
    public var maxValue: Value? {
        get { box.fields.maxValue }
        _modify { unshare(); yield &box.fields.maxValue }
    }
    public var minLength: Int? {
        get { box.fields.minLength }
        _modify { unshare(); yield &box.fields.minLength }
    }
    public var maxLength: Int? {
        get { box.fields.maxLength }
        _modify { unshare(); yield &box.fields.maxLength }
    }
    /// A regular expression the whole value must match (NSPredicate `MATCHES`).
    public var pattern: String? {
        get { box.fields.pattern }
        _modify { unshare(); yield &box.fields.pattern }
    }
    public var renamedFrom: String? {
        get { box.fields.renamedFrom }
        _modify { unshare(); yield &box.fields.renamedFrom }
    }
    public var isIndexed: Bool {
        get { box.fields.isIndexed }
        _modify { unshare(); yield &box.fields.isIndexed }
    }
    /// The declared SQL column name, when it differs from the attribute name.
    public var column: String? {
        get { box.fields.column }
        _modify { unshare(); yield &box.fields.column }
    }
    public var versionHashModifier: String? {
        get { box.fields.versionHashModifier }
        _modify { unshare(); yield &box.fields.versionHashModifier }
    }
    public var userInfo: [String: String] {
        get { box.fields.userInfo }
        _modify { unshare(); yield &box.fields.userInfo }
    }
    /// Where the attribute is declared (its name's key in the YAML file).
    public var location: SourceLocation? {
        get { box.fields.location }
        _modify { unshare(); yield &box.fields.location }
    }
    /// Where each declared key's value is in the file (`"type"`, `"uniqueness.0"`, …), for located errors.
    public var keyLocations: [String: SourceLocation] {
        get { box.fields.keyLocations }
        _modify { unshare(); yield &box.fields.keyLocations }
    }

    public static func == (lhs: Attribute, rhs: Attribute) -> Bool { lhs.box === rhs.box || lhs.box.fields == rhs.box.fields }
    public func hash(into hasher: inout Hasher) { box.fields.hash(into: &hasher) }

    public init(name: String, type: AttributeType, isOptional: Bool = true, defaultValue: Value? = nil,
                location: SourceLocation? = nil) {
        var fields = Fields(name: name, type: type)
        fields.isOptional = isOptional
        fields.defaultValue = defaultValue
        fields.location = location
        box = Box(fields)
    }
}
