/// Why an audit could not be compiled.
public enum AuditError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `--entity` named an entity the model does not have.
    case unknownEntity(String, hint: String?)
    /// The store's layout has no storage for an entity of the model (the layout is not this model's).
    case missingStorage(entity: String)
    /// An entity validation predicate does not compile.
    case predicate(Diagnostic)

    public var description: String {
        switch self {
        case .unknownEntity(let name, let hint):
            return "unknown entity '\(name)'" + (hint.map { " (\($0))" } ?? "")
        case .missingStorage(let entity):
            return "the store layout has no table for entity '\(entity)'"
        case .predicate(let diagnostic):
            return diagnostic.description
        }
    }
}

extension AuditError: StrataError {
    public var exitCode: ExitStatus {
        switch self {
        case .unknownEntity, .predicate: return .invalidInput
        case .missingStorage: return .drift
        }
    }

    public var diagnostics: [Diagnostic] {
        switch self {
        case .unknownEntity(let name, let hint): return [.error("unknown entity '\(name)'", hint: hint)]
        case .missingStorage(let entity):
            return [.error("the store layout has no table for entity '\(entity)'", hint: "run `strata status` to check for drift")]
        case .predicate(let diagnostic): return [diagnostic]
        }
    }
}
