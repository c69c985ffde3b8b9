import Foundation
import GRDB
@testable import Strata
import StrataTestSupport

/// Fresh temporary stores and directories for tests.
enum TestStore {
    /// A new empty temporary directory.
    static func directory() -> String {
        Temporary.directory("store")
    }

    /// A store created from one model file's YAML, in a fresh temporary directory.
    static func make(yaml: String, file: String = "model.yaml") throws -> (store: Store, model: Model, layout: StoreLayout) {
        let model = try ModelLoader.load(yaml: yaml, file: file)
        let store = try StoreCreator.create(at: directory() + "/store.sqlite", model: model)
        return (store, model, try store.metadata().layout)
    }

    /// The directory holding the bundled example (the package root's `models/` and `migrations/`).
    static var packageRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().path
    }

    /// `sql` of every table and index in sqlite_master except SQLite's and Strata's own, in name order.
    static func schema(_ store: Store) throws -> [String] {
        try store.queue.read { db in
            try String.fetchAll(db, sql: """
                SELECT sql FROM sqlite_master
                WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' AND tbl_name NOT LIKE 'strata_%'
                ORDER BY type DESC, name
                """)
        }
    }
}
