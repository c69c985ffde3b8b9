import Foundation

/// The SQL of a hook's batch step in `strata diff --sql`: the statements that change data, as the run plans them
/// (on the model and layout the hook runs on, with the preview's `$NOW` and `--var` values). Bound values stay
/// `?` placeholders, each followed by its value as an SQL literal in a comment (`? /* 'b' */`), as in `sql:`
/// steps: values are never pasted into the text. The audit's bookkeeping (touched rows, keys tables) is left out.
extension SQLPreview {
    /// The statements of one batch step, in run order.
    /// - Throws: `BatchError.invalid` (the step does not plan against its model), as `lint` reports it.
    static func statements(of step: HookStep, model: Model, layout: StoreLayout,
                           context: PredicateContext) throws(BatchError) -> [String] {
        var context = context
        switch step {
        case .batchUpdate(let request):
            context.arguments = request.arguments
            return [try BatchPlanner(model: model, layout: layout).planUpdate(request, context: context).update(returning: false).previewed]
        case .batchDelete(let request):
            context.arguments = request.arguments
            let plan = try BatchPlanner(model: model, layout: layout).planDelete(request, context: context)
            if plan.isSimple { return [plan.directDelete.previewed] }
            var lines = [BatchPlanner.createDoomedTable.previewed, ("DELETE FROM \(BatchPlanner.doomedTable)" as SQLText).previewed, plan.seed.previewed]
            if !plan.cascades.isEmpty {
                lines.append("-- cascades: once per round (round r adds what round r - 1 added leads to), until a round adds no row")
                lines += plan.cascades.map(\.statement.previewed)
            }
            lines += plan.denyChecks.map { "-- deny \($0.entity).\($0.relationship): any row stops the delete (exit 3)\n" + $0.query.previewed }
            lines += plan.beforeDelete.nullify.map(\.update.previewed)
            lines += (plan.beforeDelete.unlink + plan.beforeDelete.joinDeletes + plan.deletes).map(\.previewed)
            return lines
        case .batchInsert(let request):
            let planner = BatchInsertPlanner(model: model, layout: layout)
            let plan = try planner.plan(request, context: context)
            var lines: [String] = []
            for (i, statement) in plan.statements.enumerated() {
                lines.append(statement.previewed)
                if i < plan.rowLinks.count { lines += plan.rowLinks[i].map(\.previewed) }
            }
            lines += plan.sourceLinks.map { "-- then \($0.table).\($0.column) of each destination is pointed at the object made from its source row" }
            if request.dictionaryHandler != nil { lines.append("-- then one INSERT per row the handler fills") }
            return lines
        case .setRelationship(let request):
            let plan = try RelationshipLinkPlanner(model: model, layout: layout).plan(request, context: context)
            var lines = plan.ambiguities.map { "-- ambiguity check: a row here means a match may be ambiguous (then searched for, exit 3)\n" + $0.candidates.previewed }
            if let unlink = plan.unlink { lines.append(unlink.previewed) }
            lines.append(plan.link.previewed)
            return lines
        case .sql, .swiftStage:
            return []
        }
    }
}

extension SQLText {
    /// SQLite text with each `?` followed by the value it binds as an SQL literal in a comment: `? /* 'b' */`.
    package var previewed: String {
        var text = ""
        for piece in sqlitePieces {
            text += SQLText(pieces: [piece]).sql
            if case .value(let value) = piece {
                text += " /* " + value.sqlLiteral.replacingOccurrences(of: "*/", with: "* /") + " */"
            }
        }
        return text
    }
}

extension Value {
    /// The value written as an SQL literal (`NULL`, `42`, `1.5`, `'it''s'`, `X'00FF'`), for previews only.
    var sqlLiteral: String {
        switch self {
        case .null: return "NULL"
        case .integer(let i): return String(i)
        case .real(let d): return Value.format(d)
        case .text(let s): return "'" + s.doublingQuotes("'") + "'"
        case .blob(let b): return "X'" + b.map { String(format: "%02X", $0) }.joined() + "'"
        }
    }
}
