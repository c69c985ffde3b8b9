import ArgumentParser
import Foundation
import Strata

/// `strata diff FROM TO --sql [--store S]` (SPEC §11.4 "Seeing what will run").
extension DiffCommand {
    struct SQLDocument: Encodable {
        var from: Int
        var to: Int
        /// The store whose recorded layout named the tables and columns; nil for a new store's.
        var store: String?
        var sections: [SQLPreview.Section]
    }

    /// Prints each step's SQL in run order, placeholders expanded for the store's recorded layout (the store is
    /// opened read-only) or a new store's.
    func printSQL(history: ModelHistory, output: Output) throws {
        let hooks = try HookSet.load(directory: try global.hooksDirectory(), models: history, variables: global.variableValues)
        let storePath = try? global.storePath()
        var sourceLayout: StoreLayout?
        if let storePath {
            try Preflight.checkFile(atPath: storePath, forWriting: false)
            let metadata = try Store.open(path: storePath, readOnly: true).metadata()
            guard metadata.version == from else {
                throw Diagnostic.error("'\(storePath)' is at version \(metadata.version), not \(from)",
                                       hint: "the store's layout is known at its own version: strata diff \(metadata.version) \(to) --sql --store \(storePath)")
            }
            sourceLayout = metadata.layout
        }
        // `$NOW` is the preview's own time, for the mapping file as for hooks: a run binds its own (or `--now`).
        let now = Date().timeIntervalSince1970
        let steps = try MappingInference.plan(models: history.models, from: from, to: to,
                                              sourceLayout: sourceLayout ?? LayoutBuilder.layout(for: history.model(version: from)!),
                                              mappings: history.mappings,
                                              context: PredicateContext(variables: global.variableValues, now: now))
        let sections = try SQLPreview.sections(steps: steps, hooks: hooks, models: history, variables: global.variableValues,
                                               now: now)
        output.json(SQLDocument(from: from, to: to, store: storePath, sections: sections))
        if steps.isEmpty { output.result("-- v\(from) → v\(to): no changes") }
        for line in SQLPreview.text(sections) { output.result(line) }
    }
}
