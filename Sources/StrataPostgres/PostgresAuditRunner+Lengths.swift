import Foundation
import PostgresNIO
import StrataCore
import Strata

extension PostgresAuditRunner {
    /// The rows a length rule leaves undecided in SQL (text that is not all ASCII, or holds a CR), streamed
    /// in `_pk` order and judged by `String.count` against the rule's bound: Characters, as SQLite's
    /// `strata_length` counts them. Memory stays flat: a count and at most `maxSamples` samples.
    func undecidedLengths(_ rule: AuditRule, mode: AuditRunMode, maxSamples: Int) async throws -> Tally {
        guard let limit = rule.lengthLimit else { return Tally() }
        let statement = AuditSQL.undecidedLengths(rule, mode: mode)
        var tally = Tally()
        try await session.stream(try renderer.rendering(statement)) { row in
            guard let text = try Self.text(row[2], statement) else { return }
            let characters = text.count
            guard rule.kind == .maxLength ? characters > limit : characters < limit else { return }
            tally.count += 1
            guard tally.samples.count < maxSamples else { return }
            let pk = try Self.integer(row[0], statement)
            tally.samples.append(AuditSample(objectID: objectID(rule, pk: pk, entity: try Self.text(row[1], statement)),
                                             value: AuditSample.display(.text(text), as: rule.valueType)))
            tally.keys.append(pk)
        }
        return tally
    }
}
