/// What a batch changed, per entity: the equivalent of the dictionary passed to Core Data's
/// `mergeChanges(fromRemoteContextSave:into:)`. Object IDs when they were asked for, else counts
/// only, so memory stays flat.
public struct ChangeSet: Sendable, Hashable, Codable {
    /// Entity → updated object IDs (rows updated, and rows whose relationship was nullified), sorted, each once.
    public var updated: [String: [ObjectID]] = [:]
    /// Entity → deleted object IDs (cascades included), sorted, each once.
    public var deleted: [String: [ObjectID]] = [:]
    /// Entity → inserted object IDs (batch inserts), sorted, each once.
    public var inserted: [String: [ObjectID]] = [:]
    /// Entity → number of inserted objects (always filled).
    public var insertedCounts: [String: Int] = [:]
    /// Entity → number of rows updated, added up over the statements (always filled): an object two steps
    /// updated counts twice, while `updated` lists it once.
    public var updatedCounts: [String: Int] = [:]
    /// Entity → number of deleted objects (always filled).
    public var deletedCounts: [String: Int] = [:]
    /// Whether `updated` and `deleted` list the IDs.
    public var hasObjectIDs = false
    /// Destination entity → objects a migration step gave new IDs (a mapping file's merge, SPEC §11.3
    /// "IDs"), old → new, sorted by new ID; listed when IDs are collected.
    public var remapped: [String: [Remapped]] = [:]
    /// Entity → number of objects that got new IDs (always filled).
    public var remappedCounts: [String: Int] = [:]
    /// Entities whose objects may all have changed (an `sql:` step wrote their tables), sorted: an application
    /// refetches every object of these entities.
    public var invalidated: [String] = []

    /// One object's ID before and after a step that gave it a new one.
    public struct Remapped: Sendable, Hashable, Codable {
        public var old: ObjectID
        public var new: ObjectID
        public init(old: ObjectID, new: ObjectID) {
            self.old = old
            self.new = new
        }
    }

    public init() {}

    public var isEmpty: Bool {
        updatedCounts.values.allSatisfy { $0 == 0 } && deletedCounts.values.allSatisfy { $0 == 0 }
            && insertedCounts.values.allSatisfy { $0 == 0 } && invalidated.isEmpty
            && remappedCounts.values.allSatisfy { $0 == 0 }
    }

    /// Marks entities as invalidated (kept sorted, each once).
    public mutating func invalidate(_ entities: some Sequence<String>) {
        invalidated = Array(Set(invalidated).union(entities)).sorted()
    }

    public mutating func add(inserted id: ObjectID) {
        inserted[id.entity, default: []].append(id)
        insertedCounts[id.entity, default: 0] += 1
    }

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

    /// Sorts the ID lists, each ID once.
    public mutating func normalize() {
        for key in updated.keys { updated[key] = Self.sortedOnce(updated[key]!) }
        for key in deleted.keys { deleted[key] = Self.sortedOnce(deleted[key]!) }
        for key in inserted.keys { inserted[key] = Self.sortedOnce(inserted[key]!) }
        updatedCounts = updatedCounts.filter { $0.value > 0 }
        deletedCounts = deletedCounts.filter { $0.value > 0 }
        insertedCounts = insertedCounts.filter { $0.value > 0 }
        remappedCounts = remappedCounts.filter { $0.value > 0 }
    }

    /// `ids` sorted, each once: an object two steps of a hook updated (or two proposed rows of one upsert) is
    /// one object to refresh. The counts still add up each statement's rows, as Core Data's batch results do.
    static func sortedOnce(_ ids: [ObjectID]) -> [ObjectID] {
        var result: [ObjectID] = []
        result.reserveCapacity(ids.count)
        for id in ids.sorted() where result.last != id { result.append(id) }
        return result
    }

    /// Merges another change set (several batches of one hook).
    public mutating func merge(_ other: ChangeSet) {
        // An empty set adds nothing, and says nothing about whether IDs are listed.
        if other.isEmpty && other.updated.isEmpty && other.deleted.isEmpty && other.inserted.isEmpty { return }
        if isEmpty && updated.isEmpty && deleted.isEmpty && inserted.isEmpty {
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
        for (k, v) in other.inserted { inserted[k, default: []] += v }
        for (k, v) in other.insertedCounts { insertedCounts[k, default: 0] += v }
        for (k, v) in other.remapped { remapped[k, default: []] += v }
        for (k, v) in other.remappedCounts { remappedCounts[k, default: 0] += v }
        hasObjectIDs = hasObjectIDs && other.hasObjectIDs
        invalidate(other.invalidated)
        normalize()
    }
}
