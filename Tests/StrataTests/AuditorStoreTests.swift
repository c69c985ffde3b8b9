import Foundation
import Testing
@testable import Strata
import StrataTestSupport

/// `Auditor(store:modelsDirectory:)`: the model `strata audit` checks (the models directory's, else the recorded one)
/// and the drift check before it.
@Suite struct AuditorStoreTests {
    /// A closed store at version 1 with two items named `item-1…` and `item-2…`.
    static func store() throws -> Store {
        try Store.open(path: try PipelineSupport.makeStore(rows: 2), readOnly: true)
    }

    /// A models directory holding `files` (name → YAML).
    static func models(_ files: [String: String]) throws -> String {
        let directory = Temporary.directory("models")
        for (name, yaml) in files { try yaml.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8) }
        return directory
    }

    @Test func withoutAModelsDirectoryTheRecordedModelIsAudited() throws {
        let store = try Self.store()
        for directory in [nil, Temporary.directory("models") + "/missing", store.path] {   // none, missing, a file
            var warned = 0
            let auditor = try Auditor(store: store, modelsDirectory: directory) { warned += $0.count }
            #expect(auditor.model.file == "\(store.path) (recorded model, version 1)")
            #expect(auditor.model.version == 1)
            #expect(warned == 0)
            #expect(try auditor.run(on: store, scope: .full).totalViolations == 0)
        }
    }

    @Test func theDirectorysModelOfTheStoresVersionCarriesNewRules() throws {
        let store = try Self.store()
        // Validation rules change without a migration: the recorded hashes still match.
        let tightened = PipelineSupport.yaml.replacingOccurrences(of: "name: { type: string }", with: "name: { type: string, maxLength: 3 }")
        let directory = try Self.models(["1.yaml": tightened])
        let auditor = try Auditor(store: store, modelsDirectory: directory)
        #expect(auditor.model.file == directory + "/1.yaml")
        #expect(try auditor.run(on: store, scope: .full).totalViolations == 2)
    }

    @Test func aDirectoryWithoutTheStoresVersionFallsBackToTheRecordedModel() throws {
        let store = try Self.store()
        let directory = try Self.models(["2.yaml": PipelineSupport.yaml.replacingOccurrences(of: "version: 1", with: "version: 2")])
        let auditor = try Auditor(store: store, modelsDirectory: directory)
        #expect(auditor.model.file == "\(store.path) (recorded model, version 1)")
    }

    @Test func aDirectoryModelThatDriftedIsRefused() throws {
        let store = try Self.store()
        let edited = PipelineSupport.yaml.replacingOccurrences(of: "n:    { type: int64 }", with: "n:    { type: string }")
        let directory = try Self.models(["1.yaml": edited])
        do {
            _ = try Auditor(store: store, modelsDirectory: directory)
            Issue.record("expected drift")
        } catch MigrationError.drift(let report) {
            #expect(report.storeVersion == 1)
            #expect(report.items.map(\.kind) == [.modelHash])
            #expect(report.items.first?.found.hasPrefix(directory + "/1.yaml gives ") == true)
        }
    }
}
