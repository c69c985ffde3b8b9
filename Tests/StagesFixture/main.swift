import Foundation
#if canImport(GRDBSQLite)
import GRDBSQLite
#else
import SQLite3
#endif
import Strata
import StrataCLI

// An application's own `strata`, for the end-to-end tests of Swift stages (StagesCLITests): the stock CLI with
// the stages below registered. `FIXTURE_STAGES` (comma-separated) adds registrations that the tests need to
// see refused (a duplicate, a revision mismatch, an undeclared stage) or that misbehave (one that throws), or
// leaves copy-codes out (`no-copy-codes`), or reads SQLite's memory count (`memory-count`).
let environment = ProcessInfo.processInfo.environment
let extra = Set((environment["FIXTURE_STAGES"] ?? "").split(separator: ",").map(String.init))
let pause = environment["FIXTURE_PAUSE"].flatMap(Double.init)

struct Refusal: Error, CustomStringConvertible {
    var description: String { "the ledger service is unreachable" }
}

var stages = Stages()
// before: 2: reads `legacyCode`, which the v1 → v2 step drops, and keeps it in `note`.
if !extra.contains("no-copy-codes") { stages.register("copy-codes", revision: "1") { ctx in
    let item = try ctx.table("Item"), code = try ctx.column("legacyCode", of: "Item"), note = try ctx.column("note", of: "Item")
    try ctx.execute("UPDATE \(item) SET \(note) = \(code) WHERE \(code) IS NOT NULL")
} }
// after: 2: appends a mark to every note, so that running twice would show (`+` then `++`).
stages.register("mark-notes", revision: extra.contains("mark-notes-r2") ? "2" : "1") { ctx in
    let mark = extra.contains("longer") ? String(repeating: "!", count: 45) : extra.contains("long") ? String(repeating: "!", count: 30) : "+"
    try ctx.execute(sql: #"UPDATE "Item" SET "note" = coalesce("note", '') || ?"#, arguments: [mark])
    // `memory-count`: what SQLite's process-wide memory count reads mid-step, into item30's note (0 when
    // `strata` turned the count off before its first connection, as StrataCommand.main does).
    if extra.contains("memory-count") {
        try ctx.execute(sql: #"UPDATE "Item" SET "note" = ? WHERE "_pk" = 30"#, arguments: ["memory \(sqlite3_memory_used())"])
    }
    if let pause { Thread.sleep(forTimeInterval: pause) }   // long enough to be killed mid-step
}
if extra.contains("boom") {
    stages.register("boom", revision: "1") { ctx in
        try ctx.execute(sql: #"DELETE FROM "Item""#)
        throw Refusal()
    }
}
// after: 2 (`batch`): batch requests (their rows known one by one, audited as touched rows), then fetches.
if extra.contains("batch") {
    stages.register("tidy-items", revision: "1") { ctx in
        try ctx.batchUpdate(BatchUpdateRequest(entity: "Item", predicate: "note != nil", propertiesToUpdate: ["count": .literal("7")]))
        try ctx.batchDelete(BatchDeleteRequest(entity: "Item", predicate: "name == 'item30'"))
        // Fetches: ordered columns (a duplicate name kept), bound values; what they read is written to item1's note.
        let n = try ctx.fetchOne(sql: #"SELECT count(*) AS "n", 'dup' AS "n" FROM "Item" WHERE "count" = ?"#, arguments: [7])
        let names = try ctx.fetchAll(sql: #"SELECT "name" FROM "Item" WHERE "_pk" <= 2 ORDER BY "_pk""#).map { $0["name"] as String? ?? "-" }
        try ctx.execute(sql: #"UPDATE "Item" SET "note" = ? WHERE "_pk" = 1"#,
                        arguments: ["\(n?[0] as Int? ?? -1) \(n?[1] as String? ?? "") \(names.joined(separator: ","))"])
    }
}
// Statements a stage may not run: a session setting (`sneaky`), or one the engine rejects (`broken`).
if extra.contains("sneaky") || extra.contains("broken") {
    stages.register("sneaky", revision: "1") { ctx in
        try ctx.execute(sql: #"UPDATE "Item" SET "note" = 'x?' WHERE "name" = ?"#, arguments: ["item1"])
        if extra.contains("broken") { try ctx.execute(sql: #"UPDATE "Item" SET "nope" = 1"#) }
        try ctx.execute(sql: ctx.engine == .postgresql ? "SET search_path TO public" : "PRAGMA foreign_keys = ON")
    }
}
// after: 2 (`named`, `named-missing`): GRDB's named arguments, one name used twice, others in quotes, comments
// and (on PostgreSQL) a dollar quote and a cast; then a fetch with one, and (`named-missing`) a name not given.
if extra.contains("named") || extra.contains("named-missing") {
    stages.register("named-args", revision: "1") { ctx in
        let postgres = ctx.engine == .postgresql
        try ctx.execute(sql: #"UPDATE "Item" SET "note" = :label || ':label' || "# + (postgres ? "$q$ @label$q$" : "' @label'")
                        + #" || @label, "count" = "# + (postgres ? "$n::integer" : "$n") + " /* :n */ WHERE \"_pk\" <= $n -- :nope\n",
                        arguments: ["label": "L", "n": 3, "unused": 0])
        let n = try ctx.fetchOne(sql: #"SELECT count(*) FROM "Item" WHERE "count" = :n AND "note" LIKE @pattern"#,
                                 arguments: ["n": 3, "pattern": "L:label%"])
        try ctx.execute(sql: #"UPDATE "Item" SET "note" = :found WHERE "_pk" = 30"#, arguments: ["found": "\(n?[0] as Int? ?? -1) found"])
        if extra.contains("named-missing") { try ctx.execute(sql: #"UPDATE "Item" SET "note" = :nope"#, arguments: ["label": "L"]) }
    }
}
if extra.contains("duplicate") { stages.register("copy-codes", revision: "1") { _ in } }
if extra.contains("undeclared") { stages.register("ghost", revision: "1") { _ in } }
await StrataCommand.main(stages: stages)
