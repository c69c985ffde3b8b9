import Foundation

/// All hook files of a `migrations/` directory, loaded and checked against the models.
public struct HookSet: Sendable {
    /// In run order: version, then id.
    public var hooks: [Hook]
    /// Warnings found while checking the hooks (a literal that reads like an expression), for `lint`.
    public var warnings: [Diagnostic] = []

    public init(hooks: [Hook]) { self.hooks = hooks.sorted(by: Hook.runOrder) }

    public func hook(id: String) -> Hook? { hooks.first { $0.id == id } }

    /// Hooks that run right after the store reaches `version` (`after: version`), in id order.
    public func hooks(after version: Int) -> [Hook] { hooks.filter { $0.after == version && $0.timing == .after } }

    /// Hooks that run in the step reaching `version`, before its schema changes (`before: version`), in id order.
    public func hooks(before version: Int) -> [Hook] { hooks.filter { $0.after == version && $0.timing == .before } }

    /// Loads every `*.yaml`/`*.yml` file of `directory` and checks each hook against the model of
    /// its `after` version: entities and attributes exist there, predicates and values compile.
    /// A missing directory is an empty set (a project may have no hooks).
    /// - Throws: `DiagnosticList` with every error (duplicate ids at the later file, `after` naming
    ///   no model version, unknown entities, bad predicates…).
    public static func load(directory: String, models: ModelHistory, variables: [String: String] = [:]) throws(DiagnosticList) -> HookSet {
        // Mapping files (`mapping: { from:, to: }`) live here too; `MappingFileSet` reads them.
        guard let folder = YAMLFolder.read(directory) else { return HookSet(hooks: []) }
        return try assemble(folder.files.filter { !$0.isMapping }.map { file in
            Result { () throws(DiagnosticList) in try HookLoader.load(data: file.data, path: file.path) }
        }, models: models, variables: variables)
    }

    /// Loads hooks from YAML texts (file name → text, in file-name order), checked like ``load(directory:models:variables:)``.
    /// The name is the hook's recorded file; its `id:` (or, without one, the name) identifies it in the store.
    public static func load(yaml files: [String: String], models: ModelHistory,
                            variables: [String: String] = [:]) throws(DiagnosticList) -> HookSet {
        let names = files.keys.sorted(by: FileNameOrder.areInIncreasingOrder).filter { !MappingFileLoader.isMappingFile(files[$0]!) }
        return try assemble(names.map { name in Result { () throws(DiagnosticList) in try HookLoader.load(yaml: files[name]!, file: name) } },
                            models: models, variables: variables)
    }

    /// Every hook file of `directory` checked as ``load(directory:models:variables:)`` checks them, for `lint`:
    /// the hooks without errors and every diagnostic, so that later checks (the SQL of `sql:` steps) still
    /// run on the files that are right while another file has errors.
    public static func loadEach(directory: String, models: ModelHistory,
                                variables: [String: String] = [:]) -> (valid: HookSet, diagnostics: [Diagnostic]) {
        guard let folder = YAMLFolder.read(directory) else { return (HookSet(hooks: []), []) }
        return collect(folder.files.filter { !$0.isMapping }.map { file in
            Result { () throws(DiagnosticList) in try HookLoader.load(data: file.data, path: file.path) }
        }, models: models, variables: variables)
    }

    /// The set of loaded files (in file order), each checked against the models; a duplicate id is an error at
    /// the later file.
    static func assemble(_ loaded: [Result<Hook, DiagnosticList>], models: ModelHistory,
                         variables: [String: String]) throws(DiagnosticList) -> HookSet {
        let (valid, diagnostics) = collect(loaded, models: models, variables: variables)
        if diagnostics.contains(where: { $0.severity == .error }) { throw DiagnosticList(diagnostics) }
        var set = valid
        set.warnings = diagnostics
        return set
    }

