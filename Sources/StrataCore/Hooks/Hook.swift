/// One step of a hook: a declared batch update, delete or insert, or a relationship link.
public enum HookStep: Sendable, Hashable {
    case batchUpdate(BatchUpdateRequest)
    case batchDelete(BatchDeleteRequest)
    /// Raw SQL (SPEC §11.1); which entities it wrote is known only when it ran.
    case sql(SQLStep)
    /// A Swift stage's declaration: the registered closure runs here (SPEC §11.2).
    case swiftStage(SwiftStageDeclaration)
    case batchInsert(BatchInsertRequest)
    case setRelationship(SetRelationshipRequest)

    public var entity: String {
        switch self {
        case .batchUpdate(let r): return r.entity
        case .batchDelete(let r): return r.entity
        case .sql: return ""
        case .swiftStage(let s): return s.writes.joined(separator: ", ")
        case .batchInsert(let r): return r.entity
        case .setRelationship(let r): return r.entity
        }
    }

    /// Whether this is an `sql:` step.
    package var isSQL: Bool { if case .sql = self { return true } else { return false } }

    public var kind: String {
        switch self {
        case .batchUpdate: return "batchUpdate"
        case .batchDelete: return "batchDelete"
        case .sql: return "sql"
        case .swiftStage: return "swift"
        case .batchInsert: return "batchInsert"
        case .setRelationship: return "setRelationship"
        }
    }
}

/// Where a hook runs in the step that reaches its version: after the schema changes, on that version's model
/// (`after: N`), or before them, on the model of the version below (`before: N`, SPEC §11.1).
public enum HookTiming: String, Sendable, Hashable, Codable {
    case before, after
}

/// A hook: a file in `migrations/` that runs exactly once per store, in the transaction of the version step
/// that reaches version `after`, after its schema changes or (`timing` `.before`) before them.
public struct Hook: Sendable, Hashable {
    /// The explicit `id:`, or the file name without extension.
    public var id: String
    /// The version N of `after: N` or `before: N`: the hook runs in the step that reaches it.
    public var after: Int
    /// `after: N` or `before: N`.
    public var timing: HookTiming = .after
    /// The model the hook is checked and run against: N for `after: N`, the version below N for `before: N`
    /// (set when the hook set is loaded against the models).
    public var modelVersion: Int
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
    /// `writes:` of a hook with `sql:` steps: entities audited in full and invalidated after it, whatever the
    /// authorizer saw its statements write (SPEC §11.4). A Swift stage's are in its declaration.
    public var writes: [String] = []
    /// Where each `writes:` entry is, for located errors.
    public var writeLocations: [SourceLocation] = []
    /// Step index → the properties set by a plain YAML scalar (not `{ value: … }`): `lint` warns when
    /// one reads like an expression.
    public var plainLiterals: [Int: Set<String>] = [:]

    public init(id: String, after: Int, description: String? = nil, steps: [HookStep], variables: [String: String] = [:],
                onViolation: ViolationPolicy = .rollback, file: String, checksum: String, source: String = "",
                afterLocation: SourceLocation? = nil, idLocation: SourceLocation? = nil) {
        self.id = id
        self.after = after
        self.modelVersion = after
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

    /// Whether this is a Swift stage's declaration (`swift: true`).
    public var swiftStage: SwiftStageDeclaration? {
        if steps.count == 1, case .swiftStage(let declaration) = steps[0] { return declaration }
        return nil
    }

    /// `after 4`, `before 4`: how reports name the hook's place.
    public var place: String { "\(timing.rawValue) \(after)" }

    /// Hooks run in version order, before-hooks first, then id order.
    public static func runOrder(_ a: Hook, _ b: Hook) -> Bool {
        (a.after, a.timing == .before ? 0 : 1, a.id) < (b.after, b.timing == .before ? 0 : 1, b.id)
    }
}
