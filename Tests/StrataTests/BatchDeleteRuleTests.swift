import Foundation
import GRDB
import Testing
@testable import Strata

/// Delete rules on a three-entity graph: Author →(cascade) Book →(cascade) Chapter, Author.reviews (deny),
/// Book.editor (nullify via Author.edited), Author.drafts many-to-many with Chapter (cascade through the join table).
@Suite struct BatchDeleteRuleTests {
    static let yaml = """
    version: 1
    entities:
      Author:
        attributes:
          name: { type: string }
        relationships:
          books:   { destination: Book, toMany: true, inverse: author, deleteRule: cascade }
          edited:  { destination: Book, toMany: true, inverse: editor, deleteRule: nullify }
          reviews: { destination: Chapter, toMany: true, inverse: reviewer, deleteRule: deny }
          drafts:  { destination: Chapter, toMany: true, inverse: drafters, deleteRule: cascade }
      Book:
        attributes:
          title: { type: string }
        relationships:
          author:   { destination: Author, inverse: books, deleteRule: nullify }
          editor:   { destination: Author, inverse: edited, deleteRule: nullify }
          chapters: { destination: Chapter, toMany: true, inverse: book, deleteRule: cascade }
      Chapter:
        attributes:
          title: { type: string }
        relationships:
          book:     { destination: Book, inverse: chapters, deleteRule: nullify }
          reviewer: { destination: Author, inverse: reviews, deleteRule: nullify }
          drafters: { destination: Author, toMany: true, inverse: drafts, deleteRule: nullify }
    """
    static let rows = """
    INSERT INTO "Author" ("_pk", "name") VALUES (1, 'Ann'), (2, 'Ben'), (3, 'Cy');
    INSERT INTO "Book" ("_pk", "title", "author", "editor") VALUES (1, 'A1', 1, 2), (2, 'A2', 1, NULL), (3, 'B1', 2, 1);
    INSERT INTO "Chapter" ("_pk", "title", "book", "reviewer") VALUES
      (1, 'c1', 1, NULL), (2, 'c2', 1, NULL), (3, 'c3', 2, NULL), (4, 'c4', 3, 1), (5, 'c5', NULL, NULL);
    INSERT INTO "_Author_drafts" ("source", "target") VALUES (1, 5), (3, 5);
    """

    func make() throws -> PredicateFixture.Fixture { try PredicateFixture.make(yaml: Self.yaml, rows: Self.rows) }

    func run(_ f: PredicateFixture.Fixture, _ request: BatchDeleteRequest, touched: Bool = true, foreignKeys: Bool = true) throws -> (BatchResult, [String]) {
        let uuid = try f.store.metadata().storeUUID
        var result: BatchResult?
        var touchedRows: [String] = []
        try f.store.queue.writeWithoutTransaction { db in
            if !foreignKeys { try db.execute(sql: "PRAGMA foreign_keys = OFF") }
            try db.inTransaction {
                result = try BatchExecutor.execute(request, in: db, model: f.model, layout: f.layout, storeUUID: uuid,
                                                   context: PredicateContext(now: 0), recordTouched: touched)
                return .commit
            }
            if touched {
                touchedRows = try Row.fetchAll(db, sql: "SELECT \"table\", \"pk\" FROM temp.strata_touched ORDER BY 1, 2").map { "\($0[0] as String)/\($0[1] as Int)" }
                try db.execute(sql: "DELETE FROM temp.strata_touched")
            }
            if !foreignKeys { try db.execute(sql: "PRAGMA foreign_keys = ON") }
        }
        return (result!, touchedRows)
    }

    func ids(_ f: PredicateFixture.Fixture, _ table: String) throws -> [Int] {
        try f.store.queue.read { try Int.fetchAll($0, sql: "SELECT \"_pk\" FROM \(quoted(table)) ORDER BY 1") }
    }

    func names(_ ids: [ObjectID]?) -> [String] { (ids ?? []).map { "\($0.entity)/p\($0.primaryKey)" } }

    func request(_ entity: String, _ predicate: String) -> BatchDeleteRequest {
        var r = BatchDeleteRequest(entity: entity, predicate: predicate)
        r.resultType = .objectIDs
        return r
    }

