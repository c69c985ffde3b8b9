import Foundation

/// `strata import coredata`: an Xcode model bundle → the text of one Strata model file per version (SPEC §12).
/// Pure: reads the bundle, returns values; writing the files is the caller's.
///
/// ```swift
/// let result = try CoreDataImport.read(path: "App/Model.xcdatamodeld")
/// for v in result.versions { try v.yaml.write(toFile: "models/\(v.number).yaml", atomically: true, encoding: .utf8) }
/// ```
public enum CoreDataImport {
    /// One imported version.
    public struct Version: Sendable {
        /// The Strata version number.
        public var number: Int
        /// The version's name in the bundle (`Model 3`).
        public var name: String
        /// The XML file it was read from.
        public var file: String
        /// The model file's text.
        public var yaml: String
    }

    public struct Result: Sendable {
        /// Imported versions, oldest first.
        public var versions: [Version]
        /// Versions that could not be read (binary Xcode 3 models, missing `contents`).
        public var skipped: [NotCarried]
        /// Everything the bundle holds that the model files do not carry.
        public var notCarried: [NotCarried]
        /// The mapping files made from the bundle's mapping models, one per step.
        public var mappings: [Mapping] = []
        /// Mapping models that are not this bundle's (the models they record are another bundle's, or versions it
        /// does not have), each ignored with a warning naming it.
        public var warnings: [Diagnostic] = []
    }

    /// A mapping model made into the mapping file of one step (SPEC §11.3).
    public struct Mapping: Sendable {
        public var from: Int
        public var to: Int
        /// The mapping model (`Model2to3.xcmappingmodel`) and its XML file.
        public var name: String
        public var file: String
        /// The mapping file's text; nil when every entity mapping is what inference does (no file is needed).
        public var yaml: String?
        /// How many `TODO`s it holds (each is exit 4 until edited).
        public var todos: Int
    }

    /// Reads every version of the bundle at `path`.
    /// - Parameters:
    ///   - path: an `.xcdatamodeld` bundle, one `.xcdatamodel`, or a `contents` file.
    ///   - orderFile: version names, oldest first (`--order`), instead of the names' trailing numbers.
    /// - Throws: `DiagnosticList` (exit 2): colliding numbers, an `.xccurrentversion` that does not name the newest,
    ///   malformed model or mapping-model XML (at `file:line:column`), a model Xcode's compiler refuses (an entity
    ///   without a name, two entities or properties of one name, a destination or parent not in the model, an
    ///   unknown attribute type; at the element), an unreadable bundle.
    public static func read(path: String, orderFile: String? = nil) throws(DiagnosticList) -> Result {
        let bundle = try CoreDataBundle.open(path: path, orderFile: orderFile)
        let versions = bundle.versions
        typealias Parsed = (model: ImportedModel, notes: [CoreDataModelReader.Note], file: String)
        let parsed = Parallel.map(versions.count) { index -> Swift.Result<Parsed?, DiagnosticList> in
            let folder = versions[index].folder
            // `contents` inside an .xcdatamodel folder, or the path itself when it names the XML file.
            let file = FileManager.default.fileExists(atPath: folder + "/contents") ? folder + "/contents" : folder
            guard let data = FileManager.default.contents(atPath: file) else { return .success(nil) }
            do throws(DiagnosticList) {
                let root = try CoreDataXML.parse(data, file: file)
                guard root.name == "model" else {
                    throw DiagnosticList([.error("not a Core Data model: the root element is <\(root.name)>, not <model>",
                                                 at: SourceLocation(file: file, line: root.line, column: root.column),
                                                 hint: "pass the .xcdatamodeld bundle or an .xcdatamodel of your Xcode project")])
                }
                var reader = CoreDataModelReader()
                let model = reader.read(root)
                if !reader.problems.isEmpty {
                    throw DiagnosticList(reader.problems.map {
                        let at = CoreDataXML.elementStart(in: data, line: $0.line, column: $0.column)
                        return .error("invalid model: \($0.message)", at: SourceLocation(file: file, line: at.line, column: at.column),
                                      hint: "Xcode's model compiler refuses it too: fix the model in Xcode, or fix the XML by hand")
                    })
                }
                return .success((model, reader.notes, file))
            } catch { return .failure(error) }
        }
        var errors: [Diagnostic] = []
        var models: [(CoreDataBundle.Version, Parsed)] = []
        var skipped: [NotCarried] = []
        for (version, result) in zip(versions, parsed) {
            switch result {
            case .failure(let e): errors += e.diagnostics
            case .success(let p?): models.append((version, p))
            case .success(nil):
                let fm = FileManager.default
                let binary = fm.fileExists(atPath: version.folder + "/elements") || fm.fileExists(atPath: version.folder + "/layout")
                skipped.append(NotCarried(version: version.number, versionName: version.name, file: version.folder,
                                          reason: binary ? "only binary 'elements'/'layout' files (an Xcode 3 model): skipped; open it in Xcode and save it to get XML"
                                                         : "no 'contents' file: skipped"))
            }
        }
        if !errors.isEmpty { throw DiagnosticList(errors) }
        for i in models.indices.dropFirst() {
            models[i].1.notes += resolveRenames(&models[i].1.model, previous: models[i - 1].1.model,
                                                from: models[i - 1].0.number, to: models[i].0.number)
        }
        let mappingModels = try readMappingModels(bundle.mappingModels)
        var result = Result(versions: [], skipped: skipped, notCarried: skipped)
        for (version, p) in models {
            result.versions.append(Version(number: version.number, name: version.name, file: p.file,
                                           yaml: ImportYAMLWriter.yaml(p.model, version: version.number, sourceName: version.name + ".xcdatamodel")))
            result.notCarried += p.notes.map {
                NotCarried(version: version.number, versionName: version.name, file: p.file, entity: $0.entity, property: $0.property, reason: $0.reason)
            }
        }
        translate(mappingModels, bundle: bundle.name, into: &result)
        return result
    }
}
