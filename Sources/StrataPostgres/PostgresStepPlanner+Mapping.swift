import StrataCore

/// What a mapping file (SPEC §11.3) adds to a step done in place: the rows its `filter:` leaves out deleted
/// (the links to them cleared first, as SQLite's step leaves them), a column whose values a mapping
/// expression recomputes, and its expressions checked to render for PostgreSQL before anything runs.
extension PostgresStepPlanner {
    /// The rows of `sourceName` that `filter` (over the source row `"strata_old"`) leaves out, deleted after the
    /// fills read them (as SQLite's copy reads every source row) and before any column is retyped, dropped or
    /// renamed. The links to them are cleared first, so that no `ON DELETE` rule fires: a to-one
    /// column holding one becomes NULL, a join-table row holding one is deleted (what SQLite's step does
    /// after its copy, SPEC §11.3 "Uncarried rows"; `VersionStep.droppedLinks` counts them for reports).
    mutating func filterRows(_ filter: SQLText, of sourceName: String) {
        let old = TableName(ColumnSource.oldAlias)
        let leftOut: SQLText = "SELECT \(ColumnName("_pk", qualifier: old.name)) FROM \(TableName(sourceName)) AS \(old)"
            + " WHERE (" + filter + ") IS NOT TRUE"
        for table in src.tables {
            // A link that follows its row to another table (a split) is kept; its foreign key moves with it.
            for column in table.columns where column.references == sourceName
                && (newTarget(of: column.name, in: table.name).map { $0 == tableNames[sourceName] } ?? true) {
                let t = TableName(table.name), c = ColumnName(column.name)
                filterDeletes.append(table.kind == .entity
                    ? "UPDATE \(t) SET \(c) = NULL WHERE \(c) IN (" + leftOut + ")"
                    : "DELETE FROM \(t) WHERE \(c) IN (" + leftOut + ")")
            }
        }
        filterDeletes.append("DELETE FROM \(TableName(sourceName)) AS \(old) WHERE (" + filter + ") IS NOT TRUE")
    }

    /// A destination column whose values a mapping expression recomputes while the source still has a column
    /// of that name (`NEW.x = expression`): converted in place with `ALTER COLUMN … TYPE … USING` when the
    /// value reads only the same row and binds no value; else a temporary column is added and filled, the old column dropped
    /// (it is not claimed) and the temporary one renamed. Both read the rows as they were before the step.
    /// - Returns: whether the column stays in place (then it is claimed, and its indexes kept).
    mutating func recompute(_ column: TablePlan.Column, index: Int, previous: ColumnSpec, table sourceName: String,
                            key: [String], type: String, attribute: AttributeType? = nil, newTable: String? = nil,
                            into conversions: inout [SQLText]) -> Bool {
        let spec = column.spec, name = ColumnName(spec.name), table = TableName(sourceName)
        let value = PostgresColumnSource.expression(column.source, attribute: attribute, type: type)
        // `ALTER TABLE` takes no bound values and `USING` no subquery (a conversion function is rendered as one):
        // such an expression goes through a temporary column.
        if let using = Self.sameRow(value), let rendered = try? PostgresRenderer().rendering(using), rendered.arguments.isEmpty,
           !rendered.sql.uppercased().contains("SELECT") {
            dependents.append(.init(table: sourceName, column: previous.name))
            conversions.append("ALTER COLUMN \(name) TYPE \(keyword: type) USING " + using)
            if previous.isNotNull && !spec.isNotNull { conversions.append("ALTER COLUMN \(name) DROP NOT NULL") }
            if !previous.isNotNull && spec.isNotNull {
                notNull.append("ALTER TABLE \(TableName(newTable ?? sourceName)) ALTER COLUMN \(name) SET NOT NULL")
            }
            return true
        }
        let temporary = ColumnName("strata_map\(index)")
        adds.append("ALTER TABLE \(table) ADD COLUMN \(temporary) \(keyword: type)")
        fills.append(PostgresColumnSource.fill(table: sourceName, key: key, column: temporary.name, value: value))
        renames.append("ALTER TABLE \(table) RENAME COLUMN \(temporary) TO \(name)")
        if spec.isNotNull { notNull.append("ALTER TABLE \(TableName(newTable ?? sourceName)) ALTER COLUMN \(name) SET NOT NULL") }
        return false
    }

    /// The value as a `USING` expression (the source row unqualified) when it reads only columns of the
    /// same row: no subquery, no other table. Nil otherwise.
    static func sameRow(_ value: SQLText) -> SQLText? {
        var pieces: [SQLText.Piece] = []
        for piece in value.pieces {
            switch piece {
            case .text(let text):
                if text.lowercased().contains("select") || text.lowercased().contains(" over") { return nil }
                pieces.append(piece)
            case .identifier(let qualifier, let name):
                if let qualifier, qualifier != ColumnSource.oldAlias { return nil }
                pieces.append(.identifier(qualifier: nil, name: name))
            case .function(let function, let arguments):
                var converted: [SQLText] = []
                for argument in arguments {
                    guard let a = sameRow(argument) else { return nil }
                    converted.append(a)
                }
                pieces.append(.function(function, converted))
            case .value, .keyword:
                pieces.append(piece)
            }
        }
        return SQLText(pieces: pieces)
    }

    /// Every statement rendered once, strictly: a mapping expression PostgreSQL cannot run (the conversion
    /// functions, …) stops the run here, before anything is written (exit 2).
    func checkRendering(_ operations: [Operation]) throws(PostgresStoreError) {
        let renderer = PostgresRenderer()
        for operation in operations {
            let statement: SQLText
            switch operation {
            case .execute(let s), .remapped(let s, _): statement = s
            case .check(let check): statement = check.statement
            case .dependents: continue
            }
            do throws(PostgresRenderError) {
                _ = try renderer.rendering(statement)
            } catch {
                let file = step.mappingFile.map { " in the mapping file \($0.file)" } ?? ""
                throw .notYetSupported(what: error.message + file + " \(place)")
            }
        }
    }
}
