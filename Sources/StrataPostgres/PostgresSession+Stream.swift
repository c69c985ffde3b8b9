import Foundation
import PostgresNIO
import StrataCore

extension PostgresSession {
    /// Runs one query and hands its rows to `body` one at a time as the server sends them (PostgresNIO's
    /// back-pressured row sequence): memory flat in the number of rows.
    func stream(_ rendering: PostgresRenderer.Rendering, _ body: (PostgresRandomAccessRow) throws -> Void) async throws {
        var binds = PostgresBindings(capacity: rendering.arguments.count)
        for argument in rendering.arguments {
            switch argument {
            case .null: binds.appendNull()
            case .integer(let i): binds.append(i)
            case .real(let d): binds.append(d)
            case .text(let s): binds.append(s)
            case .blob(let b): binds.append(ByteBuffer(bytes: b))
            }
        }
        do {
            let rows = try await connection.query(PostgresQuery(unsafeSQL: rendering.sql, binds: binds), logger: logger)
            for try await row in rows { try body(PostgresRandomAccessRow(row)) }
        } catch let error as PostgresStoreError {
            throw error
        } catch let error as PSQLError {
            throw PostgresStoreError.server(message: Self.message(of: error), sqlState: error.serverInfo?[.sqlState],
                                            statement: rendering.sql)
        }
    }
}
