/// The outcome of one executed batch request.
public struct BatchResult: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, Codable { case update, delete, insert, link }
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