    /// The hooks without errors, and the errors and warnings of all.
    static func collect(_ loaded: [Result<Hook, DiagnosticList>], models: ModelHistory,
                        variables: [String: String]) -> (HookSet, [Diagnostic]) {
        var hooks: [Hook] = []
        var diagnostics: [Diagnostic] = []
        var byID: [String: Hook] = [:]
        for result in loaded {
            do {
                let hook = try result.get()
                if let earlier = byID[hook.id] {
                    diagnostics.append(Diagnostic(.error, "hook id '\(hook.id)' is already used by \(earlier.file)", at: hook.idLocation,
                                                  hint: "give each hook its own `id:`").withSource(hook.source))
                    continue
                }
                byID[hook.id] = hook
                let problems = HookChecker.check(hook, models: models, variables: variables, warnings: true)
                diagnostics += problems
                if !problems.contains(where: { $0.severity == .error }), let model = HookChecker.model(for: hook, in: models) {
                    var checked = hook
                    checked.modelVersion = model.version
                    hooks.append(checked)
                }
            } catch {
                diagnostics += error.diagnostics
            }
        }
        return (HookSet(hooks: hooks), diagnostics)
    }
}

/// Checks a hook against the model of its `after` version without a store: the batch planner
/// compiles each step (entity, attributes, predicate, values), so every mistake is found before
/// anything runs.
public enum HookChecker {
    /// - Parameters:
    ///   - variables: `--var` values, which take precedence over the hook's `variables:`.
    ///   - warnings: whether to add warnings (a literal that reads like an expression) to the errors.
    public static func check(_ hook: Hook, models: ModelHistory, variables: [String: String] = [:],
                             warnings: Bool = false) -> [Diagnostic] {
        guard models.model(version: hook.after) != nil else {
            return [Diagnostic(.error, "\(hook.timing.rawValue): \(hook.after) names no model version", at: hook.afterLocation,
                               hint: "versions: \(models.versions.map(String.init).joined(separator: ", "))").withSource(hook.source)]
        }
        guard let model = model(for: hook, in: models) else {
            return [Diagnostic(.error, "before: \(hook.after) names the lowest model version: no step reaches it", at: hook.afterLocation,
                               hint: "a before-hook runs in the step that reaches N, on the version below; use `after: \(hook.after)`")
                .withSource(hook.source)]
        }
        return check(hook, against: model, variables: variables, warnings: warnings)
    }

    /// The model a hook is checked and run against: version N for `after: N`, the next version below N for
    /// `before: N` (SPEC §11.4); nil when there is none.
    public static func model(for hook: Hook, in models: ModelHistory) -> Model? {
        guard hook.timing == .before else { return models.model(version: hook.after) }
        guard models.model(version: hook.after) != nil, let previous = models.versions.filter({ $0 < hook.after }).max() else { return nil }
        return models.model(version: previous)
    }

    /// Checks a hook against one model (a late hook runs against the store's current model): its errors,
    /// and its warnings too when `warnings` is true.
    public static func check(_ hook: Hook, against model: Model, variables: [String: String] = [:],
                             warnings: Bool = false) -> [Diagnostic] {
        let layout = LayoutBuilder.layout(for: model)
        let planner = BatchPlanner(model: model, layout: layout)
        var context = PredicateContext(variables: hook.variables.merging(variables) { _, cli in cli }, now: 0)
        var diagnostics = checkWrites(hook.writes, at: hook.writeLocations, against: model).map { $0.withSource(hook.source) }
        for (index, step) in hook.steps.enumerated() {
            if case .sql(let sql) = step {
                // Placeholders name the model's entities and properties; the statements themselves are
                // checked by a pre-run under the authorizer (Strata's SQLPreCheck), which needs SQLite.
                do { _ = try sql.expanded(layout: layout, variables: context.variables, now: 0) }
                catch { diagnostics.append(error.withSource(hook.source)) }
                continue
            }
            var found = checkStep(step, index: index, of: hook, planner: planner, context: &context, warnings: warnings)
            // A step stops at its first bad value; its parts alone show the others (each located), so that lint
            // reports every error at once.
            if found.contains(where: { $0.severity == .error }) {
                var seen = Set(found)   // a set: a literal insert may have thousands of objects
                for part in parts(of: step) {
                    for d in checkStep(part, index: index, of: hook, planner: planner, context: &context, warnings: false)
                    where d.severity == .error && seen.insert(d).inserted { found.append(d) }
                }
            }
            diagnostics += found
        }
        return diagnostics
    }

