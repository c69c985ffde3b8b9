import Foundation
import GRDB
#if canImport(GRDBSQLite)
import GRDBSQLite
#else
import SQLite3
#endif

/// A SQL function Strata registers on its connections (`strata_*`), reading its text arguments and
/// returning its text result whole, a NUL (U+0000) included.
///
/// GRDB's `DatabaseFunction` hands a text argument over through `String(cString:)` and returns a text with
/// length -1, both of which stop at the first NUL: `strata_contains('a' || char(0) || 'b', 'b')` was 0.
/// Here a text argument is its `sqlite3_value_bytes` bytes from `sqlite3_value_text`, decoded as UTF-8, and a
/// text result is given with its byte length. The function bodies are the same closures over
/// `DatabaseValue`s as GRDB's.
///
/// ```swift
/// let contains = StrataSQLFunction("strata_contains", argumentCount: 2, pure: true) { values in … }
/// contains.install(in: db)
/// ```
struct StrataSQLFunction: Sendable {
    typealias Body = @Sendable ([DatabaseValue]) throws -> (any DatabaseValueConvertible)?

    let name: String
    let argumentCount: Int
    /// Deterministic (`SQLITE_DETERMINISTIC`): the same arguments give the same result within a statement.
    let pure: Bool
    let body: Body

    init(_ name: String, argumentCount: Int, pure: Bool, function: @escaping Body) {
        self.name = name
        self.argumentCount = argumentCount
        self.pure = pure
        self.body = function
    }

    /// The closure, retained by SQLite as the function's user data and released when it is replaced or the
    /// connection closes.
    private final class Definition {
        let body: Body
        init(_ body: @escaping Body) { self.body = body }
    }

    /// Registers the function on `db`'s connection (`sqlite3_create_function_v2`).
    func install(in db: Database) {
        let definition = Unmanaged.passRetained(Definition(body)).toOpaque()
        let code = sqlite3_create_function_v2(
            db.sqliteConnection, name, CInt(argumentCount), SQLITE_UTF8 | (pure ? SQLITE_DETERMINISTIC : 0), definition,
            { context, argc, argv in
                let definition = Unmanaged<Definition>.fromOpaque(sqlite3_user_data(context)).takeUnretainedValue()
                let arguments = (0..<Int(argc)).map { StrataSQLFunction.value(argv.unsafelyUnwrapped[$0]) }
                do {
                    StrataSQLFunction.result(try definition.body(arguments)?.databaseValue ?? .null, in: context)
                } catch let error as DatabaseError {
                    sqlite3_result_error(context, error.message ?? "\(error)", -1)
                    sqlite3_result_error_code(context, error.extendedResultCode.rawValue)
                } catch {
                    sqlite3_result_error(context, "\(error)", -1)
                }
            },
            nil, nil,
            { definition in Unmanaged<AnyObject>.fromOpaque(definition!).release() })
        // Only a misuse (a bad name or argument count) fails here: a programmer's mistake.
        precondition(code == SQLITE_OK, "cannot register \(name): \(db.lastErrorMessage ?? "code \(code)")")
    }

    /// SQLite's destructor value telling it to copy the bytes now.
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    /// An argument as a `DatabaseValue`, a text whole: `sqlite3_value_bytes` after `sqlite3_value_text`
    /// (the order SQLite documents), not up to its first NUL.
    static func value(_ value: OpaquePointer?) -> DatabaseValue {
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER:
            return sqlite3_value_int64(value).databaseValue
        case SQLITE_FLOAT:
            return sqlite3_value_double(value).databaseValue
        case SQLITE_TEXT:
            guard let text = sqlite3_value_text(value) else { return "".databaseValue }
            let count = Int(sqlite3_value_bytes(value))
            return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self).databaseValue
        case SQLITE_BLOB:
            guard let bytes = sqlite3_value_blob(value) else { return Data().databaseValue }
            return Data(bytes: bytes, count: Int(sqlite3_value_bytes(value))).databaseValue
        default:
            return .null
        }
    }

    /// The function's result, a text with its byte length.
    static func result(_ value: DatabaseValue, in context: OpaquePointer?) {
        switch value.storage {
        case .null:
            sqlite3_result_null(context)
        case .int64(let i):
            sqlite3_result_int64(context, i)
        case .double(let d):
            sqlite3_result_double(context, d)
        case .string(var s):
            s.withUTF8 { bytes in
                // An empty text has no buffer; a null pointer would make the result NULL.
                guard let base = bytes.baseAddress else { return sqlite3_result_text(context, "", 0, transient) }
                base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    sqlite3_result_text64(context, $0, sqlite3_uint64(bytes.count), transient, UInt8(SQLITE_UTF8))
                }
            }
        case .blob(let data):
            data.withUnsafeBytes { bytes in
                guard let base = bytes.baseAddress else { return sqlite3_result_zeroblob(context, 0) }
                sqlite3_result_blob64(context, base, sqlite3_uint64(bytes.count), transient)
            }
        }
    }
}
