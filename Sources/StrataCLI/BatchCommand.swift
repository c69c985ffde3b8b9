import ArgumentParser
import Foundation
import Strata
import StrataPostgres

/// `strata batch update|delete`: ad-hoc batch requests, one transaction each (SPEC §8).
struct BatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch", abstract: "Run a batch update or delete on the store.",
        subcommands: [Update.self, Delete.self])

    enum ResultKind: String, NamedOptionValue, Sendable { case ids, count, status }

    /// Options shared by both subcommands.
    struct Common: ParsableArguments {
        @Option(name: .customLong("entity"), help: "The entity.") var entity: String
        // A predicate, an argument or a date may start with `-` (`--arg -1`, `--now -0001-12-31`): taken as given.
        @Option(name: .customLong("where"), parsing: .unconditional, help: "A predicate selecting the objects (default: all).") var `where`: String?
        @Option(name: .customLong("arg"), parsing: .unconditionalSingleValue, help: "A value for the next %@ or %K (repeatable).") var arguments: [String] = []
        // No default in the declaration, the help says it (NamedOptionValue.swift, "Option defaults").
        @Option(name: .customLong("result"), help: "What to print: ids, count or status (default: count).") var resultOption: ResultKind?
        var result: ResultKind { resultOption ?? .count }
        @Option(name: .customLong("changes-out"), help: "Write the change set as JSON to FILE.") var changesOut: String?
        @Option(name: .customLong("audit"), help: "Audit before commit: touched (the changed rows, the default), full, or none.") var auditOption: AuditMode?
        var audit: AuditMode { auditOption ?? .touched }
        @Option(name: .customLong("on-violation"), help: "On violations: rollback (exit 3, the default) or warn (commit, report).") var onViolationOption: ViolationPolicy?
        var onViolation: ViolationPolicy { onViolationOption ?? .rollback }
        @Option(name: .customLong("max-samples"), parsing: .unconditional, help: "Samples per violated rule. (default: \(OptionCheck.defaultMaxSamples))") var maxSamplesOption: Int?
        var maxSamples: Int { maxSamplesOption ?? OptionCheck.defaultMaxSamples }
        @Option(name: .customLong("now"), parsing: .unconditional, help: "Pin $NOW (ISO 8601).") var now: String?
        @Flag(name: .customLong("exclude-subentities"), help: "Only these objects, not sub-entities'.") var excludeSubentities = false
        @OptionGroup var locking: LockOptions
        @OptionGroup var postgres: PostgresOptions

        func validate() throws { try OptionCheck.maxSamples(maxSamples) }

        func context(_ global: GlobalOptions) throws -> PredicateContext {
            var seconds = Date().timeIntervalSince1970
            if let now {
                guard let parsed = DateText.parse(now) else {
                    throw Diagnostic.error("--now '\(now)' is not an ISO 8601 date", hint: "e.g. 2024-05-21T00:00:00Z")
                }
                seconds = parsed
            }
            return PredicateContext(variables: global.variableValues, now: seconds)
        }

        /// `--arg` values: `%K` takes them as keys, `%@` coerces them like literals.
        var predicateArguments: [PredicateArgument] { arguments.map { .text($0) } }
    }

    struct Document: Encodable {
        var operation: String
        var entity: String
        var count: Int
        var objectIDs: [String]?
        var changes: Changes
        var audit: AuditResult?
        var rolledBack = false
    }

    struct Changes: Encodable {
        var updated: [String: [String]]
        var deleted: [String: [String]]
        var updatedCounts: [String: Int]
        var deletedCounts: [String: Int]
        init(_ c: ChangeSet) {
            updated = c.updated.mapValues { $0.map(\.uri) }
            deleted = c.deleted.mapValues { $0.map(\.uri) }
            updatedCounts = c.updatedCounts
            deletedCounts = c.deletedCounts
        }
    }

    static func report(_ result: BatchResult, common: Common, store: String?, output: Output) throws {
        if let path = common.changesOut { try result.changes.write(toFile: path, noWiderThan: store) }
        output.json(Document(operation: result.kind.rawValue, entity: result.entity, count: result.count,
                             objectIDs: result.objectIDs?.map(\.uri), changes: Changes(result.changes), audit: result.audit))
        switch common.result {
        case .ids: output.resultLines((result.objectIDs ?? []).lazy.map(\.uri))
        case .count: output.result(String(result.count))
        case .status: output.line(result.kind == .update ? "updated \(result.count) object(s)" : "deleted \(result.count) object(s)")
        }
        if let audit = result.audit, audit.totalViolations > 0 {
            output.note(Report(title: "Strata batch audit", audit: audit).render(as: .text).trimmingCharacters(in: .newlines))
            output.note("warning: \(audit.totalViolations) violation(s) committed (--on-violation warn)")
        }
    }

    /// Opens the store, runs a request through it and reports the result (or the rolled-back batch's audit).
    static func run(_ global: GlobalOptions, _ common: Common, output: Output,
                    _ body: (Store, PredicateContext) async throws -> BatchResult) async throws {
        try global.checkOutputs([("--changes-out", common.changesOut)], storePath: try global.storePath())
        let context = try common.context(global)
        // The store lock, as for `migrate`: a batch never interleaves with a migration (SPEC §8).
        let (store, lock) = try global.openLocked(lockTimeout: common.locking.lockTimeout, output: output)
        defer { lock.release() }
        _ = try store.metadata()
        let result = try await execute(output: output) { try await body(store, context) }
        try report(result, common: common, store: global.storeFile, output: output)
    }

    /// The models for a batch on a PostgreSQL store (its `--changes-out` checked as on SQLite).
    static func postgresModels(_ global: GlobalOptions, _ common: Common, _ output: Output) throws -> ModelHistory {
        try global.checkOutputs([("--changes-out", common.changesOut)], storePath: nil)
        return try global.loadModels(output)
    }

    /// Runs a batch on a PostgreSQL store with the audit the options ask for, reporting it as on SQLite
    /// (the rolled-back batch's audit on violations).
    static func runPostgres(_ global: GlobalOptions, _ common: Common, output: Output,
                            _ body: (ModelHistory, PredicateContext, PostgresBatch.Audit) async throws -> BatchResult) async throws {
        let models = try postgresModels(global, common, output)
        let context = try common.context(global)
        let audit = PostgresBatch.Audit(mode: common.audit, onViolation: common.onViolation, maxSamples: common.maxSamples)
        let result = try await execute(output: output) { try await body(models, context, audit) }
        try report(result, common: common, store: global.storeFile, output: output)
    }

    /// Runs a request, reporting the rolled-back batch's audit on violations.
    static func execute(output: Output, _ body: () async throws -> BatchResult) async throws -> BatchResult {
        do {
            return try await body()
        } catch let error as BatchViolationError {
            output.json(Document(operation: error.result.kind.rawValue, entity: error.result.entity, count: error.result.count,
                                 objectIDs: nil, changes: Changes(ChangeSet()), audit: error.result.audit, rolledBack: true))
            if let audit = error.result.audit { output.note(Report(title: "Strata batch audit", audit: audit).render(as: .text).trimmingCharacters(in: .newlines)) }
            throw error
        }
    }

    struct Update: StrataSubcommand {
        static let configuration = CommandConfiguration(commandName: "update", abstract: "Update every matching object in one SQL statement.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var common: Common
        @Option(name: .customLong("set"), help: ArgumentHelp("KEY=VALUE: a literal of the attribute's type (repeatable).", valueName: "KEY=VALUE"))
        var sets: [String] = []
        @Option(name: .customLong("set-expr"), help: ArgumentHelp("KEY=EXPR: an expression over the row, e.g. rating=rating+1.", valueName: "KEY=EXPR"))
        var setExpressions: [String] = []

        func run(output: Output) async throws {
            var values: [String: UpdateValue] = [:]
            var given: [String: String] = [:]   // attribute → the option that set it first, for the duplicate message
            for (option, list, make) in [("--set", sets, UpdateValue.literal), ("--set-expr", setExpressions, UpdateValue.expression)] {
                for item in list {
                    guard let eq = item.firstIndex(of: "="), eq != item.startIndex else {
                        throw Diagnostic.error("'\(item)' is not KEY=VALUE", hint: "e.g. --set favorite=true")
                    }
                    // The last one won; a hook's propertiesToUpdate refuses the same key twice (exit 2), so do these.
                    let key = String(item[..<eq])
                    if let first = given[key] {
                        throw Diagnostic.error("'\(key)' is set twice (\(first), \(option) \(item))",
                                               hint: "give each attribute once, with --set or with --set-expr")
                    }
                    given[key] = option + " " + item
                    values[key] = make(String(item[item.index(after: eq)...]))
                }
            }
            guard !values.isEmpty else { throw Diagnostic.error("nothing to update", hint: "give --set KEY=VALUE or --set-expr KEY=EXPR") }
            var request = BatchUpdateRequest(entity: common.entity, predicate: common.where, arguments: common.predicateArguments,
                                             propertiesToUpdate: values)
            request.includesSubentities = !common.excludeSubentities
            request.resultType = common.result == .ids ? .updatedObjectIDs : common.result == .count ? .updatedObjectsCount : .statusOnly
            if common.changesOut != nil { request.resultType = .updatedObjectIDs }
            if let url = try global.postgresStore() {
                let (lockTimeout, ddlLockTimeout) = (common.locking.lockTimeout, common.postgres.ddlLockTimeout)
                return try await BatchCommand.runPostgres(global, common, output: output) { models, context, audit in
                    try await PostgresBatch.run(url, models: models, update: request, context: context, lockTimeout: lockTimeout,
                                                ddlLockTimeout: ddlLockTimeout, audit: audit)
                }
            }
            let common = self.common
            try await BatchCommand.run(global, common, output: output) { store, context in
                try await store.execute(request, context: context, audit: common.audit, onViolation: common.onViolation,
                                        maxSamples: common.maxSamples)
            }
        }
    }

    struct Delete: StrataSubcommand {
        static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete every matching object, applying the delete rules.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var common: Common

        func run(output: Output) async throws {
            var request = BatchDeleteRequest(entity: common.entity, predicate: common.where, arguments: common.predicateArguments)
            request.includesSubentities = !common.excludeSubentities
            request.resultType = common.result == .ids ? .objectIDs : common.result == .count ? .count : .statusOnly
            if common.changesOut != nil { request.resultType = .objectIDs }
            if let url = try global.postgresStore() {
                let (lockTimeout, ddlLockTimeout) = (common.locking.lockTimeout, common.postgres.ddlLockTimeout)
                return try await BatchCommand.runPostgres(global, common, output: output) { models, context, audit in
                    try await PostgresBatch.run(url, models: models, delete: request, context: context, lockTimeout: lockTimeout,
                                                ddlLockTimeout: ddlLockTimeout, audit: audit)
                }
            }
            let common = self.common
            try await BatchCommand.run(global, common, output: output) { store, context in
                try await store.execute(request, context: context, audit: common.audit, onViolation: common.onViolation,
                                        maxSamples: common.maxSamples)
            }
        }
    }
}
