import Foundation
import ArgumentParser
import Strata

/// `strata diff FROM TO`: the inferred mapping between two model versions, no store needed.
struct DiffCommand: StrataSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Show the inferred mapping between two model versions (no store needed).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The source model version.") var from: Int
    @Argument(help: "The destination model version.") var to: Int

    @Flag(name: .customLong("sql"), help: "Print the SQL of each step in run order, hooks' sql: steps expanded for --store's layout (nothing is written).")
    var sql = false

    struct Document: Encodable {
        var from: Int
        var to: Int
        var steps: [Step]
    }
    struct Step: Encodable {
        var from: Int
        var to: Int
        var metadataOnly: Bool
        var changes: [MappingChange]
        var tables: [TableAction]
        var rebuiltTables: [String]
        var destructive: [MappingChange]
        var sql: [String]
    }

    func run(output: Output) async throws {
        let history = try global.loadModels(output)
        for v in [from, to] where history.model(version: v) == nil {
            throw Diagnostic.error("there is no model version \(v)", hint: "versions: \(history.versions.map(String.init).joined(separator: ", "))")
        }
        guard from <= to else {
            throw Diagnostic.error("FROM (\(from)) is above TO (\(to))", hint: "migrations only go forward: strata diff \(to) \(from)")
        }
        if sql { return try printSQL(history: history, output: output) }
        let steps: [VersionStep]
        // The plan's `$NOW` is the preview's own time, as for `--sql`: a run binds its own (or `--now`).
        do { steps = try MappingInference.plan(models: history.models, from: from, to: to, mappings: history.mappings,
                                                       createdLayouts: history.createdLayouts,
                                                       context: PredicateContext(variables: global.variableValues, now: Date().timeIntervalSince1970)) } catch { throw error }
        output.json(Document(from: from, to: to, steps: steps.map {
            Step(from: $0.fromVersion, to: $0.toVersion, metadataOnly: $0.isMetadataOnly, changes: $0.changes, tables: $0.tableActions,
                 rebuiltTables: $0.rebuiltTables, destructive: $0.destructiveChanges, sql: $0.sqlText)
        }))
        for step in steps {
            output.result("v\(step.fromVersion) → v\(step.toVersion)\(step.isMetadataOnly ? " (metadata only)" : "")")
            for change in step.changes {
                let target = change.property.map { "\(change.entity).\($0)" } ?? change.entity
                output.result("  \(change.isDestructive ? "!" : "~") \(change.kind.rawValue) \(target): \(change.detail)\(change.isDestructive ? " (data loss)" : "")")
            }
            for action in step.tableActions {
                output.result("  table \(action.table): \(action.kind.rawValue)\(action.reasons.isEmpty ? "" : " (" + action.reasons.joined(separator: "; ") + ")")")
            }
            if !step.sqlText.isEmpty {
                output.result("  SQL:")
                for sql in step.sqlText { output.result("    " + sql.replacingOccurrences(of: "\n", with: "\n    ") + ";") }
            }
        }
        if steps.isEmpty { output.result("v\(from) → v\(to): no changes") }
    }
}
