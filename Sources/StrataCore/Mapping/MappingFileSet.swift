import Foundation

/// The mapping files of a `migrations/` directory, checked against the models (SPEC §11.3): at most one
/// per step, between adjacent versions, every name and expression valid. Keyed by the step's `to`.
public enum MappingFileSet {
    /// - Throws: `DiagnosticList` (exit 2) located in the files. TODOs and merges are not errors here:
    ///   they are refusals of the step (exit 4), found when it is planned.
    public static func load(directory: String, models: ModelHistory) throws(DiagnosticList) -> [Int: MappingFile] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else { return [:] }
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }
            .sorted(by: FileNameOrder.areInIncreasingOrder)
        var result: [Int: MappingFile] = [:]
        var diagnostics: [Diagnostic] = []
        for name in files {
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8),
                  MappingFileLoader.isMappingFile(text) else { continue }
            do {
                let file = try MappingFileLoader.load(path: path)
                let problems = check(file, models: models).map { $0.withSource(file.source) }
                diagnostics += problems
                guard !problems.contains(where: { $0.severity == .error }) else { continue }
                if let earlier = result[file.to] {
                    diagnostics.append(Diagnostic(.error, "a second mapping file for v\(file.from) → v\(file.to) (the first is \(earlier.file))",
                                                  at: file.location, hint: "keep one mapping file per step").withSource(file.source))
                    continue
                }
                result[file.to] = file
            } catch {
                diagnostics += error.diagnostics
            }
        }
        if diagnostics.contains(where: { $0.severity == .error }) { throw DiagnosticList(diagnostics) }
        return result
    }

    /// The file's errors against models P (`from`) and N (`to`).
    public static func check(_ file: MappingFile, models: ModelHistory) -> [Diagnostic] {
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
        return MappingFilePlanner.compile(file, source: source, sourceLayout: LayoutBuilder.layout(for: source), destination: destination).errors
    }
}
