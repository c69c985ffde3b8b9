import Foundation

/// All hook files of a `migrations/` directory, loaded and checked against the models.
public struct HookSet: Sendable {
    /// In run order: version, then id.
    public var hooks: [Hook]

    public init(hooks: [Hook]) { self.hooks = hooks.sorted(by: Hook.runOrder) }

    public func hook(id: String) -> Hook? { hooks.first { $0.id == id } }

    /// Hooks that run right after the store reaches `version`.
    public func hooks(after version: Int) -> [Hook] { hooks.filter { $0.after == version } }

    /// Loads every `*.yaml`/`*.yml` file of `directory` and checks each hook against the model of
    /// its `after` version: entities and attributes exist there, predicates and values compile.
    /// A missing directory is an empty set (a project may have no hooks).
    /// - Throws: `DiagnosticList` with every error (duplicate ids at the later file, `after` naming
    ///   no model version, unknown entities, bad predicates…).
    public static func load(directory: String, models: ModelHistory, variables: [String: String] = [:]) throws(DiagnosticList) -> HookSet {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            return HookSet(hooks: [])
        }
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }
            .sorted { $0.localizedStandardCompare($1) == .orderedAscending }
        var hooks: [Hook] = []
        var diagnostics: [Diagnostic] = []
        var byID: [String: Hook] = [:]
        for name in files {
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            do {
                let hook = try HookLoader.load(path: path)
                if let earlier = byID[hook.id] {
                    diagnostics.append(Diagnostic(.error, "hook id '\(hook.id)' is already used by \(earlier.file)", at: hook.idLocation,
                                                  hint: "give each hook its own `id:`").withSource(hook.source))
                    continue
                }
                byID[hook.id] = hook
                let problems = HookChecker.check(hook, models: models, variables: variables)
                diagnostics += problems
                if problems.isEmpty { hooks.append(hook) }
            } catch {
                diagnostics += error.diagnostics
            }
        }
        if diagnostics.contains(where: { $0.severity == .error }) { throw DiagnosticList(diagnostics) }
        return HookSet(hooks: hooks)
    }
}

/// Checks a hook against the model of its `after` version without a store: the batch planner
/// compiles each step (entity, attributes, predicate, values), so every mistake is found before
/// anything runs.
public enum HookChecker {
    /// - Parameter variables: `--var` values, which take precedence over the hook's `variables:`.
    public static func check(_ hook: Hook, models: ModelHistory, variables: [String: String] = [:]) -> [Diagnostic] {
        guard let model = models.model(version: hook.after) else {
            return [Diagnostic(.error, "after: \(hook.after) names no model version", at: hook.afterLocation,
                               hint: "versions: \(models.versions.map(String.init).joined(separator: ", "))").withSource(hook.source)]
        }
        return check(hook, against: model, variables: variables)
    }

    /// Checks a hook against one model (a late hook runs against the store's current model).
    public static func check(_ hook: Hook, against model: Model, variables: [String: String] = [:]) -> [Diagnostic] {
        let planner = BatchPlanner(model: model, layout: LayoutBuilder.layout(for: model))
        var context = PredicateContext(variables: hook.variables.merging(variables) { _, cli in cli }, now: 0)
        var diagnostics: [Diagnostic] = []
        for (index, step) in hook.steps.enumerated() {
            do {
                switch step {
                case .batchUpdate(let request):
                    context.arguments = request.arguments
                    _ = try planner.planUpdate(request, context: context)
                case .batchDelete(let request):
                    context.arguments = request.arguments
                    _ = try planner.planDelete(request, context: context)
                }
            } catch {
                if case .invalid(var diagnostic) = error {
                    if diagnostic.location == nil, index < hook.stepLocations.count { diagnostic.location = hook.stepLocations[index] }
                    diagnostics.append(diagnostic.withSource(hook.source))
                } else {
                    diagnostics.append(Diagnostic(.error, "\(step.kind) on \(step.entity): \(error)", at: hook.afterLocation))
                }
            }
        }
        return diagnostics
    }
}