    /// The diagnostics of one step against `planner`'s model: its first error, and its warnings when asked.
    static func checkStep(_ step: HookStep, index: Int, of hook: Hook, planner: BatchPlanner, context: inout PredicateContext,
                          warnings: Bool) -> [Diagnostic] {
        let model = planner.model
        var diagnostics: [Diagnostic] = []
        do {
            switch step {
            case .batchUpdate(let request):
                context.arguments = request.arguments
                _ = try planner.planUpdate(request, context: context)
                if warnings {
                    diagnostics += literalWarnings(request, plain: hook.plainLiterals[index] ?? [], planner: planner, context: context)
                        .map { $0.withSource(hook.source) }
                }
            case .batchDelete(let request):
                context.arguments = request.arguments
                _ = try planner.planDelete(request, context: context)
            case .sql: break
            case .swiftStage(let declaration):
                diagnostics += checkWrites(declaration, against: model).map { $0.withSource(hook.source) }
            case .batchInsert(let request):
                _ = try BatchInsertPlanner(model: model, layout: planner.layout).plan(request, context: context)
            case .setRelationship(let request):
                _ = try RelationshipLinkPlanner(model: model, layout: planner.layout).plan(request, context: context)
            }
        } catch {
            if case .invalid(var diagnostic) = error {
                if diagnostic.location == nil, index < hook.stepLocations.count { diagnostic.location = hook.stepLocations[index] }
                if case .batchUpdate(let request) = step {
                    diagnostic.hint = expressionHint(for: diagnostic, request, plain: hook.plainLiterals[index] ?? [],
                                                     planner: planner, context: context) ?? diagnostic.hint
                }
                diagnostics.append(diagnostic.withSource(hook.source))
            } else {
                diagnostics.append(Diagnostic(.error, "\(step.kind) on \(step.entity): \(error)", at: hook.afterLocation))
            }
        }
        return diagnostics
    }

    /// The parts of a step checked alone once the whole has an error: each object of a literal insert, each
    /// property of an update (without its predicate, whose error the whole step reports).
    static func parts(of step: HookStep) -> [HookStep] {
        switch step {
        case .batchInsert(let request) where request.source == nil && request.objects.count > 1:
            return request.objects.indices.map { i in
                var one = request
                one.objects = [request.objects[i]]
                one.objectOrigins = i < request.objectOrigins.count ? [request.objectOrigins[i]] : []
                return .batchInsert(one)
            }
        case .batchUpdate(let request) where request.propertiesToUpdate.count > 1 || request.predicate != nil:
            return request.propertiesToUpdate.keys.sorted().map { key in
                var one = request
                one.predicate = nil
                one.propertiesToUpdate = [key: request.propertiesToUpdate[key]!]
                return .batchUpdate(one)
            }
        default:
            return []
        }
    }

    /// A Swift stage's `writes:` must name entities of the model it runs against.
    static func checkWrites(_ declaration: SwiftStageDeclaration, against model: Model) -> [Diagnostic] {
        checkWrites(declaration.writes, at: declaration.writeLocations, against: model)
    }

    /// `writes:` (a Swift stage's or an `sql:` hook's) must name entities of the model it runs against.
    static func checkWrites(_ writes: [String], at locations: [SourceLocation], against model: Model) -> [Diagnostic] {
        zip(writes, locations).compactMap { name, location in
            guard model.entity(name) == nil else { return nil }
            return .error("writes: no entity '\(name)' in model version \(model.version)", at: location,
                          hint: NameSuggestion.hint(for: name, in: model.entities.map(\.name)))
        }
    }

