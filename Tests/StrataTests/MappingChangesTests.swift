import Foundation
import Testing
@testable import Strata
import StrataTestSupport

/// A mapping step that gives objects new IDs publishes the translation to the library's observers (SPEC §11.3
/// "IDs"): `ChangeSet.remapped`, old → new per destination entity, once the step committed.
@Suite struct MappingChangesTests {
    static let v1 = """
        version: 1
        entities:
          Photo:
            attributes: { name: { type: string } }
          Video:
            attributes: { name: { type: string } }
        """
    static let v2 = """
        version: 2
        entities:
          Media:
            attributes: { name: { type: string } }
        """
    static let mapping = """
        mapping: { from: 1, to: 2 }
        entities:
          Media: { source: [Photo, Video] }
        """

    @Test func observersGetTheOldToNewTranslation() async throws {
        let dir = TestStore.directory()
        for (folder, name, text) in [("models", "1.yaml", Self.v1), ("models", "2.yaml", Self.v2), ("migrations", "merge.yaml", Self.mapping)] {
            try FileManager.default.createDirectory(atPath: dir + "/" + folder, withIntermediateDirectories: true)
            try text.write(toFile: dir + "/" + folder + "/" + name, atomically: true, encoding: .utf8)
        }
        let models = ProjectSource.directory(dir + "/models"), hooks = ProjectSource.directory(dir + "/migrations")
        var options = Store.OpenOptions()
        options.target = 1
        let store = try await Store.open(at: dir + "/app.sqlite", models: models, hooks: hooks, options: options)
        try store.write { db in
            try db.execute(sql: #"INSERT INTO "Photo" ("_pk", "name") VALUES (1, 'p1'), (4, 'p4'); INSERT INTO "Video" ("_pk", "name") VALUES (2, 'v2')"#)
        }
        let uuid = try store.metadata().storeUUID
        var changes = store.changes().makeAsyncIterator()
        let report = try await store.migrate(models: models, hooks: hooks)
        #expect(report.toVersion == 2)
        let published = try #require(await changes.next())
        func id(_ entity: String, _ pk: Int64) -> ObjectID { ObjectID(storeUUID: uuid, entity: entity, primaryKey: pk) }
        #expect(published.remapped == ["Media": [.init(old: id("Photo", 1), new: id("Media", 5)), .init(old: id("Photo", 4), new: id("Media", 6)),
                                                 .init(old: id("Video", 2), new: id("Media", 7))]])
        #expect(published.remappedCounts == ["Media": 3])
        #expect(try store.fetchAll("Media").map { "\($0.id.primaryKey) \($0.string("name") ?? "")" } == ["5 p1", "6 p4", "7 v2"])
    }
}
