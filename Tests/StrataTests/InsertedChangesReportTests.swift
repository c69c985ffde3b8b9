import Testing
@testable import StrataCore

/// Reports count the objects a batch insert made next to the updated and deleted ones.
@Suite struct InsertedChangesReportTests {
    static func hook() -> HookRunResult {
        HookRunResult(id: "tags", after: 2, file: "migrations/tags.yaml", checksum: "c", onViolation: .rollback,
                      steps: [HookStepResult(kind: "batchInsert", entity: "Tag", count: 2, objectIDs: nil, updatedCounts: [:],
                                             deletedCounts: [:], duration: 0.001)],
                      rowsAffected: 2, audit: nil, committed: true)
    }

    static func report() -> Report {
        var m = MigrationRunReport(store: "app.sqlite", dryRun: false, targetVersion: 2, now: 0)
        m.hooks = [hook()]
        m.changes.add(inserted: ObjectID(storeUUID: "u", entity: "Tag", primaryKey: 7))
        m.changes.add(inserted: ObjectID(storeUUID: "u", entity: "Tag", primaryKey: 8))
        m.changes.updatedCounts = ["Post": 3]
        return Report(title: "t", migration: m)
    }

    @Test func textAndMarkdownCountInsertedObjects() {
        #expect(Self.report().render(as: .text).contains("Changed objects:\n  Post: 3 updated\n  Tag: 2 inserted"))
        #expect(Self.report().render(as: .markdown).contains("**Changed objects:** Post 3 updated; Tag 2 inserted"))
    }

    @Test func htmlHasAnInsertedColumnOnlyWhenSomethingWasInserted() {
        let html = Self.report().render(as: .html)
        #expect(html.contains("<tr><th>Entity</th><th>Inserted</th><th>Updated</th><th>Deleted</th></tr>"))
        #expect(html.contains("<tr><td>Tag</td><td class=\"num\">2</td><td class=\"num\">0</td><td class=\"num\">0</td></tr>"))
        var m = MigrationRunReport(store: "app.sqlite", dryRun: false, targetVersion: 2, now: 0)
        m.hooks = [Self.hook()]
        m.changes.updatedCounts = ["Post": 3]
        #expect(Report(title: "t", migration: m).render(as: .html).contains("<tr><th>Entity</th><th>Updated</th><th>Deleted</th></tr>"))
    }

    @Test func jsonListsInsertedObjectIDs() throws {
        let json = Self.report().render(as: .json)
        #expect(json.contains("\"inserted\" : {\n") && json.contains("x-strata://u/Tag/p7"))
        #expect(json.contains("\"insertedCounts\" : {\n"))
    }
}
