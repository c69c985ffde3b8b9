import Foundation

/// The `*.yaml` / `*.yml` files of a folder (`models/`, `migrations/`), in ``FileNameOrder``, each read from
/// disk once. `migrations/` holds hook files, Swift stage declarations and mapping files side by side; the
/// hook and mapping loaders take their own files from one listing instead of each reading every file.
package struct YAMLFolder: Sendable {
    package struct File: Sendable {
        package var path: String
        /// The bytes, or nil when the file could not be read.
        package var data: Data?

        package var text: String? { data.flatMap { String(data: $0, encoding: .utf8) } }
        /// Whether it is a mapping file (`mapping: { from:, to: }` at the top).
        package var isMapping: Bool { text.map(MappingFileLoader.isMappingFile) ?? false }
    }

    package var files: [File]

    /// Whether `directory` exists and is a folder.
    package static func exists(_ directory: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// Whether a file of this name is one the folder's readers take (`.yaml`, `.yml`).
    package static func isYAML(_ name: String) -> Bool { name.hasSuffix(".yaml") || name.hasSuffix(".yml") }

    /// The paths of the folder's YAML files, in file-name order; nil when the folder does not exist.
    package static func paths(in directory: String) -> [String]? {
        guard exists(directory) else { return nil }
        return ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            .filter(isYAML)
            .sorted(by: FileNameOrder.areInIncreasingOrder)
            .map { directory.hasSuffix("/") ? directory + $0 : directory + "/" + $0 }
    }

    /// Reads every YAML file of `directory`; nil when the folder does not exist.
    package static func read(_ directory: String) -> YAMLFolder? {
        paths(in: directory).map { YAMLFolder(files: $0.map { File(path: $0, data: FileManager.default.contents(atPath: $0)) }) }
    }
}
