import Foundation
import GRDB
import StrataTestSupport
import Testing

/// What counts as a `TODO` left in a mapping file (SPEC §11.3 "Errors"): an unquoted value that is the word
/// `TODO`, alone or with a note after it. The word inside an expression (a string literal, a property called
/// TODO) is not one: it was, and stopped `lint`, `diff` and `migrate` with exit 4.
@Suite struct MappingTodoMarkerCLITests {
    @Test func aTodoWithANoteAfterItIsStillExit4() throws {
        let text = MappingProject.mapping.replacingOccurrences(of: "\"decimal(total)\"", with: "TODO check the cast")
        let (dir, store) = try MappingProject.make(["v2.yaml": text])
        for args in [["lint"], ["diff", "1", "2"], ["migrate", "--store", "app.sqlite"]] {
            let r = try CLI.run(args, in: dir)
            #expect(r.status == 4, "\(args): \(r.stderr)")
            #expect(r.stderr.contains("migrations/v2.yaml:7:14: error: v1 → v2: Order.total: a TODO is left in the mapping file"),
                    "\(args): \(r.stderr)")
        }
        #expect(try MappingProject.version(store) == "1")
    }

    @Test func theWordInsideAStringLiteralIsText() throws {
        let text = MappingProject.mapping.replacingOccurrences(of: "filter: \"deleted == NO\"",
                                                               with: "filter: \"deleted == NO AND name != 'TODO: review'\"")
        let (dir, store) = try MappingProject.make(["v2.yaml": text], badRating: false)
        let lint = try CLI.run(["lint"], in: dir)
        #expect(lint.status == 0, "\(lint.stderr)")
        #expect(!lint.stderr.contains("TODO is left"), "\(lint.stderr)")
        let run = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try ExampleData.query(store, #"SELECT group_concat("name", ',') FROM (SELECT "name" FROM "Item" ORDER BY "_pk")"#)
                == "plain,o2,o3,o5")
    }

    /// The skeleton writes a carried attribute called TODO as `TODO: "TODO"` (an expression naming it): filling
    /// in the one real TODO makes the file run, and the TODO attribute's values are carried.
    @Test func aPropertyCalledTodoIsAName() throws {
        let v1 = "version: 1\nentities:\n  Task:\n    attributes: { TODO: { type: string }, n: { type: string } }\n"
        let v2 = "version: 2\nentities:\n  Task:\n    attributes: { TODO: { type: string }, n: { type: int64 } }\n"
        let (dir, store) = try MappingProject.project(v1: v1, v2: v2, files: [:], name: "todo-name")
        let queue = try DatabaseQueue(path: store)
        try queue.write { try $0.execute(sql: #"INSERT INTO "Task" ("_pk", "TODO", "n") VALUES (1, 'wash', '7')"#) }
        try queue.close()
        let skeleton = try CLI.run(["mapping", "1", "2"], in: dir)
        #expect(skeleton.status == 0, "\(skeleton.stderr)")
        #expect(skeleton.stdout.contains("      TODO: \"TODO\"\n"), "\(skeleton.stdout)")
        let filled = skeleton.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("      n: TODO") ? "      n: \"int64(n)\"" : String($0) }.joined(separator: "\n")
        try filled.write(toFile: dir + "/migrations/v2-mapping.yaml", atomically: true, encoding: .utf8)
        let lint = try CLI.run(["lint"], in: dir)
        #expect(lint.status == 0, "\(lint.stderr)")
        let run = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try ExampleData.query(store, #"SELECT "TODO" || '|' || "n" || '|' || typeof("n") FROM "Task""#) == "wash|7|integer")
    }
}
