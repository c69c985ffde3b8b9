import StrataCore

/// PostgreSQL text cannot hold U+0000 (the server refuses it: "invalid byte sequence for encoding "UTF8": 0x00",
/// SQLSTATE 22021), which SQLite stores. A hook step whose values hold one is refused while it is planned, before
/// anything runs (exit 2), located at the value in the hook file (SPEC §14.2, Docs/postgresql.md).
extension PostgresHookPlan {
    /// Throws when a bound value of `renderings` (the step's statements) is a text holding U+0000.
    /// - Throws: a `Diagnostic` (exit 2) at the value that holds it (an object's property, a `values:` entry, a
    ///   property set, the predicate's arguments), or at the step when the hook does not say where it is (a variable).
    static func checkNoNUL(_ renderings: [PostgresRenderer.Rendering], step: HookStep, index: Int, hook: Hook) throws {
        let holdsNUL = renderings.contains { $0.arguments.contains { if case .text(let s) = $0 { Self.holdsNUL(s) } else { false } } }
        guard holdsNUL else { return }
        let (what, origin) = nulOrigin(step)
        let location = origin ?? (index < hook.stepLocations.count ? hook.stepLocations[index] : hook.afterLocation)
        throw Diagnostic.error("hook '\(hook.id)' step \(index + 1): \(what) holds a NUL character (U+0000), which PostgreSQL text cannot hold",
                               at: location, hint: "remove the \\0 from the value; an SQLite store keeps it, a PostgreSQL store cannot")
            .withSource(hook.source)
    }

    static func holdsNUL(_ text: String) -> Bool { text.utf8.contains(0) }

    static func holdsNUL(_ value: UpdateValue) -> Bool {
        switch value {
        case .literal(let s), .expression(let s): holdsNUL(s)
        case .value(.text(let s)): holdsNUL(s)
        case .value: false
        }
    }

    static func holdsNUL(_ arguments: [PredicateArgument]) -> Bool {
        arguments.contains { argument in
            switch argument {
            case .text(let s), .key(let s): holdsNUL(s)
            case .list(let items): items.contains { $0.map(holdsNUL) ?? false }
            case .number, .null: false
            }
        }
    }

    /// What holds the NUL (`Note.text`, `a predicate argument`) and where the hook file has it, where it says.
    static func nulOrigin(_ step: HookStep) -> (String, SourceLocation?) {
        switch step {
        case .batchInsert(let request):
            for (i, object) in request.objects.enumerated() {
                if let name = object.keys.sorted().first(where: { holdsNUL(object[$0]!) }) {
                    let origin = i < request.objectOrigins.count ? request.objectOrigins[i][name] : nil
                    return ("object \(i + 1)'s \(request.entity).\(name)", origin)
                }
            }
            if let name = request.values.keys.sorted().first(where: { holdsNUL(request.values[$0]!) }) {
                return ("\(request.entity).\(name)", request.valueOrigins[name])
            }
            if let source = request.source, holdsNUL(source.arguments) { return ("a predicate argument", source.predicateOrigin) }
            return ("a value", nil)
        case .batchUpdate(let request):
            if let name = request.propertiesToUpdate.keys.sorted().first(where: { holdsNUL(request.propertiesToUpdate[$0]!) }) {
                return ("\(request.entity).\(name)", request.valueOrigins[name])
            }
            if holdsNUL(request.arguments) { return ("a predicate argument", request.predicateOrigin) }
            return ("a value", nil)
        case .batchDelete(let request):
            return holdsNUL(request.arguments) ? ("a predicate argument", request.predicateOrigin) : ("a value", nil)
        case .setRelationship(let request):
            return holdsNUL(request.arguments) ? ("a predicate argument", request.predicateOrigin) : ("a value", nil)
        case .sql, .swiftStage:
            return ("a value", nil)
        }
    }
}
