import Foundation

/// Infers lightweight migrations between model versions (SPEC §4). Pure: models and layouts in,
/// `VersionStep` plans (with their exact SQL) or refusals out.
///
/// ```swift
/// let steps = try MappingInference.plan(models: history.models, from: 1, to: 4, sourceLayout: metadata.layout)
/// for step in steps { print(step.sqlText.joined(separator: ";\n")) }
/// ```
public enum MappingInference {
    /// The plan of one step between consecutive versions.
    /// - Parameters:
    ///   - source: the model the store is at.
    ///   - sourceLayout: the store's recorded layout (never names guessed from the model).
    ///   - destination: the next version.
    ///   - earlier: names of every version up to `source` (a `renamedFrom` naming one of them is an old rename).
    ///   - createdLayout: the layout of a store created at `destination` (`ModelHistory.createdLayouts`), reused
    ///     when the step's kept columns land on its names.
    ///   - context: what a mapping file's expressions and filters read: `$NOW` (a run passes its own, fixed for the
    ///     run, or `--now`; the default, the time of the call, only suits checks of validity) and `--var` values.
    /// - Throws: `MappingError` listing every change that cannot be inferred.
    public static func step(from source: Model, sourceLayout: StoreLayout, to destination: Model,
                            earlier: EarlierNames, mapping file: MappingFile? = nil,
                            createdLayout: StoreLayout? = nil,
                            context: PredicateContext = PredicateContext(now: Date().timeIntervalSince1970)) throws(MappingError) -> VersionStep {
        var corr = ModelCorrespondence(source: source, destination: destination, earlier: earlier)
        var mapping: CompiledMapping?
        if let file {
            let (compiled, errors, todos) = MappingFilePlanner.compile(file, source: source, sourceLayout: sourceLayout, destination: destination,
                                                                      context: context)
            // Errors were found when the files were loaded (exit 2); one found only against the store's
            // recorded layout still stops the step before anything runs.
            let invalid = errors.map {
                MappingRefusal(fromVersion: source.version, toVersion: destination.version, entity: "mapping file", change: $0.message,
                               hint: $0.hint ?? "fix the mapping file", location: $0.location)
            }
            guard invalid.isEmpty, todos.isEmpty, let compiled else { throw MappingError(todos + invalid) }
            corr.apply(compiled)
            mapping = compiled
        }
        guard corr.refusals.isEmpty else { throw MappingError(corr.refusals.map { $0.pointingAt(file) }) }
        let analysis = ChangeAnalysis(corr, sourceLayout: sourceLayout, mapping: mapping)
        guard analysis.refusals.isEmpty else { throw MappingError(analysis.refusals.map { $0.pointingAt(file) }) }
        let layout = LayoutBuilder.layout(for: destination, keeping: analysis.keeping, created: createdLayout)
        let planner = TablePlanner(corr, source: sourceLayout, destination: layout, mapping: mapping)
        guard planner.refusals.isEmpty else { throw MappingError(planner.refusals.map { $0.pointingAt(file) }) }
        var step = VersionStep(fromVersion: source.version, toVersion: destination.version,
                               changes: MappingFileReport.changes(mapping, newIDTables: planner.newIDTables, layout: layout) + analysis.changes,
                               tableActions: planner.actions, operations: planner.operations,
                               sourceLayout: sourceLayout, destinationLayout: layout)
        step.mappingFile = file
        step.droppedLinks = planner.droppedLinks
        step.tablePlans = planner.shared
        step.mappedEntities = MappingFileReport.entities(mapping, sourceLayout: sourceLayout, newIDTables: planner.newIDTables, layout: layout)
        return step
    }

