import Foundation

extension Fleet {
    /// Audits every store (read-only) as `strata audit` does: the model of the store's version from
    /// `history` (checked against the store's recorded hashes: drift is 6), else the model the store recorded.
    ///
    /// A row's versions are the store's; its violations count those of rules that fail (`failOn`), and a
    /// store with any is exit 3.
    /// - Parameters:
    ///   - history: the model files, loaded once by the caller; nil audits each store against its recorded model.
    ///   - scope: all objects or some entities.
    ///   - failOn: the codes that count as failures; nil for all.
    ///   - maxSamples: samples kept per rule (rows keep only counts).
    ///   - variables: `--var` values.
    ///   - now: `$NOW` for validation predicates.
    public func audit(history: ModelHistory?, scope: AuditScope, failOn: Set<AuditCode>?, maxSamples: Int = 0,
                      variables: [String: String] = [:], now: Double = Date().timeIntervalSince1970) -> FleetReport {
        run(command: "audit") { path in
            Self.auditOne(path, history: history, scope: scope, failOn: failOn, maxSamples: maxSamples, variables: variables, now: now)
        }
    }

    /// One SQLite store's audit and its row.
    public static func auditOne(_ path: String, history: ModelHistory?, scope: AuditScope, failOn: Set<AuditCode>?, maxSamples: Int,
                                variables: [String: String], now: Double) -> Outcome {
        attempt(path) {
            let store = try Store.open(path: path, readOnly: true)
            var auditor = try Auditor(store: store, history: history)
            auditor.variables = variables
            auditor.now = now
            let result = try auditor.run(on: store, scope: scope, maxSamples: maxSamples)
            return (auditRow(path, result: result, failOn: failOn), nil, [])
        }
    }

    /// A store's row from its audit: its violations count those of rules that fail (`failOn`, nil for all);
    /// any is exit 3.
    public static func auditRow(_ path: String, result: AuditResult, failOn: Set<AuditCode>?) -> FleetStoreResult {
        let failures = result.failures(failOn: failOn)
        let violations = failures.reduce(0) { $0 + $1.count }
        let code: ExitStatus = failures.isEmpty ? .success : .validationViolations
        var row = FleetStoreResult(path: path, outcome: failures.isEmpty ? .passed : .violations, exitCode: code,
                                   fromVersion: result.modelVersion, toVersion: result.modelVersion, violations: violations)
        if !failures.isEmpty {
            row.message = "\(failures.count) rule\(failures.count == 1 ? "" : "s") violated: "
                + failures.prefix(3).map { "\($0.entity).\($0.property ?? $0.rule) \($0.code.rawValue)" }.joined(separator: ", ")
                + (failures.count > 3 ? ", …" : "")
        }
        return row
    }
}
