/// The identity of a stored object: `x-strata://<store-uuid>/<Entity>/p<_pk>` (SPEC §3),
/// where Entity is the object's own (most specific) entity.
public struct ObjectID: Hashable, Sendable, Codable, CustomStringConvertible, Comparable {
    public var storeUUID: String
    public var entity: String
    public var primaryKey: Int64

    public init(storeUUID: String, entity: String, primaryKey: Int64) {
        self.storeUUID = storeUUID
        self.entity = entity
        self.primaryKey = primaryKey
    }

    /// The URI form.
    public var uri: String { "x-strata://\(storeUUID)/\(entity)/p\(primaryKey)" }
    public var description: String { uri }

    /// Parses the URI form.
    public init?(uri: String) {
        let prefix = "x-strata://"
        guard uri.hasPrefix(prefix) else { return nil }
        let parts = uri.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[2].first == "p", let pk = Int64(parts[2].dropFirst()) else { return nil }
        self.init(storeUUID: String(parts[0]), entity: String(parts[1]), primaryKey: pk)
    }

    /// Encoded as its URI string.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(uri)
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let id = ObjectID(uri: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an x-strata:// object ID: \(text)")
        }
        self = id
    }

    public static func < (a: ObjectID, b: ObjectID) -> Bool {
        (a.entity, a.primaryKey) < (b.entity, b.primaryKey)
    }
}
