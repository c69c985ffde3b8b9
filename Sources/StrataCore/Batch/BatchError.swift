/// Why a batch request failed.
public enum BatchError: Error, Sendable, CustomStringConvertible {
    /// The request is invalid (predicate, value, unknown entity or attribute): exit 2, nothing ran.
    case invalid(Diagnostic)
    /// A deny rule blocks the delete: exit 3, nothing deleted. At most `BatchError.blockerLimit` listed.
    case denied(blockers: [DeleteBlocker], total: Int)
    /// The batch broke a uniqueness constraint (1551) or an integer range: exit 3, rolled back.
    case violation(code: Int, message: String)
    /// SQLite failed: exit 1.
    case database(message: String, sql: String?)
    /// SQLite ran out of space (disk full, `max_page_count`): exit 1, the transaction rolled back.
    case outOfSpace(message: String)

    public static let blockerLimit = 1000

    /// The engine refused the batch's rows for a uniqueness constraint (`detail`: SQLite's message, or a
    /// PostgreSQL store's failure written as SQLite's): 1551, exit 3.
    public static func uniqueness(_ detail: String) -> BatchError {
        .violation(code: 1551, message: "the batch would break a uniqueness constraint: \(detail)")
    }

    /// The engine refused the batch for a foreign key (`detail` as for ``uniqueness(_:)``): 1700, exit 3.
    public static func danglingReference(_ detail: String) -> BatchError {
        .violation(code: 1700, message: "the batch would leave a dangling reference: \(detail)")
    }

    public var description: String {
        switch self {
        case .invalid(let diagnostic): return diagnostic.description
        case .denied(let blockers, let total):
            var lines = ["error: the delete is denied: \(total) related object\(total == 1 ? "" : "s") block it (nothing was deleted)"]
            lines += blockers.map { "  \($0)" }
            if total > blockers.count { lines.append("  … and \(total - blockers.count) more") }
            return lines.joined(separator: "\n")
        case .violation(let code, let message): return "error: \(message) (\(code))"
        case .database(let message, let sql): return "error: SQLite: \(message)" + (sql.map { "\n  in: \($0)" } ?? "")
        case .outOfSpace: return diagnostics.map(\.description).joined(separator: "\n")
        }
    }
}

extension BatchError: StrataError {
    public var exitCode: ExitStatus {
        switch self {
        case .invalid: return .invalidInput
        case .denied, .violation: return .validationViolations
        case .database, .outOfSpace: return .runtimeFailure
        }
    }

    public var diagnostics: [Diagnostic] {
        switch self {
        case .invalid(let diagnostic): return [diagnostic]
        case .denied(let blockers, let total):
            var list = [Diagnostic.error("the delete is denied: \(total) related object\(total == 1 ? "" : "s") block it; nothing was deleted",
                                         hint: "delete or unlink the related objects first, or change the deny rule")]
            list += blockers.map { Diagnostic.error($0.description) }
            return list
        case .violation(let code, let message): return [.error("\(message) (\(code))", hint: "nothing was changed")]
        case .database(let message, let sql): return [.error("SQLite: \(message)", hint: sql.map { "in: \($0)" })]
        case .outOfSpace(let message):
            return [.error("out of space (\(message)); the transaction was rolled back and the store is unchanged",
                           hint: "free disk space and rerun")]
        }
    }
}
