/// One version of a Core Data model as Strata will write it: the values of SPEC §2, in the XML's order.
struct ImportedModel: Sendable {
    var entities: [ImportedEntity] = []
}

/// An entity or property as Core Data matches it across versions: by its renaming identifier, else its name.
protocol ImportedElement {
    var name: String { get }
    /// Core Data's renaming identifier (defaults to the name), matched against the previous version.
    var renamingIdentifier: String? { get }
    /// The previous version's name, set where the identifier matched a differently named element.
    var renamedFrom: String? { get set }
}

extension ImportedElement {
    var identifier: String { renamingIdentifier ?? name }
}

struct ImportedEntity: Sendable, ImportedElement {
    var name: String
    var parent: String?
    var isAbstract = false
    var renamingIdentifier: String?
    var renamedFrom: String?
    var versionHashModifier: String?
    /// Set only when the name clashes with another table ignoring case (SQLite's rule).
    var table: String?
    var attributes: [ImportedAttribute] = []
    var relationships: [ImportedRelationship] = []
    var uniqueness: [[String]] = []
    var indexes: [[String]] = []
    var userInfo: [(key: String, value: String)] = []
    /// Where the `<entity>` is in the XML, for a `CoreDataModelReader.Problem`.
    var xmlLine = 1
    var xmlColumn = 1

    func propertyNames() -> [String] { attributes.map(\.name) + relationships.map(\.name) }
}

struct ImportedAttribute: Sendable, ImportedElement {
    var name: String
    var type: AttributeType
    var isOptional = true
    var defaultValue: Value?
    var minValue: Value?
    var maxValue: Value?
    var minLength: Int?
    var maxLength: Int?
    var pattern: String?
    var isIndexed = false
    /// Set only when the name clashes with another column of the entity ignoring case.
    var column: String?
    var renamingIdentifier: String?
    var renamedFrom: String?
    var versionHashModifier: String?
    var userInfo: [(key: String, value: String)] = []
}

struct ImportedRelationship: Sendable, ImportedElement {
    var name: String
    var destination: String
    var inverse: String?
    var isToMany = false
    var isOrdered = false
    var isOptional = true
    var minCount: Int?
    var maxCount: Int?
    var deleteRule: DeleteRule = .nullify
    var column: String?
    var renamingIdentifier: String?
    var renamedFrom: String?
    var versionHashModifier: String?
    var userInfo: [(key: String, value: String)] = []
    /// Where the `<relationship>` is in the XML, for a `CoreDataModelReader.Problem`.
    var xmlLine = 1
    var xmlColumn = 1
}

/// Something a Core Data model holds that Strata's YAML does not carry, and why.
public struct NotCarried: Sendable, Hashable, Codable {
    /// The Strata version number, or nil when the version was skipped before it got one.
    public var version: Int?
    /// The version's name in the bundle (`Model 3`), or the bundle item it concerns.
    public var versionName: String
    public var file: String
    public var entity: String?
    public var property: String?
    public var reason: String

    public init(version: Int?, versionName: String, file: String, entity: String? = nil, property: String? = nil, reason: String) {
        self.version = version
        self.versionName = versionName
        self.file = file
        self.entity = entity
        self.property = property
        self.reason = reason
    }

    /// `Recipe.title`, `Recipe`, or empty when the item concerns the whole version.
    public var target: String { [entity, property].compactMap { $0 }.joined(separator: ".") }

    /// `Model 3 (v3) Recipe.title: reason`
    public var description: String {
        "\(versionName)\(version.map { " (v\($0))" } ?? "")\(target.isEmpty ? "" : " " + target): \(reason)"
    }
}
