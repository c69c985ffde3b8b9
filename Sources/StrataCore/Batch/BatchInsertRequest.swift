/// What a batch insert returns (Core Data's `NSBatchInsertRequestResultType`).
public enum BatchInsertResultType: String, Sendable, Hashable, Codable, CaseIterable {
    case statusOnly, objectIDs, count
}

/// What a batch insert does with a row that would break a uniqueness constraint (Core Data's merge
/// policies for batch insert).
public enum BatchInsertConflictPolicy: String, Sendable, Hashable, Codable, CaseIterable {
    /// The insert fails (1551, exit 3) and nothing is written: the default.
    case fail
    /// The row is skipped (`NSErrorMergePolicy` off, Core Data's `mergeByPropertyStoreTrump`).
    case ignore
    /// The existing row takes the new row's named attributes (`mergeByPropertyObjectTrump`).
    case update
}

/// Where a `from:` insert takes its rows: one new object per matching source object.
public struct BatchInsertSource: Sendable, Hashable {
    public var entity: String
    public var predicate: String?
    public var arguments: [PredicateArgument]
    /// Whether sub-entities' objects are sources too (default true).
    public var includesSubentities = true
    /// Where the predicate starts in a hook file.
    public var predicateOrigin: SourceLocation?
    /// Where `entity:` is in a hook file.
    public var entityOrigin: SourceLocation?

    public init(entity: String, predicate: String? = nil, arguments: [PredicateArgument] = []) {
        self.entity = entity
        self.predicate = predicate
        self.arguments = arguments
    }
}

/// Inserts objects of an entity, bypassing validation (the audit checks them before commit), like Core
/// Data's `NSBatchInsertRequest`: literal rows, rows filled one at a time by a handler, or (hooks'
/// `from:`) one row per object of a source entity, computed by one `INSERT … SELECT`.
///
/// ```swift
/// var request = BatchInsertRequest(entity: "Tag", objects: [["name": .text("quick")], ["name": .text("vegan")]])
/// request.resultType = .objectIDs
/// let result = try await store.execute(request)
///
/// var n = 0
/// let generated = BatchInsertRequest(entity: "Tag") { row in   // return true to stop
///     n += 1
///     if n > 1000 { return true }
///     row["name"] = .text("tag \(n)")
///     return false
/// }
/// ```
/// Omitted attributes take the model's default; an omitted non-optional attribute without a default is
/// invalid. Only attributes and to-one relationships (given as the destination's object ID or `_pk`) can
/// be set. Equality and hashing ignore the handler.
public struct BatchInsertRequest: Sendable, Hashable {
    public var entity: String
    /// Literal rows: property → value (`.literal` text coerced to the attribute's type, or `.value`).
    public var objects: [[String: UpdateValue]]
    /// One new object per source object (`from:`); `values` are expressions over the source row.
    public var source: BatchInsertSource?
    /// For `source`: property → expression (`$source.name`, `$source`, `lowercase($source.title)`, `1`).
    public var values: [String: String]
    public var resultType: BatchInsertResultType = .statusOnly
    public var onConflict: BatchInsertConflictPolicy = .fail
    /// Fills one row per call until it returns true (that last row is not inserted), like
    /// `NSBatchInsertRequest.dictionaryHandler`.
    public var dictionaryHandler: (@Sendable (inout [String: Value]) -> Bool)?
    /// Where each value starts in a hook file: per object for `objects` (`objectOrigins[i][name]`),
    /// `valueOrigins` for `values`; `keyOrigins` for property names.
    public var objectOrigins: [[String: SourceLocation]] = []
    public var valueOrigins: [String: SourceLocation] = [:]
    public var keyOrigins: [String: SourceLocation] = [:]

    public init(entity: String, objects: [[String: UpdateValue]]) {
        self.entity = entity
        self.objects = objects
        self.values = [:]
    }

    /// Rows in storage form (`Value`s, checked against each attribute's type).
    public init(entity: String, objects: [[String: Value]]) {
        self.init(entity: entity, objects: objects.map { $0.mapValues(UpdateValue.value) })
    }

    /// Rows filled by `handler` one at a time until it returns true.
    public init(entity: String, dictionaryHandler: @escaping @Sendable (inout [String: Value]) -> Bool) {
        self.init(entity: entity, objects: [[String: UpdateValue]]())
        self.dictionaryHandler = dictionaryHandler
    }

    /// One new object per object of `source`, with `values` computed from it.
    public init(entity: String, from source: BatchInsertSource, values: [String: String]) {
        self.entity = entity
        self.objects = []
        self.source = source
        self.values = values
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.entity == b.entity && a.objects == b.objects && a.source == b.source && a.values == b.values
            && a.resultType == b.resultType && a.onConflict == b.onConflict && (a.dictionaryHandler == nil) == (b.dictionaryHandler == nil)
            && a.objectOrigins == b.objectOrigins && a.valueOrigins == b.valueOrigins && a.keyOrigins == b.keyOrigins
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(entity)
        hasher.combine(objects)
        hasher.combine(source)
        hasher.combine(values)
        hasher.combine(resultType)
        hasher.combine(onConflict)
    }
}
