import Foundation
import GRDB
import Strata

/// A launch of the recipes app, twice: last release (model v1) made a store and saved recipes; this release
/// (model v2) migrates it on open, runs its hook, then the user edits and the view model follows.
@main @MainActor enum RecipesApp {
    static func main() async throws {

        let folder = CommandLine.arguments.dropFirst().first ?? NSTemporaryDirectory() + "recipes-app-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/recipes.sqlite"
        try? FileManager.default.removeItem(atPath: path)
        let models = ProjectSource.bundle(.module, subdirectory: "models")
        let hooks = ProjectSource.bundle(.module, subdirectory: "migrations")
        let now = Date(timeIntervalSince1970: 1_717_200_000)   // 2024-06-01: fixed, so every run prints the same

        // Last release: the store at version 1, and three recipes saved through GRDB (the escape hatch).
        var lastRelease = Store.OpenOptions()
        lastRelease.target = 1
        lastRelease.now = now
        let old = try await Store.open(at: path, models: models, hooks: hooks, options: lastRelease)
        print("created: v\(old.migration?.toVersion ?? 0)")
        let table = try old.table(for: "Recipe")
        let name = try old.column(for: "Recipe", property: "name")
        let lastUsed = try old.column(for: "Recipe", property: "lastUsed")
        let rating = try old.column(for: "Recipe", property: "rating")
        try old.write { db in
            for (recipe, daysAgo, stars) in [("Soup", 2.0, 3), ("Stew", 90.0, 4), ("Tart", 10.0, 2)] {
                let used = now.timeIntervalSince1970 - daysAgo * 86_400
                try db.execute(literal: """
                    INSERT INTO \(identifier: table) (\(identifier: name), \(identifier: lastUsed), \(identifier: rating))
                    VALUES (\(recipe), \(used), \(stars))
                    """)
            }
        }

        // This release: migrate on open, from the bundle's resources.
        var options = Store.OpenOptions()
        options.now = now
        let store = try await Store.open(at: path, models: models, hooks: hooks, options: options)
        if let migration = store.migration {
            print("migrated: v\(migration.fromVersion ?? 0) → v\(migration.toVersion ?? 0), hooks: \(migration.hooks.map(\.id))")
        }

        // The view model follows the store's changes on the main actor.
        let viewModel = RecipesViewModel(store: store)
        try viewModel.refresh()
        print("favorites: \(viewModel.favorites)")
        let refreshed = AsyncStream<Void>.makeStream()
        viewModel.didRefresh = { refreshed.continuation.yield() }
        let observing = Task { await viewModel.observe() }

        // The user marks the recipes rated 4 or more, after a batch update rated Stew.
        var rate = BatchUpdateRequest(entity: "Recipe", predicate: "name == %@", arguments: [.text("Stew")],
                                      propertiesToUpdate: ["rating": .literal("5")])
        rate.resultType = .updatedObjectIDs
        let rated = try await store.execute(rate)
        print("rated: \(rated.count)")
        var waits = refreshed.stream.makeAsyncIterator()
        await waits.next()
        let favorite = BatchUpdateRequest(entity: "Recipe", predicate: "rating >= 4", propertiesToUpdate: ["favorite": .literal("true")])
        print("favorited: \(try await store.execute(favorite).count)")
        await waits.next()
        print("favorites: \(viewModel.favorites)")
        observing.cancel()

        // A fetch: every recipe, best rated first.
        for recipe in try store.fetchAll("Recipe", sortedBy: [PropertySort("rating", ascending: false), PropertySort("name")]) {
            print("\(recipe.string("name") ?? "?"): rating \(recipe.int("rating") ?? 0), favorite \(recipe.bool("favorite") ?? false)")
        }

        if CommandLine.arguments.count < 2 { try? FileManager.default.removeItem(atPath: folder) }
    }
}
