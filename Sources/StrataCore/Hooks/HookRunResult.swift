/// What one step of a hook did.
public struct HookStepResult: Sendable, Hashable, Codable {
    public var kind: String
    public var entity: String
    /// Objects the step matched (updated, or deleted by the request; cascades are in `changes`).
    public var count: Int
    /// The matched objects' IDs when the step's result type asks for them (encoded as URIs).
    public var objectIDs: [ObjectID]?
    /// Every object changed, per entity (cascades and nullified relationships included).
    public var updatedCounts: [String: Int]
    public var deletedCounts: [String: Int]
    /// Seconds.
    public var duration: Double

    public init(kind: String, entity: String, count: Int, objectIDs: [ObjectID]?, updatedCounts: [String: Int],
                deletedCounts: [String: Int], duration: Double) {
        self.kind = kind
        self.entity = entity
        self.count = count
        self.objectIDs = objectIDs
        self.updatedCounts = updatedCounts
        self.deletedCounts = deletedCounts
        self.duration = duration
    }
}

/// What a hook did, in the store's `strata_hooks` row and in reports.
public struct HookRunResult: Sendable, Hashable, Codable {
    public var id: String
    public var after: Int
    public var file: String
    public var checksum: String
    public var onViolation: ViolationPolicy
    public var steps: [HookStepResult]
    /// Sum of the steps' matched counts.
    public var rowsAffected: Int
    /// The audit before commit (nil with `--audit none`).
    public var audit: AuditResult?
    /// Whether it was committed (false when its violations rolled it back).
    public var committed: Bool
    /// Whether it ran as a late hook (`--run-late-hooks`).
    public var late: Bool = false
    /// `before` for a `before: N` hook (it ran before the step's schema changes); nil for `after: N`.
    public var timing: HookTiming?

    /// `after v4`, `before v4`.
    public var place: String { "\(timing == .before ? "before" : "after") v\(after)" }

    public var violationCount: Int { audit?.totalViolations ?? 0 }

    public init(id: String, after: Int, file: String, checksum: String, onViolation: ViolationPolicy, steps: [HookStepResult],
                rowsAffected: Int, audit: AuditResult?, committed: Bool, late: Bool = false) {
        self.id = id
        self.after = after
        self.file = file
        self.checksum = checksum
        self.onViolation = onViolation
        self.steps = steps
        self.rowsAffected = rowsAffected
        self.audit = audit
        self.committed = committed
        self.late = late
    }
}
