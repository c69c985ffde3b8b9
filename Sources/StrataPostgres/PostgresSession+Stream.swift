import Foundation
import PostgresNIO
import StrataCore

extension PostgresSession {
    /// Runs one query and hands its rows to `body` one at a time as the server sends them (PostgresNIO's
    /// back-pressured row sequence): memory flat in the number of rows.
    func stream(_ rendering: PostgresRenderer.Rendering, _ body: (PostgresRandomAccessRow) throws -> Void) async throws {
        let binds = Self.bindings(rendering.arguments)
        do {
            let rows = try await connection.query(PostgresQuery(unsafeSQL: rendering.sql, binds: binds), logger: logger)
            for try await row in rows { try body(PostgresRandomAccessRow(row)) }
        } catch let error as PostgresStoreError {
            throw error
        } catch let error as PSQLError {
            throw PostgresStoreError.server(message: Self.message(of: error), sqlState: error.serverInfo?[.sqlState],
                                            statement: rendering.sql, constraint: error.serverInfo?[.constraintName])
        }
    }
}
