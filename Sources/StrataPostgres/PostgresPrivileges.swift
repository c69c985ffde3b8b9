import StrataCore
import Strata

/// The privileges a migrating role needs (SPEC §14.2), checked before any change: USAGE and CREATE on the
/// store's schema (CREATE on the database when the schema does not exist yet) and ownership of the managed
/// tables, directly or through a role it belongs to (`pg_has_role(…, 'USAGE')`, PostgreSQL's own test for
/// `ALTER TABLE`). A superuser has them all.
///
/// ```swift
/// try await PostgresPrivileges.checkMigrate(session, tables: layout.tables.map(\.name))
/// ```
enum PostgresPrivileges {
    /// Before a store is created.
    /// - Throws: `PostgresPrivilegeError` (exit 1) naming each missing privilege; `PostgresStoreError` for the server's errors.
    static func checkCreate(_ session: PostgresSession) async throws {
        let schema = session.url.schema
        var missing: [PostgresPrivilegeError.Missing] = []
        if try await session.value("SELECT count(*) FROM pg_namespace WHERE nspname = \(schema)", as: Int64.self) == 0 {
            if try await session.value("SELECT has_database_privilege(current_database(), 'CREATE')", as: Bool.self) != true {
                missing.append(.databaseCreate(database: session.url.database))
            }
        } else {
            missing += try await schemaPrivileges(session)
            // The tables the creation would put there must not be in the way; `build` names those. Here only
            // privileges: a store in a schema the role can use.
        }
        try await report(missing, session: session)
    }

    /// Before a migration's first step: the schema privileges, and ownership of `tables` (the layout's tables)
    /// and of Strata's own tables.
    /// - Throws: `PostgresPrivilegeError` (exit 1) naming each missing privilege; `PostgresStoreError` for the server's errors.
    static func checkMigrate(_ session: PostgresSession, tables: [String]) async throws {
        var missing = try await schemaPrivileges(session)
        let managed = Set(tables + [StoreMetadata.table, "strata_history", "strata_hooks"])
        let statement: SQLText = """
            SELECT c.relname::text, pg_get_userbyid(c.relowner)::text FROM pg_class AS c \
            JOIN pg_namespace AS n ON n.oid = c.relnamespace \
            WHERE n.nspname = \(session.url.schema) AND c.relkind IN ('r', 'p') \
            AND NOT pg_has_role(current_user, c.relowner, 'USAGE') ORDER BY c.relname COLLATE "C"
            """
        for row in try await session.rows(statement) {
            let table = try PostgresSession.decode(row[0], as: String.self, statement: statement)
            guard managed.contains(table) else { continue }
            missing.append(.tableOwnership(table: table, owner: try PostgresSession.decode(row[1], as: String.self, statement: statement)))
        }
        try await report(missing, session: session)
    }

    /// Before anything reads the store: USAGE on the schema.
    /// - Throws: `PostgresPrivilegeError` (exit 1); `PostgresStoreError` for the server's errors.
    static func checkUsage(_ session: PostgresSession) async throws {
        let granted = try await session.value(
            "SELECT has_schema_privilege(oid, 'USAGE') FROM pg_namespace WHERE nspname = \(session.url.schema)", as: Bool.self)
        guard granted != true else { return }
        let role = try await session.value("SELECT current_user::text", as: String.self) ?? session.url.user
        throw PostgresPrivilegeError(store: session.url.description, role: role,
                                     missing: [.schema(privilege: "USAGE", schema: session.url.schema)])
    }

    /// USAGE and CREATE on the schema.
    private static func schemaPrivileges(_ session: PostgresSession) async throws -> [PostgresPrivilegeError.Missing] {
        let schema = session.url.schema
        var missing: [PostgresPrivilegeError.Missing] = []
        for privilege in ["USAGE", "CREATE"] {
            let granted = try await session.value(
                "SELECT has_schema_privilege(oid, \(privilege)) FROM pg_namespace WHERE nspname = \(schema)", as: Bool.self)
            if granted != true { missing.append(.schema(privilege: privilege, schema: schema)) }
        }
        return missing
    }

    private static func report(_ missing: [PostgresPrivilegeError.Missing], session: PostgresSession) async throws {
        guard !missing.isEmpty else { return }
        let role = try await session.value("SELECT current_user::text", as: String.self) ?? session.url.user
        throw PostgresPrivilegeError(store: session.url.description, role: role, missing: missing)
    }
}
