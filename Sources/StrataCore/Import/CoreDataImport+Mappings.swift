import Foundation

/// The bundle's mapping models (SPEC §12): read with the model versions (malformed XML is exit 2 before
/// anything is written), each matched to the step it maps and translated into that step's mapping file.
extension CoreDataImport {
    /// Each `.xcmappingmodel` with its XML read, or nil when it has no `xcmapping.xml`.
    static func readMappingModels(_ paths: [String]) throws(DiagnosticList) -> [(path: String, model: CoreDataMappingModel?)] {
        var read: [(path: String, model: CoreDataMappingModel?)] = []
        var errors: [Diagnostic] = []
        for path in paths {
            do throws(DiagnosticList) { read.append((path, try CoreDataMappingModel.read(path: path))) } catch { errors += error.diagnostics }
        }
        if !errors.isEmpty { throw DiagnosticList(errors) }
        return read
    }

    /// One mapping file per step that a mapping model maps; what is not converted goes to `notCarried`.
    /// A mapping model whose recorded models are not this bundle's (`bundle`, its name) is ignored with a warning:
    /// Core Data applies a mapping model only to the two models it was made for.
    static func translate(_ mappingModels: [(path: String, model: CoreDataMappingModel?)], bundle: String, into result: inout Result) {
        guard !mappingModels.isEmpty else { return }
        func skip(_ path: String, _ file: String, _ reason: String) {
            result.notCarried.append(NotCarried(version: nil, versionName: (path as NSString).lastPathComponent, file: file, reason: reason))
        }
        // Models are loaded when a step needs them (a step named by the recorded paths needs two of them).
        let texts = Dictionary(result.versions.map { ($0.number, $0.yaml) }, uniquingKeysWith: { a, _ in a })
        var loaded: [Int: Model?] = [:]
        func loadModel(_ version: Int) -> Model? {
            if let m = loaded[version] { return m }
            let m = texts[version].flatMap { try? ModelLoader.load(yaml: $0, file: "\(version).yaml") }
            loaded[version] = m
            return m
        }
        let versions = result.versions.map { (name: $0.name, number: $0.number) }
        var byStep: [Int: String] = [:]
        for (path, mapping) in mappingModels {
            guard let mapping else {
                skip(path, path, "no readable xcmapping.xml in the mapping model: not converted")
                continue
            }
            if let reason = CoreDataMappingImport.foreign(mapping, bundle: bundle, versions: versions.map(\.name)) {
                result.warnings.append(.warning(
                    "\(mapping.name) is not a mapping model of \(bundle).xcdatamodeld: \(reason); ignored",
                    at: SourceLocation(file: mapping.file, line: mapping.modelLine ?? 1, column: 1),
                    hint: "Core Data applies a mapping model only to the two models it was made for; to import it with this bundle, "
                        + "set its source and destination models to versions of \(bundle).xcdatamodeld in Xcode"))
                continue
            }
            switch CoreDataMappingImport.step(of: mapping, versions: versions, model: loadModel) {
            case .failure(let note):
                skip(path, mapping.file, "not converted: " + note.reason)
            case .success(let (from, to)):
                if let first = byStep[to] {
                    skip(path, mapping.file, "a second mapping model for v\(from) → v\(to) (the first is \(first)): not converted, a step has one mapping file")
                    continue
                }
                guard let source = loadModel(from), let destination = loadModel(to) else {
                    skip(path, mapping.file, "the imported models of v\(from) → v\(to) do not load (the lint below says why): not converted")
                    continue
                }
                byStep[to] = mapping.name
                let (draft, notes) = CoreDataMappingImport.draft(mapping, source: source, destination: destination)
                result.notCarried += notes.map {
                    NotCarried(version: to, versionName: mapping.name, file: mapping.file, entity: $0.entity, property: $0.property, reason: $0.reason)
                }
                result.mappings.append(Mapping(from: from, to: to, name: mapping.name, file: mapping.file,
                                               yaml: draft.entities.isEmpty ? nil : draft.render().yaml, todos: draft.todos))
            }
        }
    }
}
