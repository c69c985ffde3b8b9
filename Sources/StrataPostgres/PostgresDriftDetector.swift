import StrataCore
import Strata

/// Compares a PostgreSQL store with what its recorded version should be (SPEC §14.2, as `DriftDetector` on
/// SQLite): the recorded hashes against the model file of that version, and the live catalog of every managed
/// table against the layout as this engine creates it: native column types, NOT NULL, the identity key, the
/// primary key, foreign keys (name, target, `ON DELETE`, `DEFERRABLE INITIALLY IMMEDIATE`) and Strata's
/// `strata_` indexes. User tables, views, triggers, other indexes and DEFAULTs are not drift. `compare` is pure.
enum PostgresDriftDetector {
    /// The differences between the store and its recorded version (empty when it is consistent).
    static func check(_ store: PostgresStore, metadata: StoreMetadata, model: Model?) async throws -> DriftReport {
        let catalog = try await PostgresCatalog.read(store.session, schema: store.url.schema)
        var items = model.map { DriftDetector.hashItems(metadata, model: $0) }
            ?? [.init(.missingModel, expected: "a model file for version \(metadata.version)", found: "none")]
        if let model { items += compare(catalog, layout: metadata.layout, model: model) }
        return DriftReport(storeVersion: metadata.version, items: items)
    }

    /// Every difference between the live `catalog` and `layout` (of `model`), table by table in layout order.
    static func compare(_ catalog: PostgresCatalog, layout: StoreLayout, model: Model) -> [DriftReport.Item] {
        let types = PostgresTypes.attributeTypes(layout, model: model)
        return layout.tables.flatMap { table in
            guard let live = catalog.tables[table.name] else {
                return [DriftReport.Item(.missingTable, table: table.name, expected: "table", found: "nothing")]
            }
            return compare(live, table, types: PostgresTypes.columnTypes(of: table, attributeTypes: types))
        }
    }

