import Foundation

extension StoreStatus {
    /// What `strata status` exits with, and the diagnostics that explain it (SPEC §8): drift is 6; with
    /// `check`, the first that applies: late hooks 6, a pending step that cannot be inferred 4 (what
    /// `migrate` would refuse, named), other pending work 7 (a declared Swift stage `stages` lacks, named); else 0.
    /// - Parameters:
    ///   - check: `status --check`: pending work is not 0.
    ///   - history: the model history the status was read against, its mapping files loaded.
    ///   - hooks: the hook files.
    ///   - layout: the store's recorded layout (the source of the pending steps).
    ///   - stages: the Swift stages this binary registers.
    public func exitCode(check: Bool, history: ModelHistory, hooks: HookSet, layout: StoreLayout,
                         stages: Stages) -> (code: ExitStatus, diagnostics: [Diagnostic]) {
        Self.exitCode(check: check, version: version, latestVersion: latestVersion, drift: drift, pendingHooks: pendingHooks,
                      lateHooks: lateHooks, hasPendingWork: hasPendingWork, history: history, hooks: hooks, layout: layout, stages: stages)
    }

    /// The rules of ``exitCode(check:history:hooks:layout:stages:)`` on a status another engine read
    /// (StrataPostgres: `PostgresStatus`), so that `status --check` gives the same code on every engine.
    /// - Parameters:
    ///   - version: the store's version; `latestVersion` the newest model's.
    ///   - drift: the store's drift items; `pendingHooks` and `lateHooks` its hooks not yet run.
    ///   - hasPendingWork: whether versions or hooks are pending (late ones included).
    public static func exitCode(check: Bool, version: Int, latestVersion: Int?, drift: [DriftReport.Item], pendingHooks: [String],
                                lateHooks: [String], hasPendingWork: Bool, history: ModelHistory, hooks: HookSet, layout: StoreLayout,
                                stages: Stages) -> (code: ExitStatus, diagnostics: [Diagnostic]) {
        if !drift.isEmpty { return (.drift, []) }
        guard check else { return (.success, []) }
        if !lateHooks.isEmpty { return (.drift, []) }
        if let refusal = refusal(history, version: version, latestVersion: latestVersion, layout: layout) {
            return (.notInferable, refusal.diagnostics)
        }
        guard hasPendingWork else { return (.success, []) }
        let unregistered = stages.unregistered(in: pendingHooks.compactMap(hooks.hook(id:)))
        return (.pendingWork, unregistered.isEmpty ? [] : StageError.notRegistered(ids: unregistered).diagnostics)
    }

    /// Why the pending versions cannot be reached by inference, if they cannot (what `migrate` would refuse).
    static func refusal(_ history: ModelHistory, version: Int, latestVersion: Int?, layout: StoreLayout) -> MappingError? {
        guard let latest = latestVersion, latest > version else { return nil }
        do {
            // Validity only: any $NOW will do; the `--var` values are those the mapping files were loaded with.
            _ = try MappingInference.plan(models: history.models, from: version, to: latest, sourceLayout: layout, mappings: history.mappings,
                                           createdLayouts: history.createdLayouts, context: PredicateContext(now: Date().timeIntervalSince1970))
            return nil
        } catch {
            return error
        }
    }
}
