import Foundation

/// The mapping files of a `migrations/` directory, checked against the models (SPEC §11.3): at most one
/// per step, between adjacent versions, every name and expression valid. Keyed by the step's `to`.
public enum MappingFileSet {
    /// - Throws: `DiagnosticList` (exit 2) located in the files. TODOs and merges are not errors here:
    ///   they are refusals of the step (exit 4), found when it is planned.
    /// - Parameter variables: `--var` values (over each file's `variables:`), which its expressions and filters may read.
    public static func load(directory: String, models: ModelHistory, variables: [String: String] = [:]) throws(DiagnosticList) -> [Int: MappingFile] {
        guard let folder = YAMLFolder.read(directory) else { return [:] }
        var result: [Int: MappingFile] = [:]
        var diagnostics: [Diagnostic] = []
        for entry in folder.files where entry.isMapping {
            do {
                var file = try MappingFileLoader.load(data: entry.data, path: entry.path)
                let problems = check(file, models: models, variables: variables).map { $0.withSource(file.source) }
                diagnostics += problems
                guard !problems.contains(where: { $0.severity == .error }) else { continue }
                if let earlier = result[file.to] {
                    diagnostics.append(Diagnostic(.error, "a second mapping file for v\(file.from) → v\(file.to) (the first is \(earlier.file))",
                                                  at: file.location, hint: "keep one mapping file per step").withSource(file.source))
                    continue
                }
                // What the file was checked with stays with it (status and diff plan it again).
                file.variables.merge(variables) { _, given in given }
                result[file.to] = file
            } catch {
                diagnostics += error.diagnostics
            }
        }
        if diagnostics.contains(where: { $0.severity == .error }) { throw DiagnosticList(diagnostics) }
        return result
    }

    /// The file's errors against models P (`from`) and N (`to`), its `$NAME`s read from `variables` (`--var`) over
    /// its own `variables:`.
    public static func check(_ file: MappingFile, models: ModelHistory, variables: [String: String] = [:]) -> [Diagnostic] {
        let versions = models.versions.map(String.init).joined(separator: ", ")
        guard let destination = models.model(version: file.to) else {
            return [Diagnostic(.error, "mapping to v\(file.to): there is no model version \(file.to)", at: file.location, hint: "versions: \(versions)")]
        }
        guard let source = models.model(version: file.from) else {
            return [Diagnostic(.error, "mapping from v\(file.from): there is no model version \(file.from)", at: file.location, hint: "versions: \(versions)")]
        }
        let previous = models.versions.filter { $0 < file.to }.max()
        guard previous == file.from else {
            return [Diagnostic(.error, "mapping from v\(file.from) to v\(file.to): the versions are not adjacent", at: file.location,
                               hint: previous.map { "a mapping file maps one step: from: \($0), to: \(file.to)" } ?? "v\(file.to) is the lowest version: no step reaches it")]
        }
        return MappingFilePlanner.compile(file, source: source, sourceLayout: models.createdLayouts[file.from] ?? LayoutBuilder.layout(for: source),
                                         destination: destination,
                                         context: PredicateContext(variables: variables, now: Date().timeIntervalSince1970)).errors   // validity only
    }
}