    /// The steps from version `from` to version `to`, one per consecutive pair of versions.
    /// - Parameters:
    ///   - models: every version (any order).
    ///   - sourceLayout: the layout the store has at `from` (its recorded layout); nil = a store created at `from`.
    ///   - createdLayouts: `ModelHistory.createdLayouts`, reused where they fit (none: computed).
    ///   - context: `$NOW` and `--var` values for the mapping files (see ``step(from:sourceLayout:to:earlier:mapping:createdLayout:context:)``).
    /// - Throws: `MappingError` with the refusals of the first step that has any.
    public static func plan(models: [Model], from: Int, to: Int, sourceLayout: StoreLayout? = nil,
                            mappings: [Int: MappingFile] = [:],
                            createdLayouts: [Int: StoreLayout] = [:],
                            context: PredicateContext = PredicateContext(now: Date().timeIntervalSince1970)) throws(MappingError) -> [VersionStep] {
        let sorted = models.sorted { $0.version < $1.version }
        guard let start = sorted.firstIndex(where: { $0.version == from }) else { return [] }
        var earlier = EarlierNames(Array(sorted[...start]))
        var layout = sourceLayout ?? createdLayouts[from] ?? LayoutBuilder.layout(for: sorted[start])
        var steps: [VersionStep] = []
        var index = start
        while index + 1 < sorted.count, sorted[index + 1].version <= to {
            let step = try step(from: sorted[index], sourceLayout: layout, to: sorted[index + 1], earlier: earlier,
                                mapping: mappings[sorted[index + 1].version],
                                createdLayout: createdLayouts[sorted[index + 1].version], context: context)
            steps.append(step)
            layout = step.destinationLayout
            index += 1
            if index + 1 < sorted.count, sorted[index + 1].version <= to { earlier.add(sorted[index]) }
        }
        return steps
    }

    /// `strata lint`: non-inferable changes (errors) and destructive changes (warnings) between
    /// consecutive versions.
    public static func lint(_ models: [Model], mappings: [Int: MappingFile] = [:], variables: [String: String] = [:]) -> [Diagnostic] {
        lintFindings(models, mappings: mappings, variables: variables).diagnostics
    }

    /// `lint`'s findings, and how many of its errors are changes that cannot be inferred (exit 4, as in
    /// `diff` and `migrate`).
    public static func lintFindings(_ models: [Model], mappings: [Int: MappingFile] = [:],
                                    createdLayouts: [Int: StoreLayout] = [:],
                                    variables: [String: String] = [:]) -> (diagnostics: [Diagnostic], refusals: Int) {
        // Validity only: any `$NOW` will do.
        let context = PredicateContext(variables: variables, now: Date().timeIntervalSince1970)
        let sorted = models.sorted { $0.version < $1.version }
        guard let first = sorted.first else { return ([], 0) }
        var diagnostics: [Diagnostic] = []
        var refusals = 0
        var earlier = EarlierNames([first])
        var layout = createdLayouts[first.version] ?? LayoutBuilder.layout(for: first)
        for (source, destination) in zip(sorted, sorted.dropFirst()) {
            do {
                let step = try step(from: source, sourceLayout: layout, to: destination, earlier: earlier,
                                    mapping: mappings[destination.version], createdLayout: createdLayouts[destination.version],
                                    context: context)
                layout = step.destinationLayout
                for change in step.destructiveChanges {
                    // A mapping file's filter is located at its entity in the file.
                    if change.kind == .mapEntity, let file = step.mappingFile, let e = file.entity(change.entity) {
                        diagnostics.append(Diagnostic(.warning, "v\(source.version) → v\(destination.version): \(change.entity) is \(change.detail)",
                                                      at: e.location, hint: "the source rows the filter leaves out are deleted when stores migrate")
                            .withSource(file.source))
                        continue
                    }
                    let location = locate(change, in: source)
                    diagnostics.append(Diagnostic(.warning, "v\(source.version) → v\(destination.version): \(change.property.map { "\(change.entity).\($0)" } ?? change.entity) is \(change.detail)",
                                                  at: location, hint: "data is lost when stores migrate; keep it, or move the data first in a `before: \(destination.version)` hook (it reads v\(source.version) before the step drops it)")
                        .withSource(source.source))
                }
            } catch {
                let mapping = mappings[destination.version]
                diagnostics += error.refusals.map {
                    $0.diagnostic.withSource(mapping != nil && $0.location?.file == mapping?.file ? mapping!.source : destination.source)
                }
                refusals += error.refusals.count
                layout = createdLayouts[destination.version] ?? LayoutBuilder.layout(for: destination)
            }
            earlier.add(destination)
        }
        return (diagnostics, refusals)
    }

    /// Where a removed entity or property was declared (in the source model).
    static func locate(_ change: MappingChange, in model: Model) -> SourceLocation? {
        guard let e = model.entity(change.entity) else { return nil }
        if let p = change.property { return e.attribute(p)?.location ?? e.relationship(p)?.location ?? e.location }
        return e.location
    }
}
