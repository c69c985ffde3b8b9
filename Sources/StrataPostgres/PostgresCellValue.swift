import Foundation
import PostgresNIO
import StrataCore

/// A PostgreSQL cell as a ``Value`` in SQLite's storage form: integers, doubles, text, blobs; a bool as
/// 0/1, a date as seconds since 1970, a decimal as its canonical text, a uuid as text. Reports display
/// values from this form, so they read the same on both engines.
enum PostgresCellValue {
    static func value(_ cell: PostgresCell, statement: SQLText) throws(PostgresStoreError) -> Value {
        guard cell.bytes != nil else { return .null }
        func decode<T: PostgresDecodable>(_ type: T.Type) throws(PostgresStoreError) -> T { try PostgresSession.decode(cell, as: T.self, statement: statement) }
        switch cell.dataType {
        case .int2: return .integer(Int64(try decode(Int16.self)))
        case .int4: return .integer(Int64(try decode(Int32.self)))
        case .int8: return .integer(try decode(Int64.self))
        case .float4: return .real(Double(try decode(Float.self)))
        case .float8: return .real(try decode(Double.self))
        case .bool: return .integer(try decode(Bool.self) ? 1 : 0)
        case .numeric:
            let text = "\(try decode(Decimal.self))"
            return .text(DecimalText.canonical(text) ?? text)
        case .timestamptz, .timestamp: return .real(try decode(Date.self).timeIntervalSince1970)
        case .bytea: return .blob(Array(try decode(ByteBuffer.self).readableBytesView))
        default: return .text(try decode(String.self))
        }
    }
}