    @Test(arguments: [true, false])
    func cascadeChainAndNullify(foreignKeys: Bool) throws {
        let f = try make()
        let (result, touched) = try run(f, request("Author", "name == \"Ben\""), foreignKeys: foreignKeys)
        #expect(result.count == 1)
        #expect(names(result.objectIDs) == ["Author/p2"])
        #expect(names(result.changes.deleted["Author"]) == ["Author/p2"])
        #expect(names(result.changes.deleted["Book"]) == ["Book/p3"])
        #expect(names(result.changes.deleted["Chapter"]) == ["Chapter/p4"])
        #expect(names(result.changes.updated["Book"]) == ["Book/p1"])
        #expect(result.changes.deletedCounts == ["Author": 1, "Book": 1, "Chapter": 1])
        #expect(touched == ["Author/1", "Book/1"])
        #expect(try ids(f, "Author") == [1, 3])
        #expect(try ids(f, "Book") == [1, 2])
        #expect(try ids(f, "Chapter") == [1, 2, 3, 5])
        let editor = try f.store.queue.read { try Int?.fetchOne($0, sql: "SELECT \"editor\" FROM \"Book\" WHERE \"_pk\" = 1") }
        #expect(editor == Optional<Int>.none)
        let fkProblems = try f.store.queue.read { try Row.fetchAll($0, sql: "PRAGMA foreign_key_check") }
        #expect(fkProblems.isEmpty)
    }

    @Test func denyBlocksAndListsBlockers() throws {
        let f = try make()
        do {
            _ = try run(f, request("Author", "name == \"Ann\""))
            Issue.record("expected the delete to be denied")
        } catch let error as BatchError {
            guard case .denied(let blockers, let total) = error else { Issue.record("\(error)"); return }
            #expect(total == 1)
            #expect(blockers.map { "\($0.object.entity)/p\($0.object.primaryKey) \($0.relationship) \($0.related.entity)/p\($0.related.primaryKey)" }
                    == ["Author/p1 reviews Chapter/p4"])
        }
        #expect(try ids(f, "Author") == [1, 2, 3])
        #expect(try ids(f, "Book") == [1, 2, 3])
        #expect(try ids(f, "Chapter") == [1, 2, 3, 4, 5])
    }

    @Test func denyDoesNotBlockWhenTheDestinationIsDeletedToo() throws {
        let f = try make()
        let (result, _) = try run(f, request("Author", "name IN {\"Ann\", \"Ben\"}"))
        #expect(names(result.objectIDs) == ["Author/p1", "Author/p2"])
        #expect(names(result.changes.deleted["Chapter"]) == ["Chapter/p1", "Chapter/p2", "Chapter/p3", "Chapter/p4", "Chapter/p5"])
        #expect(try ids(f, "Author") == [3])
        #expect(try ids(f, "Book") == [])
        #expect(try ids(f, "Chapter") == [])
        let joinRows = try f.store.queue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM \"_Author_drafts\"") }
        #expect(joinRows == 0)
    }

    @Test func cascadeThroughJoinTable() throws {
        let f = try make()
        let (result, touched) = try run(f, request("Author", "name == \"Cy\""))
        #expect(names(result.changes.deleted["Chapter"]) == ["Chapter/p5"])
        #expect(touched == ["Author/1"])   // Ann drafted chapter 5 too: her drafts changed
        let joinRows = try f.store.queue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM \"_Author_drafts\"") }
        #expect(joinRows == 0)
        #expect(try ids(f, "Chapter") == [1, 2, 3, 4])
    }

    @Test func deletingTheManySideTouchesTheOwner() throws {
        let f = try make()
        let (result, touched) = try run(f, request("Chapter", "title == \"c1\""))
        #expect(names(result.objectIDs) == ["Chapter/p1"])
        #expect(touched == ["Book/1"])
        #expect(try ids(f, "Chapter") == [2, 3, 4, 5])
    }

    @Test func countsOnlyWithoutIDs() throws {
        let f = try make()
        var r = BatchDeleteRequest(entity: "Author", predicate: "name == \"Ben\"")
        r.resultType = .count
        let (result, _) = try run(f, r, touched: false)
        #expect(result.count == 1)
        #expect(result.objectIDs == nil)
        #expect(result.changes.deleted.isEmpty)
        #expect(result.changes.deletedCounts == ["Author": 1, "Book": 1, "Chapter": 1])
        #expect(result.changes.updatedCounts == ["Book": 1])
    }
}
