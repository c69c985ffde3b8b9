import Foundation
import Testing
import StrataTestSupport

/// `strata import coredata` that cannot write one of its files, on the built binary: exit 1 and the output exactly
/// as it was (model files, mapping files, directories), because every file is staged before any is put in place.
/// Before, `--force` had already replaced models/1.yaml and models/2.yaml when models/3.yaml failed.
@Suite struct ImportCoreDataFailedWriteCLITests {
    static let notes = CLI.packageRoot + "/Tests/StrataTests/Fixtures/coredata/Notes/Notes.xcdatamodeld"

    /// Every path under `dir` with its content (directories as `/`), to compare before and after.
    static func snapshot(_ dir: String) -> [String] {
        (FileManager.default.subpaths(atPath: dir) ?? []).sorted().map { path in
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: dir + "/" + path, isDirectory: &isDirectory)
            return isDirectory.boolValue ? path + "/" : path + ": " + (ImportCoreDataCLITests.read(dir + "/" + path) ?? "?")
        }
    }

    @Test func aForcedImportThatCannotReplaceTheThirdModelChangesNothing() throws {
        let dir = try ImportCoreDataCLITests.directory()
        #expect(try CLI.run(["import", "coredata", ImportCoreDataCLITests.recipes], in: dir).status == 0)
        for version in [1, 2] {
            let file = dir + "/models/\(version).yaml"
            try (ImportCoreDataCLITests.read(file)! + "# edited by hand\n").write(toFile: file, atomically: true, encoding: .utf8)
        }
        try FileManager.default.removeItem(atPath: dir + "/models/3.yaml")
        try FileManager.default.createDirectory(atPath: dir + "/models/3.yaml", withIntermediateDirectories: false)
        let before = Self.snapshot(dir)

        let run = try CLI.run(["import", "coredata", ImportCoreDataCLITests.recipes, "--force"], in: dir)
        #expect(run.status == 1)
        #expect(run.stdout == "")
        #expect(run.stderr == """
            error: cannot replace 'models/3.yaml': Is a directory
            hint: nothing was written: the output is as it was before the import

            """)
        #expect(Self.snapshot(dir) == before)
        #expect(ImportCoreDataCLITests.read(dir + "/models/1.yaml")?.hasSuffix("# edited by hand\n") == true)

        let json = try CLI.run(["import", "coredata", ImportCoreDataCLITests.recipes, "--force", "--format", "json"], in: dir)
        #expect(json.status == 1)
        #expect(Self.snapshot(dir) == before)
    }

    /// The mapping file is the one that cannot be written: the models directory the import would have created is
    /// not left behind, and no model file is written.
    @Test func aMappingFileThatCannotBeWrittenLeavesNoModels() throws {
        let dir = try ImportCoreDataCLITests.directory()
        try FileManager.default.createDirectory(atPath: dir + "/migrations/v2-mapping.yaml", withIntermediateDirectories: true)
        let before = Self.snapshot(dir)
        let run = try CLI.run(["import", "coredata", Self.notes, "--force"], in: dir)
        #expect(run.status == 1)
        #expect(run.stdout == "")
        #expect(run.stderr == """
            error: cannot replace 'migrations/v2-mapping.yaml': Is a directory
            hint: nothing was written: the output is as it was before the import

            """)
        #expect(Self.snapshot(dir) == before)
        #expect(before == ["migrations/", "migrations/v2-mapping.yaml/"])
    }
}