    /// A plain string assigned to a textual attribute that reads as an expression over the row
    /// (`name: "lowercase(name)"`) is stored as that text: most likely not what was meant, so `lint` warns.
    static func literalWarnings(_ request: BatchUpdateRequest, plain: Set<String>, planner: BatchPlanner,
                                context: PredicateContext) -> [Diagnostic] {
        var warnings: [Diagnostic] = []
        for name in plain.sorted() {
            guard case .literal(let text)? = request.propertiesToUpdate[name],
                  let attribute = planner.model.attribute(name, of: request.entity)?.attribute, attribute.type.isTextual,
                  readsAsExpression(text),
                  (try? planner.compiler.compileValue(text, for: name, of: request.entity, context: context)) != nil else { continue }
            warnings.append(.warning("'\(text)' is stored as this text in \(request.entity).\(name); it is not computed from the row",
                                     at: request.valueOrigins[name],
                                     hint: "to compute it, write `\(name): { expression: \"\(text)\" }`; to store the text, write `\(name): { value: \"\(text)\" }`"))
        }
        return warnings
    }

    /// The hint for an error on a plain literal that reads as an expression (`rating: "rating + 1"`).
    static func expressionHint(for diagnostic: Diagnostic, _ request: BatchUpdateRequest, plain: Set<String>,
                               planner: BatchPlanner, context: PredicateContext) -> String? {
        for name in plain.sorted() {
            guard let origin = request.valueOrigins[name], diagnostic.location == origin,
                  case .literal(let text)? = request.propertiesToUpdate[name], readsAsExpression(text),
                  (try? planner.compiler.compileValue(text, for: name, of: request.entity, context: context)) != nil else { continue }
            return "a plain value is a literal; to compute it from the row, write `\(name): { expression: \"\(text)\" }`"
        }
        return nil
    }

    /// Whether `text` parses as an expression that refers to the row: a function call or a key path.
    /// Only short texts are tried: an expression typed as a plain value is a few words, and a long text
    /// (prose, a pasted document) is not worth parsing.
    static func readsAsExpression(_ text: String) -> Bool {
        guard text.utf8.count <= 200, text.contains(where: { $0.isLetter }) else { return false }
        do throws(PredicateSyntaxError) {
            var parser = try PredicateParser(text, arguments: [])
            return refersToRow(try parser.parseWholeExpression())
        } catch {
            return false
        }
    }

    /// Whether an expression reads a row: a key path or `SUBQUERY` anywhere in it. Function calls
    /// (`now()`, `uuid()`, `string($NOW)`) and `TERNARY` read one only through their arguments.
    static func readsRow(_ expression: PredicateExpression) -> Bool {
        switch expression {
        case .keyPath, .subquery: return true
        case .function(_, let arguments, _): return arguments.contains(where: readsRow)
        case .ternary(let condition, let a, let b, _): return readsRow(condition) || readsRow(a) || readsRow(b)
        case .arithmetic(let first, let steps): return readsRow(first) || steps.contains { readsRow($0.operand) }
        case .negate(let inner, _): return readsRow(inner)
        case .list(let items, _): return items.contains(where: readsRow)
        default: return false
        }
    }

    static func readsRow(_ predicate: PredicateNode) -> Bool {
        switch predicate {
        case .constant: return false
        case .not(let inner, _): return readsRow(inner)
        case .and(let list), .or(let list): return list.contains(where: readsRow)
        case .comparison(let c): return c.modifier != nil || readsRow(c.lhs) || readsRow(c.rhs)
        }
    }

    /// Whether a plain value reads as an expression: a function call or a key path (see ``readsAsExpression(_:)``).
    static func refersToRow(_ expression: PredicateExpression) -> Bool {
        switch expression {
        case .keyPath, .function, .subquery, .ternary: return true
        case .arithmetic(let first, let steps): return refersToRow(first) || steps.contains { refersToRow($0.operand) }
        case .negate(let inner, _): return refersToRow(inner)
        case .list(let items, _): return items.contains(where: refersToRow)
        default: return false
        }
    }
}
