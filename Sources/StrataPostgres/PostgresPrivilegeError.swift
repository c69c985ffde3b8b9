import StrataCore

/// The migrating role lacks a privilege a run needs (SPEC §14.2): exit 1, found before any change.
public struct PostgresPrivilegeError: Error, Hashable, Sendable {
    public var store: String
    /// The role the run connected as (`current_user`).
    public var role: String
    public var missing: [Missing]

    /// One missing privilege.
    public enum Missing: Hashable, Sendable {
        /// `USAGE` or `CREATE` on the store's schema.
        case schema(privilege: String, schema: String)
        /// `CREATE` on the database, to create the store's schema.
        case databaseCreate(database: String)
        /// Ownership of a managed table (directly or through a role).
        case tableOwnership(table: String, owner: String)

        var description: String {
            switch self {
            case .schema(let privilege, let schema): "\(privilege) on schema \"\(schema)\""
            case .databaseCreate(let database): "CREATE on database \"\(database)\" (to create the schema)"
            case .tableOwnership(let table, let owner): "ownership of table \"\(table)\" (owned by \(owner))"
            }
        }

        var fix: String {
            switch self {
            case .schema(let privilege, let schema): "GRANT \(privilege) ON SCHEMA \"\(schema)\" TO <role>"
            case .databaseCreate(let database): "GRANT CREATE ON DATABASE \"\(database)\" TO <role>, or create the schema first"
            case .tableOwnership(_, let owner): "GRANT \"\(owner)\" TO <role>, or ALTER TABLE … OWNER TO <role>"
            }
        }
    }
}

extension PostgresPrivilegeError: StrataError {
    public var exitCode: ExitStatus { .runtimeFailure }

    public var diagnostics: [Diagnostic] {
        var fixes: [String] = []
        for fix in missing.map({ $0.fix.replacingOccurrences(of: "<role>", with: "\"\(role)\"") }) where !fixes.contains(fix) {
            fixes.append(fix)
        }
        return [.error("role \"\(role)\" lacks " + missing.map(\.description).joined(separator: ", ")
                       + " in \(store); nothing was written",
                       hint: fixes.joined(separator: "; "))]
    }

    public var description: String { diagnostics.map(\.headline).joined(separator: "\n") }
}
