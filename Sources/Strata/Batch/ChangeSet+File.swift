import Foundation

extension ChangeSet {
    /// Writes `jsonData()` to a file.
    public func write(toFile path: String) throws {
        do { try OutputFile.write(jsonData(), to: path) } catch {
            throw StoreError.other("cannot write the change set to '\(path)': \(error.localizedDescription)")
        }
    }
}
