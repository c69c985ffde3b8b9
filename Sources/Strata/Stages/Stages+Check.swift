import Foundation

extension Stages {
    /// Registrations against declarations (SPEC §11.2): a registered stage without a declaration file, a
    /// declaration whose `revision` differs from the registered one, or two registrations of one id are errors
    /// (exit 2 in `lint` and `migrate`).
    public func check(against hooks: HookSet) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var seen: Set<String> = []
        for registration in registrations {
            if !seen.insert(registration.id).inserted {
                diagnostics.append(.error("Swift stage '\(registration.id)' is registered twice",
                                          hint: "register each stage once; change its `revision` to change what it does"))
                continue
            }
            guard let hook = hooks.hook(id: registration.id), let declaration = hook.swiftStage else {
                diagnostics.append(.error("Swift stage '\(registration.id)' is registered but not declared in migrations/",
                                          hint: "add migrations/\(registration.id).yaml with `id: \(registration.id)`, `after: N` or `before: N`, "
                                              + "`swift: true` and `revision: \"\(registration.revision)\"`"))
                continue
            }
            if declaration.revision != registration.revision {
                diagnostics.append(Diagnostic(.error, "Swift stage '\(registration.id)' is registered at revision '\(registration.revision)' "
                                              + "but declared at revision '\(declaration.revision)'",
                                              at: declaration.revisionLocation ?? hook.idLocation,
                                              hint: "make the declaration's `revision:` and `stages.register(…, revision:)` the same").withSource(hook.source))
            }
        }
        return diagnostics
    }

    /// The declared stages among `hooks` that this binary does not register.
    public func unregistered(in hooks: [Hook]) -> [String] {
        hooks.filter { $0.swiftStage != nil && registration($0.id) == nil }.map(\.id)
    }
}
