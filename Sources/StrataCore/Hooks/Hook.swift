/// One step of a hook: a declared batch update, delete or insert, or a relationship link.
public enum HookStep: Sendable, Hashable {
    case batchUpdate(BatchUpdateRequest)
    case batchDelete(BatchDeleteRequest)
    case batchInsert(BatchInsertRequest)
    case setRelationship(SetRelationshipRequest)

    public var entity: String {
        switch self {
        case .batchUpdate(let r): return r.entity
        case .batchDelete(let r): return r.entity
        case .batchInsert(let r): return r.entity
        case .setRelationship(let r): return r.entity
        }
    }

    public var kind: String {
        switch self {
        case .batchUpdate: return "batchUpdate"
        case .batchDelete: return "batchDelete"
        case .batchInsert: return "batchInsert"
        case .setRelationship: return "setRelationship"
        }
    }
}

/// A post-migration hook: a file in `migrations/` that runs exactly once per store, right
/// after the store reaches version `after`, in the same transaction as that version step.
public struct Hook: Sendable, Hashable {
    /// The explicit `id:`, or the file name without extension.
    public var id: String
    public var after: Int
    public var description: String?
    public var steps: [HookStep]
    /// `variables:` for the predicates (`$NAME`); `--var` overrides them.
    public var variables: [String: String]
    public var onViolation: ViolationPolicy
    public var file: String
    /// SHA-256 of the file's bytes (SPEC §10): editing the file after it ran is drift.
    public var checksum: String
    public var source: String
    /// Where `after:` and `id:` are, for located errors.
    public var afterLocation: SourceLocation
    public var idLocation: SourceLocation
    /// Where each step's `entity:` value is, for errors the planner cannot locate itself.
    public var stepLocations: [SourceLocation] = []
    /// Step index → the properties set by a plain YAML scalar (not `{ value: … }`): `lint` warns when
    /// one reads like an expression.
    public var plainLiterals: [Int: Set<String>] = [:]

    public init(id: String, after: Int, description: String? = nil, steps: [HookStep], variables: [String: String] = [:],
                onViolation: ViolationPolicy = .rollback, file: String, checksum: String, source: String = "",
                afterLocation: SourceLocation? = nil, idLocation: SourceLocation? = nil) {
        self.id = id
        self.after = after
        self.description = description
        self.steps = steps
        self.variables = variables
        self.onViolation = onViolation
        self.file = file
        self.checksum = checksum
        self.source = source
        self.afterLocation = afterLocation ?? SourceLocation(file: file, line: 1, column: 1)
        self.idLocation = idLocation ?? SourceLocation(file: file, line: 1, column: 1)
    }

    /// Hooks run in version order, then id order.
    public static func runOrder(_ a: Hook, _ b: Hook) -> Bool { (a.after, a.id) < (b.after, b.id) }
}
