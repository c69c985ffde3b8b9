import Foundation
import Testing
@testable import Strata
import StrataTestSupport

/// Changes as an `AsyncSequence` (SPEC §13): batch requests and hooks publish their change sets, consumed on
/// the main actor.
@Suite struct StoreChangesTests {
    /// A view model as an app writes it: main-actor state refreshed from the store's change sequence.
    @MainActor final class ItemsModel {
        var titles: [String] = []
        var refreshes = 0
        let store: Store
        init(store: Store) { self.store = store }

        func refresh() throws {
            titles = try store.fetchAll("Item", where: "pinned == true", sortedBy: [PropertySort("title")]).map {
                if case .text(let title)? = $0["title"] { return title }
                return "?"
            }
            refreshes += 1
        }

        /// Refreshes once per change set touching items, until `count` change sets were seen.
        func observe(_ changes: StoreChanges, count: Int) async throws -> [ChangeSet] {
            var seen: [ChangeSet] = []
            for await change in changes {
                MainActor.assertIsolated()
                seen.append(change)
                if change.updatedCounts.keys.contains(where: { ["Item", "Book"].contains($0) }) { try refresh() }
                if seen.count == count { break }
            }
            return seen
        }
    }

    @Test func batchRequestsAndHooksPublishToTheMainActor() async throws {
        let v1 = try await StoreOpenTests.v1Store()
        let uuid = try v1.metadata().storeUUID
        let model = await ItemsModel(store: v1)
        let changes = v1.changes()   // subscribed from here on
        let observing = Task { @MainActor in try await model.observe(changes, count: 2) }

        // A hook: the store reaches v2 and pins ranks ≥ 5.
        let report = try await v1.migrate(models: StoreOpenTests.models, hooks: StoreOpenTests.hooks, options: StoreOpenTests.options())
        #expect(report.hooks.map(\.id) == ["pin-top-items"])
        // A batch update.
        let result = try await v1.execute(BatchUpdateRequest(entity: "Item", predicate: "title == %@", arguments: [.text("Emma")],
                                                             propertiesToUpdate: ["pinned": .literal("true")]))
        #expect(result.count == 1)

        let seen = try await observing.value
        func id(_ entity: String, _ pk: Int64) -> ObjectID { ObjectID(storeUUID: uuid, entity: entity, primaryKey: pk) }
        #expect(seen.map(\.updated) == [["Book": [id("Book", 2)], "Item": [id("Item", 3)]], ["Book": [id("Book", 4)]]])
        #expect(await model.titles == ["Dune", "Emma", "Lamp"])
        #expect(await model.refreshes == 2)
    }

    @Test func countsOnlyWhenAskedAndTheObserverGoesWithTheSequence() async throws {
        let store = try await StoreOpenTests.v1Store()
        var iterator: StoreChanges.Iterator? = store.changes(includingObjectIDs: false).makeAsyncIterator()
        #expect(store.changeObservers.wantsObjectIDs == false)
        _ = try await store.execute(BatchDeleteRequest(entity: "Book", predicate: "pages > 400"))
        let change = await iterator?.next()
        #expect(change?.deletedCounts == ["Book": 1])
        #expect(change?.hasObjectIDs == false)
        #expect(change?.deleted == [:])

        // A sequence that is gone unsubscribes; so does one whose consuming task is cancelled.
        iterator = nil
        #expect(store.changeObservers.isEmpty)
        let task = Task { for await _ in store.changes() {} }
        #expect(Wait.until { store.changeObservers.wantsObjectIDs })
        task.cancel()
        await task.value
        #expect(!store.changeObservers.wantsObjectIDs)
    }
}
