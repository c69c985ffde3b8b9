import Foundation

extension ChangeSet {
    /// Writes `jsonData()` to a file, with no wider permission bits than `store`'s when given (the change set
    /// names the objects a run changed).
    public func write(toFile path: String, noWiderThan store: String? = nil) throws {
        do { try OutputFile.write(jsonData(), to: path, noWiderThan: store) } catch {
            throw StoreError.other("cannot write the change set to '\(path)': \(error.localizedDescription)")
        }
    }
}
