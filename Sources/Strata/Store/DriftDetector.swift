import GRDB

/// Compares a store with what its recorded version should be: the recorded hashes against the
/// model file of that version, and the live SQLite schema of every managed table against the
/// recorded layout. User tables, views and triggers are not drift; DEFAULT clauses are ignored.
package enum DriftDetector {
    /// - Parameters:
    ///   - metadata: the store's recorded metadata.
    ///   - model: the model file of the recorded version, or nil when there is none.
    /// - Returns: the differences (empty when the store is consistent).
    static func check(_ db: Database, metadata: StoreMetadata, model: Model?) throws -> DriftReport {
        var items = model.map { hashItems(metadata, model: $0) }
            ?? [.init(.missingModel, expected: "a model file for version \(metadata.version)", found: "none")]
        for table in metadata.layout.tables { items += try compare(db, table) }
        return DriftReport(storeVersion: metadata.version, items: items)
    }

    static func compare(_ db: Database, _ table: TableSpec) throws -> [DriftReport.Item] {
        guard try db.tableExists(table.name) else {
            return [.init(.missingTable, table: table.name, expected: "table", found: "nothing")]
        }
        var items: [DriftReport.Item] = []
        let live = try Row.fetchAll(db, "PRAGMA table_info(\(TableName(table.name)))")
        var liveColumns: [String: Row] = [:]
        for row in live { liveColumns[(row["name"] as String).lowercased()] = row }
        for c in table.columns {
            guard let row = liveColumns.removeValue(forKey: c.name.lowercased()) else {
                items.append(.init(.missingColumn, table: table.name, column: c.name, expected: c.sqlType, found: "no column"))
                continue
            }
            let type = (row["type"] as String).uppercased()
            if type != c.sqlType { items.append(.init(.columnType, table: table.name, column: c.name, expected: c.sqlType, found: type.isEmpty ? "no type" : type)) }
            let notNull = (row["notnull"] as Int) != 0
            if notNull != c.isNotNull {
                items.append(.init(.columnConstraint, table: table.name, column: c.name, expected: c.isNotNull ? "NOT NULL" : "nullable", found: notNull ? "NOT NULL" : "nullable"))
            }
            let isPK = (row["pk"] as Int) != 0
            let expectedPK = c.isPrimaryKey || table.primaryKey.contains(c.name)
            if isPK != expectedPK {
                items.append(.init(.columnConstraint, table: table.name, column: c.name, expected: expectedPK ? "PRIMARY KEY" : "not in the primary key", found: isPK ? "PRIMARY KEY" : "not in the primary key"))
            }
        }
        for row in live where liveColumns[(row["name"] as String).lowercased()] != nil {
            items.append(.init(.extraColumn, table: table.name, column: row["name"], expected: "no column", found: (row["type"] as String).isEmpty ? "a column" : row["type"]))
        }
        // Foreign keys.
        var liveFKs: [String: String] = [:]
        for row in try Row.fetchAll(db, "PRAGMA foreign_key_list(\(TableName(table.name)))") {
            let from: String = row["from"], parent: String = row["table"], onDelete: String = row["on_delete"]
            liveFKs[from.lowercased()] = "REFERENCES \(parent) ON DELETE \(onDelete)"
        }
        for c in table.columns {
            let expected = c.references.map { "REFERENCES \($0) ON DELETE \(c.onDelete ?? "NO ACTION")" }
            let found = liveFKs.removeValue(forKey: c.name.lowercased())
            if expected?.lowercased() != found?.lowercased() {
                items.append(.init(.foreignKey, table: table.name, column: c.name, expected: expected ?? "no foreign key", found: found ?? "no foreign key"))
            }
        }
        for (column, fk) in liveFKs.sorted(by: { $0.key < $1.key }) {
            items.append(.init(.foreignKey, table: table.name, column: column, expected: "no foreign key", found: fk))
        }
        // Managed indexes (names starting with strata_).
        var liveIndexes: [String: (unique: Bool, columns: [String])] = [:]
        for row in try Row.fetchAll(db, "PRAGMA index_list(\(TableName(table.name)))") {
            let name: String = row["name"]
            guard name.lowercased().hasPrefix("strata_") else { continue }
            let columns = try Row.fetchAll(db, "PRAGMA index_info(\(IndexName(name)))").map { $0["name"] as String? ?? "?" }
            liveIndexes[name.lowercased()] = ((row["unique"] as Int) != 0, columns)
        }
        for index in table.indexes {
            let describe = { (unique: Bool, columns: [String]) in "\(unique ? "UNIQUE " : "")(\(columns.joined(separator: ", ")))" }
            guard let found = liveIndexes.removeValue(forKey: index.name.lowercased()) else {
                items.append(.init(.missingIndex, table: table.name, column: index.name, expected: describe(index.isUnique, index.columns), found: "no index"))
                continue
            }
            if found.unique != index.isUnique || found.columns.map({ $0.lowercased() }) != index.columns.map({ $0.lowercased() }) {
                items.append(.init(.indexDefinition, table: table.name, column: index.name, expected: describe(index.isUnique, index.columns), found: describe(found.unique, found.columns)))
            }
        }
        for (name, found) in liveIndexes.sorted(by: { $0.key < $1.key }) {
            items.append(.init(.extraIndex, table: table.name, column: name, expected: "no index", found: "\(found.unique ? "UNIQUE " : "")(\(found.columns.joined(separator: ", ")))"))
        }
        return items
    }

    /// The recorded entity and model hashes against `model`'s (both engines).
    package static func hashItems(_ metadata: StoreMetadata, model: Model) -> [DriftReport.Item] {
        var items: [DriftReport.Item] = []
        let hashes = VersionHash.entityHashes(of: model)
        for name in Set(hashes.keys).union(metadata.entityHashes.keys).sorted() {
            let expected = metadata.entityHashes[name], found = hashes[name]
            if expected != found {
                items.append(.init(.entityHash, table: name, expected: expected.map { "recorded hash \($0.prefix(12))…" } ?? "no entity \(name) (recorded)",
                                   found: found.map { "\(model.file) gives \($0.prefix(12))…" } ?? "no entity \(name) in \(model.file)"))
            }
        }
        let modelHash = VersionHash.modelHash(fromEntityHashes: hashes)
        if items.isEmpty, modelHash != metadata.modelHash {
            items.append(.init(.modelHash, expected: "recorded model hash \(metadata.modelHash.prefix(12))…", found: "\(modelHash.prefix(12))…"))
        }
        return items
    }
}
