/// The outcome of one executed batch request.
public struct BatchResult: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, Codable { case update, delete }
    public var kind: Kind
    public var entity: String
    /// Objects the request matched (updated, or deleted by the request itself; cascades are in `changes`).
    public var count: Int
    /// The matched objects' IDs, when the result type asks for them; sorted.
    public var objectIDs: [ObjectID]?
    /// Everything the batch changed, cascades and nullified relationships included: what observers receive.
    public var changes: ChangeSet
    /// The audit run before commit (nil when the caller asked for none).
    public var audit: AuditResult?

    public init(kind: Kind, entity: String, count: Int, objectIDs: [ObjectID]?, changes: ChangeSet) {
        self.kind = kind
        self.entity = entity
        self.count = count
        self.objectIDs = objectIDs
        self.changes = changes
    }
}

/// What a batch changed, per entity: the equivalent of the dictionary passed to Core Data's
/// `mergeChanges(fromRemoteContextSave:into:)`. Object IDs when they were asked for, else counts
/// only, so memory stays flat.
public struct ChangeSet: Sendable, Hashable, Codable {
    /// Entity → updated object IDs (rows updated, and rows whose relationship was nullified), sorted.
    public var updated: [String: [ObjectID]] = [:]
    /// Entity → deleted object IDs (cascades included), sorted.
    public var deleted: [String: [ObjectID]] = [:]
    /// Entity → number of updated objects (always filled).
    public var updatedCounts: [String: Int] = [:]
    /// Entity → number of deleted objects (always filled).
    public var deletedCounts: [String: Int] = [:]
    /// Whether `updated` and `deleted` list the IDs.
    public var hasObjectIDs = false

    public init() {}

    public var isEmpty: Bool { updatedCounts.values.allSatisfy { $0 == 0 } && deletedCounts.values.allSatisfy { $0 == 0 } }

    /// Adds one ID (and its count).
    public mutating func add(updated id: ObjectID) {
        updated[id.entity, default: []].append(id)
        updatedCounts[id.entity, default: 0] += 1
    }

    public mutating func add(deleted id: ObjectID) {
        deleted[id.entity, default: []].append(id)
        deletedCounts[id.entity, default: 0] += 1
    }

    /// Adds IDs (and their counts).
    public mutating func add(updated ids: [ObjectID]) { for id in ids { add(updated: id) } }

    public mutating func add(deleted ids: [ObjectID]) { for id in ids { add(deleted: id) } }

    /// Sorts the ID lists.
    public mutating func normalize() {
        for key in updated.keys { updated[key]!.sort() }
        for key in deleted.keys { deleted[key]!.sort() }
        updatedCounts = updatedCounts.filter { $0.value > 0 }
        deletedCounts = deletedCounts.filter { $0.value > 0 }
    }

    /// Merges another change set (several batches of one hook).
    public mutating func merge(_ other: ChangeSet) {
        // An empty set adds nothing, and says nothing about whether IDs are listed.
        if other.isEmpty && other.updated.isEmpty && other.deleted.isEmpty { return }
        if isEmpty && updated.isEmpty && deleted.isEmpty {
            // The first batch of a hook (or the first hook of a run): share its lists instead of copying
            // them; the lists are then exactly the other's, IDs included when it has them.
            self = other
            normalize()
            return
        }
        for (k, v) in other.updated { updated[k, default: []] += v }
        for (k, v) in other.deleted { deleted[k, default: []] += v }
        for (k, v) in other.updatedCounts { updatedCounts[k, default: 0] += v }
        for (k, v) in other.deletedCounts { deletedCounts[k, default: 0] += v }
        hasObjectIDs = hasObjectIDs && other.hasObjectIDs
        normalize()
    }
}

/// An object a batch delete cannot remove: one of its deny relationships still has a destination.
public struct DeleteBlocker: Sendable, Hashable, Codable, CustomStringConvertible {
    public var object: ObjectID
    public var relationship: String
    public var related: ObjectID

    public init(object: ObjectID, relationship: String, related: ObjectID) {
        self.object = object
        self.relationship = relationship
        self.related = related
    }

    public var description: String { "\(object) cannot be deleted: its '\(relationship)' (deny) still holds \(related)" }
}

/// Why a batch request failed.
public enum BatchError: Error, Sendable, CustomStringConvertible {
    /// The request is invalid (predicate, value, unknown entity or attribute): exit 2, nothing ran.
    case invalid(Diagnostic)
    /// A deny rule blocks the delete: exit 3, nothing deleted. At most `BatchError.blockerLimit` listed.
    case denied(blockers: [DeleteBlocker], total: Int)
    /// The batch broke a uniqueness constraint (1551) or an integer range: exit 3, rolled back.
    case violation(code: Int, message: String)
    /// SQLite failed: exit 1.
    case database(message: String, sql: String?)
    /// SQLite ran out of space (disk full, `max_page_count`): exit 1, the transaction rolled back.
    case outOfSpace(message: String)

    public static let blockerLimit = 1000

    public var description: String {
        switch self {
        case .invalid(let diagnostic): return diagnostic.description
        case .denied(let blockers, let total):
            var lines = ["error: the delete is denied: \(total) related object\(total == 1 ? "" : "s") block it (nothing was deleted)"]
            lines += blockers.map { "  \($0)" }
            if total > blockers.count { lines.append("  … and \(total - blockers.count) more") }
            return lines.joined(separator: "\n")
        case .violation(let code, let message): return "error: \(message) (\(code))"
        case .database(let message, let sql): return "error: SQLite: \(message)" + (sql.map { "\n  in: \($0)" } ?? "")
        case .outOfSpace: return diagnostics.map(\.description).joined(separator: "\n")
        }
    }
}

extension BatchError: StrataError {
    public var exitCode: ExitStatus {
        switch self {
        case .invalid: return .invalidInput
        case .denied, .violation: return .validationViolations
        case .database, .outOfSpace: return .runtimeFailure
        }
    }

    public var diagnostics: [Diagnostic] {
        switch self {
        case .invalid(let diagnostic): return [diagnostic]
        case .denied(let blockers, let total):
            var list = [Diagnostic.error("the delete is denied: \(total) related object\(total == 1 ? "" : "s") block it; nothing was deleted",
                                         hint: "delete or unlink the related objects first, or change the deny rule")]
            list += blockers.map { Diagnostic.error($0.description) }
            return list
        case .violation(let code, let message): return [.error("\(message) (\(code))", hint: "nothing was changed")]
        case .database(let message, let sql): return [.error("SQLite: \(message)", hint: sql.map { "in: \($0)" })]
        case .outOfSpace(let message):
            return [.error("out of space (\(message)); the transaction was rolled back and the store is unchanged",
                           hint: "free disk space and rerun")]
        }
    }
}

extension PredicateCompileError: StrataError {
    public var exitCode: ExitStatus { .invalidInput }
    public var diagnostics: [Diagnostic] { [diagnostic] }
}
