import Foundation

/// Every version of a model: the files of a `models/` directory, sorted by version.
public struct ModelHistory: Sendable {
    public var models: [Model]
    /// The mapping files of `migrations/` by the version their step reaches (`MappingFileSet.load`).
    public var mappings: [Int: MappingFile] = [:]
    /// The layout of a store created at each loaded version, as the model checker built it: planning
    /// reuses it when a step's kept columns land on the same names (most steps). Measured without this
    /// reuse: `strata diff 1 2` on 200 × 30 entities 153 ms instead of 119 ms (medians of 9, same run,
    /// release build, 2026-11-24). Held here, not on `Model`: a model never holds storage (Model → Schema).
    public internal(set) var createdLayouts: [Int: StoreLayout] = [:]
    /// Warnings of all files (inverses that do not point back, …), each distinct message once, at the
    /// newest version that still has it: a relationship without inverse kept for 100 versions is one warning.
    public var warnings: [Diagnostic] {
        var seen: Set<String> = []
        var result: [Diagnostic] = []
        for model in models.reversed() {
            for warning in model.warnings.reversed() where seen.insert(warning.message).inserted { result.append(warning) }
        }
        return result.reversed()
    }

    public init(models: [Model]) { self.models = models.sorted { $0.version < $1.version } }

    public func model(version: Int) -> Model? { models.first { $0.version == version } }
    public var latest: Model? { models.last }
    public var versions: [Int] { models.map(\.version) }

    /// Loads every `*.yaml` / `*.yml` file of `directory` (in file-name order).
    /// - Throws: `DiagnosticList` with every error of every file; two files with one version
    ///   is an error at the later file's `version:`.
    public static func load(directory: String) throws(DiagnosticList) -> ModelHistory {
        guard let folder = YAMLFolder.read(directory) else {
            throw DiagnosticList([.error("models directory '\(directory)' does not exist",
                                         hint: "check the path (a relative one starts at the current directory)")])
        }
        guard !folder.files.isEmpty else {
            throw DiagnosticList([.error("no model files (*.yaml, *.yml) in '\(directory)'", hint: "add models/1.yaml")])
        }
        // Parsing is pure, so files may load in parallel; results keep file order.
        let bytes = folder.files.reduce(0) { $0 + ($1.data?.count ?? 0) }
        return try assemble(Parallel.map(folder.files.count, spread: bytes >= Self.parallelBytes) { index -> Result<Loaded, DiagnosticList> in
            do throws(DiagnosticList) { return .success(try ModelLoader.loadChecked(folder.files[index])) } catch { return .failure(error) }
        })
    }

    /// Loads models from YAML texts (file name → text, in file-name order); the names locate diagnostics.
    ///
    /// ```swift
    /// let models = try ModelHistory.load(yaml: ["1.yaml": "version: 1\nentities:\n  Note:\n    attributes:\n      text: { type: string }\n"])
    /// ```
    /// - Throws: `DiagnosticList` with every error of every text, as ``load(directory:)``.
    public static func load(yaml files: [String: String]) throws(DiagnosticList) -> ModelHistory {
        guard !files.isEmpty else { throw DiagnosticList([.error("no model texts given", hint: "give at least version 1's YAML")]) }
        let names = files.keys.sorted(by: FileNameOrder.areInIncreasingOrder)
        let bytes = files.values.reduce(0) { $0 + $1.utf8.count }
        return try assemble(Parallel.map(names.count, spread: bytes >= Self.parallelBytes) { index -> Result<Loaded, DiagnosticList> in
            do throws(DiagnosticList) {
                return .success(try ModelLoader.loadChecked(yaml: files[names[index]]!, file: names[index]))
            } catch {
                return .failure(error)
            }
        })
    }

    /// How much YAML pays for loading files on several threads. Below it, a thread's hand-off costs more than it
    /// saves, and a command's models already load beside its argument parsing (the CLI's `ModelPrefetch`): the
    /// add-column migrate of Benchmarks/small_command.py (4 example files, 4 KB) was 1.1 ms faster with its files
    /// on one thread (12.8 against 13.9 ms over process start, medians of 25, 2 CPUs, 2026-11-28), while
    /// `strata lint` on the 117-version history keeps its parallel speed-up (see `Parallel`).
    static let parallelBytes = 64 << 10

    /// The history of loaded files (in file order): every error, a version declared twice at the later file, a
    /// `renamedFrom` that swaps names (`swappedRenames`).
    typealias Loaded = (model: Model, createdLayout: StoreLayout)

    static func assemble(_ results: [Result<Loaded, DiagnosticList>]) throws(DiagnosticList) -> ModelHistory {
        var loaded: [Loaded] = []
        var diagnostics: [Diagnostic] = []
        for result in results {
            switch result {
            case .success(let file): loaded.append(file)
            case .failure(let error): diagnostics += error.diagnostics
            }
        }
        var byVersion: [Int: Model] = [:]
        var layouts: [Int: StoreLayout] = [:]
        for (model, layout) in loaded {
            if let earlier = byVersion[model.version] {
                let location = versionLocation(in: model)
                diagnostics.append(Diagnostic(.error, "version \(model.version) is already declared in \(earlier.file)",
                                              at: location, hint: "give each model file its own version").withSource(model.source))
            } else {
                byVersion[model.version] = model
                layouts[model.version] = layout
            }
        }
        if diagnostics.contains(where: { $0.severity == .error }) { throw DiagnosticList(diagnostics) }
        var history = ModelHistory(models: Array(byVersion.values))
        let swapped = swappedRenames(history.models)
        if !swapped.isEmpty { throw DiagnosticList(swapped) }
        history.createdLayouts = layouts
        return history
    }

    static func versionLocation(in model: Model) -> SourceLocation {
        var line = 1
        for text in model.source.split(separator: "\n", omittingEmptySubsequences: false) {
            if text.hasPrefix("version:") {
                let value = text.dropFirst("version:".count)
                let column = "version:".count + value.prefix { $0 == " " }.count + 1
                return SourceLocation(file: model.file, line: line, column: column)
            }
            line += 1
        }
        return SourceLocation(file: model.file, line: 1, column: 1)
    }
}

