import Foundation
import GRDB

/// A trigger, view or index the user added: saved before a rebuild and re-created after it (SQLite's
/// 12-step procedure, steps 3 and 8-9). Triggers and views are dropped first (a table they name is
/// about to be dropped); an index goes with its table, so only the indexes of dropped tables are made again.
struct UserSchemaObject {
    var type: String
    var name: String
    var sql: String

    /// - Parameter managedIndexes: the indexes Strata creates (the step's layouts): never saved, so an
    ///   index the step drops on purpose stays dropped.
    static func saveAndDrop(_ db: Database, managedIndexes: Set<String>) throws -> [UserSchemaObject] {
        let objects = try Row.fetchAll(db, sql: """
            SELECT "type", "name", "sql" FROM "sqlite_master"
            WHERE "type" IN ('trigger', 'view', 'index') AND "sql" IS NOT NULL AND "name" NOT LIKE 'sqlite\\_%' ESCAPE '\\'
            ORDER BY "rowid"
            """).map { UserSchemaObject(type: $0["type"], name: $0["name"], sql: $0["sql"]) }
            .filter { $0.type != "index" || !managedIndexes.contains($0.name) }
        for o in objects where o.type == "trigger" { try db.execute(o.drop) }
        for o in objects.reversed() where o.type == "view" { try db.execute(o.drop) }
        return objects
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
