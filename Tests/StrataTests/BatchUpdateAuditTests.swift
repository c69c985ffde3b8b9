import Foundation
import GRDB
import Testing
@testable import Strata

/// The touched audit of a batch update run alone (`Store.execute`) reads the keys the update left in
/// `temp.strata_batch_keys`; a hook's batches record theirs in `temp.strata_touched`. Both must find the same
/// violations.
@Suite struct BatchUpdateAuditTests {
    static let yaml = PredicateFixture.yaml
        .replacingOccurrences(of: "name:     { type: string }\n      rating:   { type: int16 }",
                              with: "name:     { type: string, maxLength: 10 }\n      rating:   { type: int16, max: 5 }")
        .replacingOccurrences(of: "sweetness: { type: int16 }", with: "sweetness: { type: int16, max: 8 }")

    typealias Finding = [String]

    static func findings(_ audit: AuditResult?) -> [Finding] {
        (audit?.rules ?? []).map { [$0.subject, "\($0.code.rawValue)", "\($0.count)"] + $0.samples.map { "\($0.objectID.split(separator: "/").suffix(2).joined(separator: "/"))=\($0.value ?? "nil")" } }
    }

    /// The same request audited through the store (keys left in place) and through a hook's path (rows recorded
    /// in `strata_touched`): the same rules, counts and samples, and neither temporary table keeps rows.
    @Test(arguments: ["rating >= 4", "rating >= 40"])
    func aBatchAuditedAloneFindsWhatTheRecordedPathFinds(_ predicate: String) async throws {
        let request = BatchUpdateRequest(entity: "Recipe", predicate: predicate, propertiesToUpdate: ["rating": .expression("rating + 1")])
        let context = PredicateContext(now: PredicateFixture.now)

        let alone = try PredicateFixture.make(yaml: Self.yaml)
        let result = try await alone.store.execute(request, context: context, model: alone.model, onViolation: .warn)
        let left = try await alone.store.queue.read { db in
            try [BatchPlanner.touchedTable, BatchPlanner.keysTable].map { try Int.fetchOne(db, "SELECT COUNT(*) FROM \($0)") }
        }
        #expect(left == [0, 0])

        let hooked = try PredicateFixture.make(yaml: Self.yaml)
        let uuid = try hooked.store.metadata().storeUUID
        let recorded: AuditResult? = try hooked.store.queue.inDatabase { db in
            var audit: AuditResult?
            try db.inTransaction {
                try Auditor.prepareTouched(db)
                _ = try BatchExecutor.execute(request, in: db, model: hooked.model, layout: hooked.layout, storeUUID: uuid,
                                              context: context, recordTouched: true)
                audit = try Auditor.afterBatch(in: db, mode: .touched, model: hooked.model, layout: hooked.layout,
                                               storeUUID: uuid, context: context, maxSamples: 20)
                return .rollback
            }
            return audit
        }

        #expect(Self.findings(result.audit) == Self.findings(recorded))
        if predicate == "rating >= 4" {
            #expect(result.count == 3)
            // Rows 2 (Dessert), 6 (Dessert, sweetness 9) and 8 were updated; 'Straße Salad' (p3, 12 Characters)
            // breaks maxLength too but was not touched, so it is not reported.
            // (1620: the int16 attributes' lower bounds, checked with the upper ones.)
            #expect(Self.findings(result.audit) == [
                ["Dessert.sweetness", "1610", "1", "Dessert/p6=9"],
                ["Dessert.sweetness", "1620", "0"],
                ["Recipe.name", "1660", "1", "Dessert/p2=Crème brûlée"],
                ["Recipe.rating", "1610", "2", "Dessert/p2=6", "Recipe/p8=6"],
                ["Recipe.rating", "1620", "0"],
            ])
        } else {
            #expect(result.count == 0)
            #expect(Self.findings(result.audit) == [])
        }
    }

    @Test func theCountsReadTheKeysTableByKey() throws {
        let model = try ModelLoader.load(yaml: Self.yaml, file: "fixture.yaml")
        let rules = try AuditPlanner(model: model, layout: LayoutBuilder.layout(for: model), now: 0).rules(for: .full)
        let rating = try #require(rules.first { $0.property == "rating" && $0.kind == .max })
        #expect(AuditSQL.counts([rating], mode: .batchKeys) == RenderedSQL(
            #"SELECT COUNT(*) FILTER (WHERE t."rating" > ?) FROM temp."strata_batch_keys" AS touched CROSS JOIN "Recipe" AS t WHERE t."_pk" = touched."pk""#,
            [.integer(5)]))
    }
}

@Suite struct ChangeSetMergeTests {
    /// Two batches updating the same object: listed once, counted per statement.
    @Test func mergedListsHoldEachObjectOnce() {
        let id = { (pk: Int64) in ObjectID(storeUUID: "u", entity: "Recipe", primaryKey: pk) }
        var first = ChangeSet()
        first.hasObjectIDs = true
        first.add(updated: [id(3), id(1)])
        first.add(deleted: id(7))
        var second = ChangeSet()
        second.hasObjectIDs = true
        second.add(updated: [id(1), id(2), id(1)])
        second.add(deleted: id(7))
        first.merge(second)
        #expect(first.updated["Recipe"]?.map(\.primaryKey) == [1, 2, 3])
        #expect(first.deleted["Recipe"]?.map(\.primaryKey) == [7])
        #expect(first.updatedCounts == ["Recipe": 5])
        #expect(first.deletedCounts == ["Recipe": 2])
    }
}
