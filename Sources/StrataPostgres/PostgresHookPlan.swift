import StrataCore

/// A hook's steps planned for a PostgreSQL store (SPEC §5, §14.2): the shared batch planners' statements,
/// each rendered once for PostgreSQL so that a predicate PostgreSQL cannot run stops the run before any
/// step is written. Pure.
struct PostgresHookPlan: Sendable {
    /// One planned step of the hook.
    enum Step: Sendable {
        case update(BatchUpdatePlan, BatchUpdateRequest)
        case delete(BatchDeletePlan, BatchDeleteRequest)
        case insert(BatchInsertPlan, BatchInsertRequest)
        case link(RelationshipLinkPlan, SetRelationshipRequest)
        /// An `sql:` step's PostgreSQL text, expanded and split into statements, and where it is in the hook file.
        case sql([SQLText], SourceLocation)
        /// A Swift stage (SPEC §11.2): its registered closure, run by `PostgresHookRunner.runStage`.
        case stage(SwiftStageDeclaration)
    }

    var hook: Hook
    var model: Model
    var layout: StoreLayout
    var steps: [Step]
    /// `$NOW` and the variables (the hook's `variables:` under `--var`) its steps and its audit read.
    var context: PredicateContext
    /// What the steps' SQL needs from the server (ICU, unaccent).
    var requirements: Set<PostgresRenderer.Requirement>

    /// Plans every step of `hook` against `model` and `layout` (the layout of the version it runs on).
    /// - Throws: `BatchError.invalid` (a predicate or value that does not check, exit 2), `PostgresRenderError`
    ///   (exit 2) for what PostgreSQL cannot run, a `Diagnostic` (exit 2) for a Swift stage declared for
    ///   other engines only (`engines: [sqlite]`) and for a value holding U+0000 (``checkNoNUL(_:step:index:hook:)``).
    static func plan(_ hook: Hook, model: Model, layout: StoreLayout, context: PredicateContext,
                     schema: String) throws -> PostgresHookPlan {
        var context = context
        context.variables = hook.variables.merging(context.variables) { _, given in given }
        var steps: [Step] = []
        var statements: [(index: Int, step: HookStep, statements: [SQLText])] = []
        for step in hook.steps {
            let planned: Step
            switch step {
            case .batchUpdate(let request): planned = try .planned(request, model: model, layout: layout, context: context)
            case .batchDelete(let request): planned = try .planned(request, model: model, layout: layout, context: context)
            case .batchInsert(let request): planned = try .planned(request, model: model, layout: layout, context: context)
            case .setRelationship(let request): planned = try .planned(request, model: model, layout: layout, context: context)
            case .sql(let sql):
                let statements = try sqlStatements(sql, hook: hook, step: steps.count + 1, layout: layout, context: context, schema: schema)
                steps.append(.sql(statements, sql.postgresql?.origin ?? sql.origin))
                continue
            case .swiftStage(let declaration):
                if let engines = declaration.engines, !engines.contains("postgresql") {
                    throw Diagnostic(.error, "Swift stage '\(hook.id)' is declared for \(engines.joined(separator: ", ")) only; this store is PostgreSQL",
                                     at: hook.idLocation,
                                     hint: "add postgresql to its `engines:` once the stage's code runs on PostgreSQL, or migrate this store without it")
                        .withSource(hook.source)
                }
                steps.append(.stage(declaration))
                continue
            }
            statements.append((steps.count, step, planned.statements))
            steps.append(planned)
        }
        var requirements: Set<PostgresRenderer.Requirement> = []
        var renderings: [[PostgresRenderer.Rendering]] = []
        do {
            for planned in statements {
                var rendered: [PostgresRenderer.Rendering] = []
                for statement in planned.statements { rendered.append(try PostgresRenderer().rendering(statement)) }
                renderings.append(rendered)
            }
        } catch {
            throw PostgresRenderError("hook '\(hook.id)' (\(hook.file)): " + error.message, hint: error.hint)
        }
        for (planned, rendered) in zip(statements, renderings) {
            try checkNoNUL(rendered, step: planned.step, index: planned.index, hook: hook)
            for rendering in rendered { requirements.formUnion(rendering.requirements) }
        }
        return PostgresHookPlan(hook: hook, model: model, layout: layout, steps: steps, context: context, requirements: requirements)
    }

