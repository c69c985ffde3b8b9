import Foundation
import GRDB

/// A trigger or view the user added: dropped before a rebuild and re-created after it (SQLite's
/// 12-step procedure, steps 3 and 8-9).
struct UserSchemaObject {
    var type: String
    var name: String
    var sql: String

    static func saveAndDrop(_ db: Database) throws -> [UserSchemaObject] {
        let objects = try Row.fetchAll(db, sql: """
            SELECT "type", "name", "sql" FROM "sqlite_master"
            WHERE "type" IN ('trigger', 'view') AND "sql" IS NOT NULL AND "name" NOT LIKE 'sqlite\\_%' ESCAPE '\\'
            ORDER BY "rowid"
            """).map { UserSchemaObject(type: $0["type"], name: $0["name"], sql: $0["sql"]) }
        for o in objects where o.type == "trigger" { try db.execute(o.drop) }
        for o in objects.reversed() where o.type == "view" { try db.execute(o.drop) }
        return objects
    }

    /// Re-creates views first (triggers may use them), then triggers; returns warnings for those that
    /// no longer apply (they referenced something the step removed).
    static func restore(_ objects: [UserSchemaObject], db: Database) -> [String] {
        var warnings: [String] = []
        for o in objects.filter({ $0.type == "view" }) + objects.filter({ $0.type == "trigger" }) {
            do {
                try db.execute(sql: o.sql)
                if o.type == "view" { _ = try Row.fetchOne(db, "SELECT * FROM \(TableName(o.name)) LIMIT 0") }
            } catch {
                try? db.execute(o.drop)
                warnings.append("\(o.type) \(o.name) was not re-created: \((error as? DatabaseError)?.message ?? "\(error)")")
            }
        }
        return warnings
    }

    /// `DROP TRIGGER|VIEW IF EXISTS "name"`
    var drop: SQLText { "DROP \(keyword: type == "view" ? "VIEW" : "TRIGGER") IF EXISTS \(IndexName(name))" }
}
