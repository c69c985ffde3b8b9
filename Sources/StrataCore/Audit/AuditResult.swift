import Foundation

/// The outcome of an audit: one entry per rule checked, each with its exact violation count and
/// up to `maxSamples` sample objects. Reports render it; `strata audit` exits 3 when it has failures.
public struct AuditResult: Sendable, Codable, Hashable {
    public var storeUUID: String
    public var modelVersion: Int
    /// `full`, `entities` or `touched`.
    public var scope: String
    /// The entities of an `.entities` scope.
    public var entities: [String]
    /// The cap on samples per rule the audit ran with.
    public var maxSamples: Int
    /// Every rule checked (violated or not), ordered by entity then declaration.
    public var rules: [AuditRuleResult]

    public init(storeUUID: String, modelVersion: Int, scope: String, entities: [String] = [], maxSamples: Int,
                rules: [AuditRuleResult]) {
        self.storeUUID = storeUUID
        self.modelVersion = modelVersion
        self.scope = scope
        self.entities = entities
        self.maxSamples = maxSamples
        self.rules = rules
    }

    public var rulesChecked: Int { rules.count }
    /// Rules with at least one violation.
    public var violated: [AuditRuleResult] { rules.filter { $0.count > 0 } }
    /// Violations over all rules (objects; duplicate groups for uniqueness).
    public var totalViolations: Int { rules.reduce(0) { $0 + $1.count } }

    /// Violated rules whose code counts as a failure: all of them when `failOn` is nil.
    public func failures(failOn: Set<AuditCode>? = nil) -> [AuditRuleResult] {
        violated.filter { $0.isFailure(failOn: failOn) }
    }
}

/// One rule's outcome.
public struct AuditRuleResult: Sendable, Codable, Hashable {
    /// The entity the rule was checked on.
    public var entity: String
    /// The attribute or relationship (constraint's properties for uniqueness), nil for predicates.
    public var property: String?
    /// The rule's kind: `optional`, `max`, `pattern`, ... (`AuditRule.Kind`).
    public var rule: String
    public var code: AuditCode
    /// The rule as a person reads it: `max 5`, `unique (name)`, a predicate's message.
    public var constraint: String
    /// Exact number of violating objects (of duplicate groups for uniqueness).
    public var count: Int
    /// The first violations (by `_pk`; by key for uniqueness), at most the audit's `maxSamples`.
    public var samples: [AuditSample]
    /// Seconds spent checking the rule (JUnit's `time`); the rules one table scan checks together share
    /// its time evenly.
    public var duration: Double = 0

    /// `duration` is left out of the coded form: a timing, not part of what the audit found.
    enum CodingKeys: String, CodingKey { case entity, property, rule, code, constraint, count, samples }

    public init(entity: String, property: String?, rule: String, code: AuditCode, constraint: String,
                count: Int, samples: [AuditSample]) {
        self.entity = entity
        self.property = property
        self.rule = rule
        self.code = code
        self.constraint = constraint
        self.count = count
        self.samples = samples
    }

    /// `Recipe.rating` or `Recipe` for entity-level rules.
    public var subject: String { property.map { "\(entity).\($0)" } ?? entity }

    public func isFailure(failOn: Set<AuditCode>?) -> Bool {
        count > 0 && (failOn?.contains(code) ?? true)
    }
}

/// One violating object (the first object of a duplicate group for uniqueness).
public struct AuditSample: Sendable, Codable, Hashable {
    /// The object ID URI.
    public var objectID: String
    /// The offending value for display (dates as ISO 8601, long strings truncated), nil for NULL.
    public var value: String?
    /// The other objects of a duplicate group (capped like samples).
    public var related: [String]

    public init(objectID: String, value: String?, related: [String] = []) {
        self.objectID = objectID
        self.value = value
        self.related = related
    }

    /// The longest value shown, in Characters (longer ones end with `…`).
    public static let maxValueLength = 80

    /// A stored value as reports show it: nil for NULL, dates as ISO 8601, booleans as true/false,
    /// strings unquoted and truncated, blobs as their size.
    public static func display(_ value: Value, as type: AttributeType?) -> String? {
        switch (value, type) {
        case (.null, _): return nil
        case (.real(let d), .date): return DateText.format(d)
        case (.integer(let i), .date): return DateText.format(Double(i))
        case (.integer(let i), .bool): return i == 0 ? "false" : "true"
        case (.integer(let i), _): return String(i)
        case (.real(let d), _): return Value.format(d)
        case (.text(let s), _):
            return s.count > maxValueLength ? String(s.prefix(maxValueLength)) + "…" : s
        case (.blob(let b), let type?) where type.isTextual:
            return display(.text(String(decoding: b, as: UTF8.self)), as: type)
        case (.blob(let b), _): return "<\(b.count) bytes>"
        }
    }
}
