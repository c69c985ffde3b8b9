import Foundation

/// One object read by ``Store/fetch(_:where:arguments:sortedBy:limit:includesSubentities:context:_:)``: its ID
/// and its attributes by name, as stored.
///
/// ```swift
/// let soup = try store.fetchAll("Recipe", where: "name == %@", arguments: [.text("Soup")]).first!
/// soup.id                      // x-strata://<store-uuid>/Recipe/p1
/// soup["rating"]               // .integer(3)
/// ```
public struct FetchedObject: Sendable, Hashable {
    /// The object's ID; its `entity` is the object's own entity (a sub-entity when the fetch included them).
    public var id: ObjectID
    /// Attribute name → stored value (`.null` for nil), the attributes of the object's own entity, inherited
    /// ones included. Dates are seconds since 1970 (`.real`), booleans `.integer(0/1)`.
    public var values: [String: Value]

    public init(id: ObjectID, values: [String: Value]) {
        self.id = id
        self.values = values
    }

    /// The entity of the object.
    public var entity: String { id.entity }

    /// The value of an attribute; nil when the object's entity has no such attribute.
    public subscript(_ property: String) -> Value? { values[property] }

    /// A `string` attribute's text; nil for nil (or another storage class).
    public func string(_ property: String) -> String? {
        if case .text(let text)? = values[property] { return text }
        return nil
    }

    /// An integer attribute's value (`int16`/`int32`/`int64`); nil for nil.
    public func int(_ property: String) -> Int64? {
        if case .integer(let value)? = values[property] { return value }
        return nil
    }

    /// A `double`/`float` attribute's value (an integer stored in it too); nil for nil.
    public func double(_ property: String) -> Double? {
        switch values[property] {
        case .real(let value)?: return value
        case .integer(let value)?: return Double(value)
        default: return nil
        }
    }

    /// A `bool` attribute's value (stored 0/1); nil for nil.
    public func bool(_ property: String) -> Bool? { int(property).map { $0 != 0 } }

    /// A `date` attribute's value (stored as seconds since 1970); nil for nil.
    public func date(_ property: String) -> Date? { double(property).map(Date.init(timeIntervalSince1970:)) }
}

/// A sort key of a fetch: an attribute, ascending or descending. Ties (and the end of the list) are broken by
/// the objects' primary keys, so the order is total and the same on every run. Nil sorts before any value.
public struct PropertySort: Sendable, Hashable {
    public var property: String
    public var ascending: Bool

    public init(_ property: String, ascending: Bool = true) {
        self.property = property
        self.ascending = ascending
    }
}

/// A fetch that names something the store's model does not have.
public enum FetchError: StrataError, Sendable, Equatable {
    case unknownEntity(String, hint: String?)
    case unknownProperty(entity: String, property: String, hint: String?)
    /// A relationship stored in another table (a to-many, a join table): no column of the entity's table holds it.
    case notAColumn(entity: String, property: String, table: String)
    case negativeLimit(Int)

    public var exitCode: ExitStatus { .invalidInput }

    public var diagnostics: [Diagnostic] {
        switch self {
        case .unknownEntity(let name, let hint):
            return [.error("the store's model has no entity '\(name)'", hint: hint)]
        case .unknownProperty(let entity, let property, let hint):
            return [.error("\(entity) has no attribute '\(property)'", hint: hint)]
        case .notAColumn(let entity, let property, let table):
            return [.error("\(entity).\(property) is not a column of \(entity)'s table: it is stored in table '\(table)'",
                           hint: "query that table for it, or use a to-one relationship")]
        case .negativeLimit(let limit):
            return [.error("the limit \(limit) is negative", hint: "give 0 or more, or nil for no limit")]
        }
    }

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
