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
