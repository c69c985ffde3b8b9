import Foundation
import GRDB

/// A half-open range of `_pk` values, `lower < _pk <= upper`, as bound to `"_pk" > ? AND "_pk" <= ?`.
struct PKRange: Sendable, Hashable, CustomStringConvertible {
    public var lower: Int64
    public var upper: Int64
    public init(lower: Int64, upper: Int64) { self.lower = lower; self.upper = upper }
    public var description: String { "(\(lower), \(upper)]" }
}

/// Runs long copies and scans of a Strata table in `_pk` chunks, so that progress counts real rows
/// (SPEC §10 "Progress") and no single statement has to walk the whole table at once.
///
/// Chunks hold `chunkSize` rows each (boundaries found on the `_pk` b-tree, so gaps left by deletes
/// do not make chunks empty). Run it inside the step's transaction: the chunks then see one state.
/// ```swift
/// let copied = try PKRanges.execute(db, table: "Recipe", sql: """
///     INSERT INTO "_new_Recipe" ("_pk", "name") SELECT "_pk", "name" FROM "Recipe" WHERE "_pk" > ? AND "_pk" <= ?
///     """, progress: ProgressCounter(label: "copying Recipe", total: nil, sink: sink))
/// ```
enum PKRanges {
    /// The `_pk` ranges of `table`, each covering at most `chunkSize` rows, in ascending order.
    /// - Throws: `DatabaseError` from SQLite.
    static func ranges(_ db: Database, table: String, chunkSize: Int = 10_000) throws -> [PKRange] {
        precondition(chunkSize > 0, "chunkSize must be positive")
        let quoted = SQLIdentifier.quote(table)
        guard let bounds = try Row.fetchOne(db, sql: "SELECT min(\"_pk\") AS lo, max(\"_pk\") AS hi FROM \(quoted)"),
              let min: Int64 = bounds["lo"], let max: Int64 = bounds["hi"] else { return [] }
        let next = try db.makeStatement(sql: "SELECT \"_pk\" FROM \(quoted) WHERE \"_pk\" > ? ORDER BY \"_pk\" LIMIT 1 OFFSET ?")
        var result: [PKRange] = []
        var lower = min - 1
        while lower < max {
            let upper = try Int64.fetchOne(next, arguments: [lower, chunkSize - 1]) ?? max
            result.append(PKRange(lower: lower, upper: upper))
            lower = upper
        }
        return result
    }

    /// Calls `body` once per chunk of `table`; `body` returns the rows it handled, which advance `progress`
    /// (finished when this returns or throws).
    /// - Parameters:
    ///   - total: the row count for the progress total; counted with `count(*)` when nil and a progress is given.
    /// - Returns: the sum of `body`'s counts.
    /// - Throws: what `body` or SQLite throws (the caller's transaction then rolls back).
    @discardableResult
    static func forEach(_ db: Database, table: String, chunkSize: Int = 10_000, total: Int? = nil,
                        progress: ProgressCounter? = nil, _ body: (PKRange) throws -> Int) throws -> Int {
        if let progress, progress.current.total == nil {
            progress.setTotal(try total ?? Int.fetchOne(db, sql: "SELECT count(*) FROM \(SQLIdentifier.quote(table))") ?? 0)
        }
        defer { progress?.finish() }
        var sum = 0
        for range in try ranges(db, table: table, chunkSize: chunkSize) {
            let n = try body(range)
            sum += n
            progress?.advance(by: n)
        }
        return sum
    }

    /// Executes `sql` once per chunk; its last two placeholders take the chunk's `(lower, upper]`
    /// (write it as `… WHERE "_pk" > ? AND "_pk" <= ?`), after `arguments`.
    /// - Returns: the rows changed, summed over the chunks (SQLite's `changes()`).
    /// - Throws: `DatabaseError` from SQLite (e.g. `SQLITE_FULL`; map it with `PipelineError.mapWriteError`).
    @discardableResult
    static func execute(_ db: Database, table: String, sql: String, arguments: StatementArguments = [],
                        chunkSize: Int = 10_000, total: Int? = nil, progress: ProgressCounter? = nil) throws -> Int {
        let statement = try db.makeStatement(sql: sql)
        return try forEach(db, table: table, chunkSize: chunkSize, total: total, progress: progress) { range in
            try statement.execute(arguments: arguments + [range.lower, range.upper])
            return db.changesCount
        }
    }
}
