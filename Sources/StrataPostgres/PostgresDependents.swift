import StrataCore

/// The user's views, materialized views and rules that depend on tables or columns a step drops or
/// retypes (SPEC §14.2): found in `pg_depend` before the step changes anything, and the step stops with
/// exit 4 naming them. Strata never drops them (no `CASCADE`). Triggers stay attached to their tables;
/// only one naming a dropped or retyped column (`UPDATE OF`, `WHEN`) stops the step the same way.
enum PostgresDependents {
    /// A table the step drops (column nil), or a column it drops or retypes.
    struct Target: Hashable, Sendable {
        var table: String
        var column: String?
    }

    /// A query over the catalog returning one line per dependent object, e.g. `view "totals" (on
    /// "Order"."amount")`, sorted. Run with the store's `search_path`.
    ///
    /// A table (column nil) counts every object depending on it except its own rules and triggers, which
    /// go with it; a column counts every view or rule reading it and every trigger naming it (`UPDATE OF`,
    /// `WHEN`), which PostgreSQL would refuse to keep across the change.
    static func query(_ targets: [Target]) -> SQLText {
        let rows: [SQLText] = targets.map { target in
            "(CAST(\(target.table) AS text), CAST(" + (target.column.map { "\($0)" } ?? "NULL") + " AS text))"
        }
        return """
            SELECT DISTINCT CASE WHEN g.oid IS NOT NULL THEN 'trigger ' || quote_ident(g.tgname) || ' on ' || quote_ident(v.relname) \
            WHEN r.rulename = '_RETURN' THEN \
            (CASE WHEN v.relkind = 'm' THEN 'materialized view ' ELSE 'view ' END) || quote_ident(v.relname) \
            ELSE 'rule ' || quote_ident(r.rulename) || ' on ' || quote_ident(v.relname) END \
            || ' (on ' || quote_ident(t.relname) || coalesce('.' || quote_ident(w.col), '') || ')'
            """ + " FROM (VALUES " + rows.joined(separator: ", ") + """
            ) AS w(tbl, col) \
            JOIN pg_class t ON t.relname = w.tbl AND t.relnamespace = CAST(current_schema() AS regnamespace) \
            JOIN pg_depend d ON d.refclassid = CAST('pg_class' AS regclass) AND d.refobjid = t.oid AND d.deptype = 'n' \
            AND d.classid IN (CAST('pg_rewrite' AS regclass), CAST('pg_trigger' AS regclass)) \
            LEFT JOIN pg_rewrite r ON d.classid = CAST('pg_rewrite' AS regclass) AND r.oid = d.objid \
            LEFT JOIN pg_trigger g ON d.classid = CAST('pg_trigger' AS regclass) AND g.oid = d.objid \
            JOIN pg_class v ON v.oid = coalesce(r.ev_class, g.tgrelid) \
            LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = d.refobjsubid AND d.refobjsubid > 0 \
            WHERE (w.col IS NULL AND v.oid <> t.oid) OR a.attname = w.col \
            ORDER BY 1
            """
    }

    /// Runs the query for `targets` and throws when it finds any dependent object.
    /// - Throws: `PostgresStoreError.dependentObjects` (exit 4).
    static func check(_ targets: [Target], session: PostgresSession, fromVersion: Int, toVersion: Int) async throws {
        let query = query(targets)
        var objects: [String] = []
        for row in try await session.rows(query) {
            objects.append(try PostgresSession.decode(row[0], as: String.self, statement: query))
        }
        guard objects.isEmpty else {
            throw PostgresStoreError.dependentObjects(step: "version \(fromVersion) → \(toVersion)", objects: objects)
        }
    }
}
