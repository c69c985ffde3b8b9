import Foundation
import GRDB

/// A trigger, view or index the user added: saved before a rebuild and re-created after it (SQLite's
/// 12-step procedure, steps 3 and 8-9). Triggers and views are dropped first (a table they name is
/// about to be dropped); an index goes with its table, so only the indexes of dropped tables are made again.
struct UserSchemaObject {
    var type: String
    var name: String
    var sql: String

    /// Saves the user's objects as they would read after the step's renames, then drops the triggers and views.
    ///
    /// A rebuilt table's renamed columns (and the table itself, when it gets a new name) are renamed in place
    /// inside a savepoint first, so that SQLite rewrites the views, triggers and indexes that name them, as an
    /// in-place `RENAME COLUMN` would; the texts are read and the savepoint rolled back. Were they saved as they
    /// are, a view or index naming a renamed column could not be made again, and a trigger `UPDATE OF` it
    /// would never fire. When a rename cannot be made (a name taken, another user object SQLite cannot read),
    /// the texts are saved as they are.
    /// - Parameter managedIndexes: the indexes Strata creates (the step's layouts): never saved, so an
    ///   index the step drops on purpose stays dropped.
    static func saveAndDrop(_ db: Database, step: VersionStep, managedIndexes: Set<String>) throws -> [UserSchemaObject] {
        var saved: [UserSchemaObject] = []
        do {
            try db.inSavepoint {
                for plan in step.tablePlans.tables where plan.sqliteKind == .rebuild {
                    try renameInPlace(plan, db: db)
                }
                saved = try fetch(db, managedIndexes: managedIndexes)
                return .rollback
            }
        } catch {
            saved = try fetch(db, managedIndexes: managedIndexes)
        }
        for o in saved where o.type == "trigger" { try db.execute(o.drop) }
        for o in saved.reversed() where o.type == "view" { try db.execute(o.drop) }
        return saved
    }

    /// Gives a rebuilt table's source its destination's column and table names, where they are free.
    private static func renameInPlace(_ plan: TablePlan, db: Database) throws {
        guard let source = plan.sourceTable, plan.parts.isEmpty else { return }
        var columns = Set(try Row.fetchAll(db, "SELECT \"name\" FROM pragma_table_info(\(source))").map { $0[0] as String })
        for (from, to) in plan.carried.sorted(by: { $0.key < $1.key }) where from != to && !columns.contains(to) {
            try db.execute("ALTER TABLE \(TableName(source)) RENAME COLUMN \(ColumnName(from)) TO \(ColumnName(to))")
            columns.remove(from)
            columns.insert(to)
        }
        let name = plan.table.name
        if source != name, try !db.tableExists(name) {
            try db.execute("ALTER TABLE \(TableName(source)) RENAME TO \(TableName(name))")
        }
    }

    private static func fetch(_ db: Database, managedIndexes: Set<String>) throws -> [UserSchemaObject] {
        try Row.fetchAll(db, sql: """
            SELECT "type", "name", "sql" FROM "sqlite_master"
            WHERE "type" IN ('trigger', 'view', 'index') AND "sql" IS NOT NULL AND "name" NOT LIKE 'sqlite\\_%' ESCAPE '\\'
            ORDER BY "rowid"
            """).map { UserSchemaObject(type: $0["type"], name: $0["name"], sql: $0["sql"]) }
            .filter { $0.type != "index" || !managedIndexes.contains($0.name) }
    }

    /// Re-creates views first (triggers may use them), then the indexes whose table was dropped, then
    /// triggers.
    /// - Returns: warnings for those that no longer apply (they name something the step removed).
    /// - Throws: `MigrationError.userIndexViolated` when a unique index of the user's no longer holds for
    ///   the rows the step wrote: the step rolls back rather than lose the user's constraint.
    static func restore(_ objects: [UserSchemaObject], step: VersionStep, db: Database) throws -> [String] {
        var warnings: [String] = []
        let ordered = ["view", "index", "trigger"].flatMap { type in objects.filter { $0.type == type } }
        for o in ordered {
            if o.type == "index", try exists(o, db: db) { continue }
            do {
                try db.execute(sql: o.sql)
                if o.type == "view" { _ = try Row.fetchOne(db, "SELECT * FROM \(TableName(o.name)) LIMIT 0") }
            } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                throw MigrationError.userIndexViolated(fromVersion: step.fromVersion, toVersion: step.toVersion, index: o.name,
                                                       detail: error.message ?? "\(error)")
            } catch {
                try? db.execute(o.drop)
                warnings.append("\(o.type) \(o.name) was not re-created: \((error as? DatabaseError)?.message ?? "\(error)")")
            }
        }
        return warnings
    }

    private static func exists(_ o: UserSchemaObject, db: Database) throws -> Bool {
        try Bool.fetchOne(db, "SELECT EXISTS (SELECT 1 FROM \"sqlite_master\" WHERE \"type\" = \(o.type) AND \"name\" = \(o.name))") ?? false
    }

    /// `DROP TRIGGER|VIEW|INDEX IF EXISTS "name"`
    var drop: SQLText {
        "DROP \(keyword: type == "view" ? "VIEW" : type == "index" ? "INDEX" : "TRIGGER") IF EXISTS \(IndexName(name))"
    }
}
