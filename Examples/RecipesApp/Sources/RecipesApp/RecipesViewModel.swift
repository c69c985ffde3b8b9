import Strata

/// What a SwiftUI view would observe: main-actor state, refreshed from the store whenever a batch request
/// or a hook changes recipes.
@MainActor final class RecipesViewModel {
    private(set) var favorites: [String] = []
    private let store: Store
    /// Subscribed when the view model is made: no change committed after that is missed.
    private let changes: StoreChanges
    /// Called after each refresh (the program waits on it; a SwiftUI view would redraw instead).
    var didRefresh: (() -> Void)?

    init(store: Store) {
        self.store = store
        changes = store.changes()
    }

    func refresh() throws {
        favorites = try store.fetchAll("Recipe", where: "favorite == true", sortedBy: [PropertySort("name")])
            .compactMap { $0.string("name") }
        didRefresh?()
    }

    /// Refreshes after every change to recipes, until the task running it is cancelled.
    func observe() async {
        for await change in changes where change.updatedCounts["Recipe"] != nil || change.deletedCounts["Recipe"] != nil {
            try? refresh()
        }
    }
}
