/// What a mapping file's destination entity carries in one step (SPEC §11.3 "Reports"), counted on the
/// store before the step runs, so a dry run and the real run report the same numbers.
public struct MappingEntityReport: Sendable, Hashable, Codable {
    public var entity: String
    public var source: String
    public var filter: String?
    /// Source rows carried into the entity.
    public var carried: Int
    /// Source rows the `filter:` leaves out.
    public var dropped: Int
    public var failedCasts: [FailedCast]
    /// Rows carried with new object IDs (a merge, or several mappings of one source into one table; SPEC §11.3 "IDs").
    public var newIDs = 0
    /// Links from carried objects to the rows the filter drops (removed with them), per `table.column`.
    public var linksDropped: [String: Int] = [:]

    /// A mapped attribute whose value came out nil although its inputs were not (a failed cast, an overflow).
    public struct FailedCast: Sendable, Hashable, Codable {
        public var attribute: String
        public var expression: String
        public var count: Int
        public var samples: [Sample]

        public init(attribute: String, expression: String, count: Int, samples: [Sample]) {
            self.attribute = attribute
            self.expression = expression
            self.count = count
            self.samples = samples
        }
    }

    /// One failed object: its ID (in the source entity) and the source values the expression read.
    public struct Sample: Sendable, Hashable, Codable {
        public var objectID: String
        public var values: [String: String]

        public init(objectID: String, values: [String: String]) {
            self.objectID = objectID
            self.values = values
        }
    }

    public init(entity: String, source: String, filter: String?, carried: Int, dropped: Int, failedCasts: [FailedCast]) {
        self.entity = entity
        self.source = source
        self.filter = filter
        self.carried = carried
        self.dropped = dropped
        self.failedCasts = failedCasts
    }

    /// `mapped Person from Author: 2 carried, 1 dropped by filter`, then one line per attribute with failed casts.
    public var lines: [String] {
        var head = "mapped \(entity) from \(source): \(carried) carried"
        if filter != nil { head += ", \(dropped) dropped by filter" }
        if newIDs > 0 { head += ", \(newIDs) with new IDs" }
        let links = linksDropped.values.reduce(0, +)
        if links > 0 {
            head += ", \(links) link\(links == 1 ? "" : "s") to them dropped (" + linksDropped.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + ")"
        }
        var lines = [head]
        for f in failedCasts where f.count > 0 {
            let samples = f.samples.map { s in
                s.objectID + " (" + s.values.sorted { $0.key < $1.key }.map { "\($0.key) = \($0.value)" }.joined(separator: ", ") + ")"
            }
            lines.append("  \(entity).\(f.attribute) = \(f.expression): \(f.count) failed cast\(f.count == 1 ? "" : "s") (nil)"
                         + (samples.isEmpty ? "" : ": " + samples.joined(separator: ", ")))
        }
        return lines
    }
}