    static func compare(_ live: PostgresCatalog.Table, _ table: TableSpec, types: [String: String]) -> [DriftReport.Item] {
        var items: [DriftReport.Item] = []
        var columns = Dictionary(live.columns.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let keyColumns = Set(table.columns.filter(\.isPrimaryKey).map(\.name) + table.primaryKey)
        for c in table.columns {
            guard let found = columns.removeValue(forKey: c.name) else {
                items.append(.init(.missingColumn, table: table.name, column: c.name, expected: formatType(types[c.name]!), found: "no column"))
                continue
            }
            let type = formatType(types[c.name]!)
            if found.type != type { items.append(.init(.columnType, table: table.name, column: c.name, expected: type, found: found.type)) }
            let notNull = c.isNotNull || keyColumns.contains(c.name)
            if found.notNull != notNull {
                items.append(.init(.columnConstraint, table: table.name, column: c.name, expected: notNull ? "NOT NULL" : "nullable",
                                   found: found.notNull ? "NOT NULL" : "nullable"))
            }
            let identity = c.isPrimaryKey ? "a" : ""
            if found.identity != identity {
                items.append(.init(.columnConstraint, table: table.name, column: c.name, expected: describeIdentity(identity),
                                   found: describeIdentity(found.identity)))
            }
            if keyColumns.contains(c.name) != live.primaryKey.contains(c.name) {
                let inKey = live.primaryKey.contains(c.name)
                items.append(.init(.columnConstraint, table: table.name, column: c.name,
                                   expected: inKey ? "not in the primary key" : "PRIMARY KEY", found: inKey ? "PRIMARY KEY" : "not in the primary key"))
            }
        }
        for c in live.columns where columns[c.name] != nil {
            items.append(.init(.extraColumn, table: table.name, column: c.name, expected: "no column", found: c.type))
        }
        items += compareForeignKeys(live, table)
        // Strata's indexes (names starting with strata_); the others are the user's.
        var indexes = Dictionary(live.indexes.filter { $0.name.hasPrefix("strata_") }.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for index in table.indexes {
            let expected = describe(unique: index.isUnique, index.columns)
            guard let found = indexes.removeValue(forKey: index.name) else {
                items.append(.init(.missingIndex, table: table.name, column: index.name, expected: expected, found: "no index"))
                continue
            }
            if found.isUnique != index.isUnique || found.columns != index.columns {
                items.append(.init(.indexDefinition, table: table.name, column: index.name, expected: expected,
                                   found: describe(unique: found.isUnique, found.columns)))
            }
        }
        for (name, found) in indexes.sorted(by: { $0.key < $1.key }) {
            items.append(.init(.extraIndex, table: table.name, column: name, expected: "no index", found: describe(unique: found.isUnique, found.columns)))
        }
        return items
    }

    /// Each link column's foreign key as `PostgresSchemaSQL.addForeignKey` creates it, against the live ones.
    static func compareForeignKeys(_ live: PostgresCatalog.Table, _ table: TableSpec) -> [DriftReport.Item] {
        var items: [DriftReport.Item] = []
        var foreignKeys: [String: PostgresCatalog.ForeignKey] = [:]
        var composite: [PostgresCatalog.ForeignKey] = []
        for key in live.foreignKeys {
            if key.columns.count == 1 { foreignKeys[key.columns[0]] = key } else { composite.append(key) }
        }
        for c in table.columns {
            let expected = c.references.map {
                describe(PostgresCatalog.ForeignKey(name: PostgresLayout.foreignKeyName(table: table.name, column: c.name), columns: [c.name],
                                                    target: $0, targetColumns: ["_pk"], onDelete: deleteCode(c.onDelete),
                                                    deferrable: true, initiallyDeferred: false))
            }
            let found = foreignKeys.removeValue(forKey: c.name).map(describe)
            if expected != found {
                items.append(.init(.foreignKey, table: table.name, column: c.name, expected: expected ?? "no foreign key", found: found ?? "no foreign key"))
            }
        }
        for key in foreignKeys.values.sorted(by: { $0.name < $1.name }) + composite {
            items.append(.init(.foreignKey, table: table.name, column: key.columns.joined(separator: ", "), expected: "no foreign key",
                               found: describe(key)))
        }
        return items
    }

    /// `strata_fkey_Book_author: REFERENCES "Author" ("_pk") ON DELETE CASCADE DEFERRABLE INITIALLY IMMEDIATE`.
    static func describe(_ key: PostgresCatalog.ForeignKey) -> String {
        let action = ["a": "NO ACTION", "r": "RESTRICT", "c": "CASCADE", "n": "SET NULL", "d": "SET DEFAULT"][key.onDelete] ?? key.onDelete
        let timing = key.deferrable ? (key.initiallyDeferred ? " DEFERRABLE INITIALLY DEFERRED" : " DEFERRABLE INITIALLY IMMEDIATE") : " NOT DEFERRABLE"
        return "\(key.name): REFERENCES \"\(key.target)\" (\(key.targetColumns.map { "\"\($0)\"" }.joined(separator: ", "))) ON DELETE \(action)" + timing
    }

    /// The `confdeltype` of a layout's `ON DELETE` action.
    static func deleteCode(_ action: String?) -> String {
        switch action?.uppercased() {
        case "CASCADE": "c"
        case "SET NULL": "n"
        case "RESTRICT": "r"
        case "SET DEFAULT": "d"
        default: "a"
        }
    }

    /// `UNIQUE ("a", "b")`, `("a")`.
    static func describe(unique: Bool, _ columns: [String]) -> String {
        "\(unique ? "UNIQUE " : "")(\(columns.map { "\"\($0)\"" }.joined(separator: ", ")))"
    }

    static func describeIdentity(_ code: String) -> String {
        switch code {
        case "a": "GENERATED ALWAYS AS IDENTITY"
        case "d": "GENERATED BY DEFAULT AS IDENTITY"
        default: "no identity"
        }
    }

    /// A type as `format_type` spells it (`timestamptz` is `timestamp with time zone`).
    static func formatType(_ type: String) -> String {
        type == "timestamptz" ? "timestamp with time zone" : type
    }
}
