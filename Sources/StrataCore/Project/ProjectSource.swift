import Foundation

/// Where an application's model files or hook files come from: a folder, a folder of an app bundle's
/// resources, YAML texts, or values already loaded.
///
/// ```swift
/// let models = ProjectSource.bundle(.module, subdirectory: "models")     // resources: [.copy("models")]
/// let hooks = ProjectSource.directory("/srv/app/migrations")
/// let inline = ProjectSource.yaml(["1.yaml": "version: 1\nentities: …"])
/// ```
public struct ProjectSource: Sendable {
    enum Location: Sendable {
        case directory(String)
        /// A bundle's resource folder: the bundle's path and the folder's name (resolved when loading).
        case bundle(bundlePath: String, resourcePath: String?, subdirectory: String)
        case yaml([String: String])
    }

    let location: Location

    /// The `*.yaml` / `*.yml` files of a folder, in file-name order.
    public static func directory(_ path: String) -> ProjectSource { ProjectSource(location: .directory(path)) }

    /// A folder of an app bundle's resources (`resources: [.copy("models")]` in a SwiftPM target, a folder
    /// reference in Xcode): `subdirectory` inside the bundle's resource folder.
    public static func bundle(_ bundle: Bundle, subdirectory: String) -> ProjectSource {
        ProjectSource(location: .bundle(bundlePath: bundle.bundlePath, resourcePath: bundle.resourcePath, subdirectory: subdirectory))
    }

    /// YAML texts, file name → text, in file-name order; the names locate diagnostics (`1.yaml:3:7`) and are
    /// the hooks' recorded file names.
    public static func yaml(_ files: [String: String]) -> ProjectSource { ProjectSource(location: .yaml(files)) }

    /// What the source names, for messages: a path, `'models' in the bundle at …`, or `YAML texts`.
    public var description: String {
        switch location {
        case .directory(let path): return "'\(path)'"
        case .bundle(let bundlePath, _, let subdirectory): return "'\(subdirectory)' in the bundle at '\(bundlePath)'"
        case .yaml: return "YAML texts"
        }
    }

    /// The folder to read, checked to exist; nil for YAML texts.
    /// - Throws: `DiagnosticList` naming the folder (library terms: no command-line flags) when it is missing.
    func folder(what: String) throws(DiagnosticList) -> String? {
        let path: String
        let hint: String
        switch location {
        case .yaml: return nil
        case .directory(let directory):
            path = directory
            hint = "check the path (relative paths start at the process's current directory)"
        case .bundle(_, let resourcePath, let subdirectory):
            path = ((resourcePath ?? "") as NSString).appendingPathComponent(subdirectory)
            hint = "copy the folder into the bundle: `resources: [.copy(\"\(subdirectory)\")]` in the target (a folder reference in Xcode)"
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue { return path }
        throw DiagnosticList([.error("the \(what) folder \(description) does not exist", hint: hint)])
    }

    /// The model versions of the source.
    /// - Throws: `DiagnosticList`: a missing folder, no model file, or every error of every file.
    public func loadModels() throws(DiagnosticList) -> ModelHistory {
        if case .yaml(let files) = location { return try ModelHistory.load(yaml: files) }
        return try ModelHistory.load(directory: try folder(what: "models")!)
    }

    /// The hooks of the source, checked against `models`. A folder named here must exist: a missing one is a
    /// packaging mistake more often than an app without hooks (which passes no hook source at all).
    /// - Throws: `DiagnosticList`: a missing folder, or every error of every file.
    public func loadHooks(models: ModelHistory, variables: [String: String] = [:]) throws(DiagnosticList) -> HookSet {
        if case .yaml(let files) = location { return try HookSet.load(yaml: files, models: models, variables: variables) }
        return try HookSet.load(directory: try folder(what: "hooks")!, models: models, variables: variables)
    }

    /// The mapping files of the source (SPEC §11.3; they live beside the hooks in `migrations/`), checked
    /// against `models`, keyed by the version their step reaches. YAML texts have none.
    /// - Parameter variables: `--var` values (the library's `variables`) their expressions and filters may read.
    /// - Throws: `DiagnosticList`: a missing folder, or every error of every mapping file.
    public func loadMappings(models: ModelHistory, variables: [String: String] = [:]) throws(DiagnosticList) -> [Int: MappingFile] {
        guard let folder = try folder(what: "hooks") else { return [:] }
        return try MappingFileSet.load(directory: folder, models: models, variables: variables)
    }
}
