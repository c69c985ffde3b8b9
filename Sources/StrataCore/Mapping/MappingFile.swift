/// A mapping file (SPEC §11.3): what one version step does where inference cannot guess, or where the
/// user wants to shape it. Read by `MappingFileLoader`, checked against models P and N by
/// `MappingFileChecker`, compiled into the step's SQL by `MappingFilePlanner`.
///
/// ```yaml
/// mapping: { from: 4, to: 5 }
/// entities:
///   Recipe:
///     source: Recipe
///     filter: "deleted == NO"
///     attributes: { rating: "int16(score)" }
/// ```
public struct MappingFile: Sendable, Hashable {
    public var from: Int
    public var to: Int
    /// Where `mapping:` is (errors about the step point here).
    public var location: SourceLocation
    public var entities: [EntityMapping]
    public var onViolation: ViolationPolicy = .rollback
    /// Every `TODO` left in the file (exit 4 until edited).
    public var todos: [Todo] = []
    /// `variables:`: defaults of the `$NAME`s its expressions and filters read; `--var` takes precedence (and
    /// `MappingFileSet.load` merges the values it was given in).
    public var variables: [String: String] = [:]
    public var file: String
    /// SHA-256 of the file's bytes, recorded with the step.
    public var checksum: String
    /// The file's text (for source lines in diagnostics).
    public var source: String

    public init(from: Int, to: Int, location: SourceLocation, entities: [EntityMapping], file: String, checksum: String, source: String) {
        self.from = from
        self.to = to
        self.location = location
        self.entities = entities
        self.file = file
        self.checksum = checksum
        self.source = source
    }

    public func entity(_ name: String) -> EntityMapping? { entities.first { $0.name == name } }

    /// A `TODO` value: what it stands for (`Recipe.rating`) and where it is.
    public struct Todo: Sendable, Hashable {
        public var entity: String
        public var property: String?
        public var location: SourceLocation
    }
}

/// One destination entity of a mapping file.
public struct EntityMapping: Sendable, Hashable {
    /// The destination entity (model N).
    public var name: String
    public var location: SourceLocation
    /// Its source entities (model P); empty = the same name or `renamedFrom`.
    public var sources: [String] = []
    public var sourceLocation: SourceLocation?
    /// Source rows to carry (a predicate over the source row, model P names).
    public var filter: LocatedText?
    /// Destination attribute → expression over the source row.
    public var attributes: [AttributeMapping] = []
    /// Destination relationship → `$source` (link to the object carried from the same source row).
    public var relationships: [RelationshipMapping] = []

    public init(name: String, location: SourceLocation) {
        self.name = name
        self.location = location
    }

    public func attribute(_ name: String) -> AttributeMapping? { attributes.first { $0.name == name } }
}

/// A string of a mapping file and where its first character is.
public struct LocatedText: Sendable, Hashable {
    public var text: String
    public var origin: SourceLocation
    public init(_ text: String, at origin: SourceLocation) {
        self.text = text
        self.origin = origin
    }
}

public struct AttributeMapping: Sendable, Hashable {
    public var name: String
    public var location: SourceLocation
    /// One expression for every source, or nil when `perSource` is given. YAML null is the expression `nil`.
    public var expression: LocatedText?
    /// Source entity → expression (merges).
    public var perSource: [String: LocatedText] = [:]
}

public struct RelationshipMapping: Sendable, Hashable {
    public var name: String
    public var location: SourceLocation
    public var value: LocatedText
}
