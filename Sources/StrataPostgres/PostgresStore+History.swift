import Foundation
import StrataCore
import Strata

extension PostgresStore {
    /// The applied steps (creation, migrations) and the hooks recorded in the store, each in time order, as
    /// `Store.history()` returns them on SQLite (text compared byte by byte, as SQLite does).
    ///
    /// Each row comes as `row_to_json`, decoded into the same `Codable` values SQLite's rows become: the
    /// columns have the same names on both engines.
    ///
    /// ```swift
    /// let (migrations, hooks) = try await PostgresStore.withOpen(url) { try await $0.history() }
    /// ```
    /// - Throws: `PostgresStoreError` for the server's errors or a row that does not decode.
    public func history() async throws(PostgresStoreError) -> (migrations: [HistoryEntry], hooks: [HookRecord]) {
        let migrations = try await rows(of: HistoryEntry.self, """
            SELECT row_to_json(h)::text FROM "strata_history" AS h \
            ORDER BY h."started" COLLATE "C", h."finished" COLLATE "C", h."toVersion", h."id"
            """)
        let hooks = try await rows(of: HookRecord.self, """
            SELECT row_to_json(h)::text FROM "strata_hooks" AS h \
            ORDER BY h."finished" COLLATE "C", h."afterVersion", h."id" COLLATE "C"
            """)
        return (migrations, hooks)
    }

    /// Each row of a one-column query of JSON objects, decoded as `T`.
    private func rows<T: Decodable>(of type: T.Type, _ statement: SQLText) async throws(PostgresStoreError) -> [T] {
        var values: [T] = []
        for row in try await session.rows(statement) {
            let json = try PostgresSession.decode(row[0], as: String.self, statement: statement)
            do {
                values.append(try JSONDecoder().decode(T.self, from: Data(json.utf8)))
            } catch {
                throw .server(message: "unreadable row \(json): \(error)", sqlState: nil,
                              statement: statement.rendered(for: .postgresql).sql)
            }
        }
        return values
    }
}
