import StrataCore

/// `strata lint --engine postgresql` (SPEC §14.2): what a PostgreSQL store would refuse in the hooks, as
/// warnings, without a server: predicates PostgreSQL cannot run (ICU-only regex syntax, casts, long `IN`
/// lists), `sql:` steps without PostgreSQL text or with a refused statement, Swift stages declared for other engines.
public enum PostgresLint {
    /// One warning per hook that a PostgreSQL store would refuse, located at the hook (or its step).
    public static func warnings(for hooks: HookSet, models: ModelHistory, variables: [String: String]) -> [Diagnostic] {
        var warnings: [Diagnostic] = []
        for hook in hooks.hooks {
            guard let model = HookChecker.model(for: hook, in: models),
                  let layout = try? PostgresLayout.adapted(LayoutBuilder.layout(for: model)) else { continue }
            let context = PredicateContext(variables: variables, now: 0)
            do {
                let plan = try PostgresHookPlan.plan(hook, model: model, layout: layout, context: context, schema: "public")
                if plan.requirements.contains(.unaccent) {
                    warnings.append(.warning("hook '\(hook.id)' uses [d]: a PostgreSQL store needs the unaccent extension",
                                             at: hook.afterLocation, hint: "an administrator adds it with CREATE EXTENSION unaccent"))
                }
            } catch let error as PostgresRenderError {
                warnings.append(.warning(error.message + " on a PostgreSQL store", at: hook.afterLocation, hint: error.hint))
            } catch let error as Diagnostic where error.severity == .error {
                var warning = error
                warning.severity = .warning
                warnings.append(warning)
            } catch {
                continue   // invalid hooks are lint's errors already
            }
        }
        return warnings
    }
}