    /// The PostgreSQL statements of an `sql:` step: its `postgresql:` text with `{{…}}` expanded (tables
    /// schema-qualified), split at top-level semicolons, each checked for a refused leading keyword.
    /// - Throws: a `Diagnostic` (exit 2) located in the hook file: no PostgreSQL text, a refused statement.
    static func sqlStatements(_ sql: SQLStep, hook: Hook, step: Int, layout: StoreLayout, context: PredicateContext,
                              schema: String) throws -> [SQLText] {
        guard let text = sql.postgresql else {
            throw Diagnostic.error("hook '\(hook.id)' step \(step): this sql: step has no PostgreSQL text", at: sql.origin,
                                   hint: "give it as sql: { sqlite: \"…\", postgresql: \"…\" }; a plain sql: string is SQLite SQL")
        }
        let expanded = try text.expanded(layout: layout, variables: context.variables, now: context.now, schema: schema)
        let statements = PostgresStatementSplitter.split(expanded.text)
        for statement in statements {
            let keyword = PostgresStatementSplitter.leadingKeyword(statement) ?? ""
            if let what = PostgresStatementSplitter.refused[keyword] {
                throw Diagnostic.error("hook '\(hook.id)' step \(step): \(keyword) (\(what)) is not allowed in an sql: step",
                                       at: text.origin, hint: "Strata runs each step in its own transaction; leave transactions and settings to it")
            }
        }
        return statements
    }
}

extension PostgresHookPlan.Step {
    /// A batch update planned for PostgreSQL (in a hook, `strata batch` or the library's `PostgresStore.execute`),
    /// with the request's `%@` arguments.
    /// - Throws: `BatchError.invalid` (exit 2).
    static func planned(_ request: BatchUpdateRequest, model: Model, layout: StoreLayout, context: PredicateContext) throws -> Self {
        var context = context
        context.arguments = request.arguments
        return .update(try BatchPlanner(model: model, layout: layout).planUpdate(request, context: context), request)
    }

    /// A batch delete planned for PostgreSQL, with the model's delete rules and the request's `%@` arguments.
    /// - Throws: `BatchError.invalid` (exit 2).
    static func planned(_ request: BatchDeleteRequest, model: Model, layout: StoreLayout, context: PredicateContext) throws -> Self {
        var context = context
        context.arguments = request.arguments
        return .delete(try BatchPlanner(model: model, layout: layout).planDelete(request, context: context), request)
    }

    /// A batch insert planned for PostgreSQL, with a `dictionaryHandler`'s rows (the library's requests). With
    /// `onConflict: update` into a table with several uniqueness constraints, literal and handler rows take one
    /// statement each (`BatchInsertPlanner.upsert`), a `from:` insert runs row by row on the server
    /// (`BatchInsertPlan.rowByRow`), as SQLite runs it.
    /// - Throws: `BatchError.invalid` (exit 2).
    static func planned(_ request: BatchInsertRequest, model: Model, layout: StoreLayout, context: PredicateContext) throws -> Self {
        let planner = BatchInsertPlanner(model: model, layout: layout)
        var plan = try planner.plan(request, context: context)
        if let handler = request.dictionaryHandler {
            // The library's handler rows: asked for and planned here, one INSERT each, before anything runs.
            while true {
                var row: [String: Value] = [:]
                if handler(&row) { break }
                let (statement, links, upsert) = try planner.insertRow(row.mapValues(UpdateValue.value), request: request, context: context)
                plan.statements.append(statement)
                plan.rowLinks.append(links)
                plan.upserts.append(upsert)
                plan.rowUnlinkColumns.append(planner.unlinkColumns(plan, setBy: row.keys))
            }
        }
        return .insert(plan, request)
    }

    /// A `setRelationship` planned for PostgreSQL, with the request's `%@` arguments.
    /// - Throws: `BatchError.invalid` (exit 2).
    static func planned(_ request: SetRelationshipRequest, model: Model, layout: StoreLayout, context: PredicateContext) throws -> Self {
        var context = context
        context.arguments = request.arguments
        return .link(try RelationshipLinkPlanner(model: model, layout: layout).plan(request, context: context), request)
    }

    /// The planned statements that carry a batch step's predicates and values, rendered before anything runs
    /// so that what PostgreSQL cannot run (or needs: ICU, `unaccent`) is known first.
    var statements: [SQLText] {
        switch self {
        case .insert(let plan, _):
            plan.statements + plan.upserts.compactMap { $0 }.flatMap { [$0.count, $0.insert(above: 0)] } + plan.rowLinks.flatMap { $0 }
                + (plan.rowByRow.map { [$0.create, $0.fill(above: 0), $0.loop, $0.updated] } ?? [])
        case .link(let plan, _):
            [plan.link, plan.selectKeys, plan.linkKeyed] + plan.ambiguities.flatMap { [$0.candidates, $0.query] }
                + [plan.unlinking?.returning].compactMap { $0 }
        case .update(let plan, _): [plan.update(returning: true)]
        case .delete(let plan, _):
            [plan.directDeleteReturning, plan.seed] + plan.cascades.map(\.statement) + plan.denyChecks.map(\.query)
                + plan.beforeDelete.nullify.map(\.updateReturning) + plan.deletes
        case .sql, .stage: []   // the user's own text, run as written
        }
    }
}
