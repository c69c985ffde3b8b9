import Foundation
import GRDB
import Strata
import Testing

/// The application API end to end, public names only, GRDB imported alongside: migrate on open (onto the
/// app's own `DatabasePool`), read back with `fetch` and with GRDB through the layout lookup (`SQL` literals
/// unqualified), and refresh a main-actor view model from the store's change sequence.
@Suite struct OpenFetchObserveTests {
    @MainActor final class FavoritesModel {
        private(set) var names: [String] = []

        func refresh(from store: Store) throws {
            names = try store.fetchAll("Recipe", where: "favorite == true", sortedBy: [PropertySort("name")]).compactMap { $0.string("name") }
        }
    }

    @Test func migrateOnOpenOntoTheAppsPoolThenFetchAndObserve() async throws {
        try await ConsumerTests.withDirectory { dir in
            let path = dir + "/app.sqlite"
            let models = ProjectSource.directory(ConsumerTests.root + "/models")
            let hooks = ProjectSource.directory(ConsumerTests.root + "/migrations")
            var configuration = Configuration()
            Store.prepare(&configuration)
            let pool = try DatabasePool(path: path, configuration: configuration)

            var options = Store.OpenOptions()
            options.now = Date(timeIntervalSince1970: ConsumerTests.now)
            options.target = 1
            let v1 = try await Store.open(database: pool, models: models, hooks: hooks, options: options)
            #expect(v1.migration?.created == true)
            let recipe = try v1.table(for: "Recipe"), name = try v1.column(for: "Recipe", property: "name")
            let lastUsed = try v1.column(for: "Recipe", property: "lastUsed"), rating = try v1.column(for: "Recipe", property: "rating")
            try await pool.write { db in
                for (pk, title, used) in [(1, "Soup", ConsumerTests.now - 2 * 86_400), (2, "Stew", ConsumerTests.now - 90 * 86_400)] {
                    let insert: SQL = "INSERT INTO \(identifier: recipe) (\"_pk\", \(identifier: name), \(identifier: lastUsed), \(identifier: rating)) VALUES (\(pk), \(title), \(used), 3)"
                    try db.execute(literal: insert)
                }
            }

            options.target = nil
            let store = try await Store.open(database: pool, models: models, hooks: hooks, options: options)
            #expect(store.migration?.toVersion == 4)
            #expect(store.migration?.hooks.map(\.id) == ["purge-abandoned-drafts", "favorite-recent-recipes"])

            let used = try store.fetchAll("Recipe", sortedBy: [PropertySort("lastUsed", ascending: false)]).map { $0.date("lastUsed") }
            #expect(used == [Date(timeIntervalSince1970: ConsumerTests.now - 2 * 86_400), Date(timeIntervalSince1970: ConsumerTests.now - 90 * 86_400)])

            let model = await FavoritesModel()
            try await model.refresh(from: store)
            #expect(await model.names == ["Soup"])

            let changes = store.changes()
            let observer = Task { @MainActor in
                for await change in changes where change.updatedCounts["Recipe"] != nil {
                    try model.refresh(from: store)
                    break
                }
            }
            var request = BatchUpdateRequest(entity: "Recipe", predicate: "name == %@", arguments: [.text("Stew")],
                                             propertiesToUpdate: ["favorite": .literal("true")])
            request.resultType = .updatedObjectIDs
            #expect(try await store.execute(request).count == 1)
            try await observer.value
            #expect(await model.names == ["Soup", "Stew"])

            let favorite = try store.column(for: "Recipe", property: "favorite")
            let count = try await pool.read { db in
                try Int.fetchOne(db, SQLRequest(literal: "SELECT count(*) FROM \(identifier: recipe) WHERE \(identifier: favorite)"))
            }
            #expect(count == 2)
        }
    }
}
