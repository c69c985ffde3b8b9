import Foundation
import GRDB
import Testing
@testable import Strata

@Suite struct BatchInsertTests {
    let now = LinkFixture.now

    @Test func literalRowsGetDefaultsAndTheirSubEntity() async throws {
        let f = try LinkFixture.make()
        var request = BatchInsertRequest(entity: "Article", objects: [["title": .literal("one"), "code": .literal("1")],
                                                                      ["title": .literal("two"), "words": .literal("7")]])
        request.resultType = .objectIDs
        let result = try await f.store.execute(request, context: now, model: f.model)
        #expect(result.kind == .insert && result.count == 2)
        #expect(result.objectIDs?.map { "\($0.entity)/p\($0.primaryKey)" } == ["Article/p1", "Article/p2"])
        #expect(result.changes.inserted["Article"]?.count == 2)
        #expect(try f.rows(#"SELECT "_pk", "_entity", "title", "code", "words" FROM "Content" ORDER BY "_pk""#)
                == ["1|Article|one|1|100", "2|Article|two|nil|7"])
    }

    @Test func handlerFillsRowsUntilItReturnsTrue() async throws {
        let f = try LinkFixture.make()
        let counter = Counter()
        let request = BatchInsertRequest(entity: "Note") { row in
            let n = counter.next()
            if n > 3 { return true }
            row["title"] = .text("note \(n)")
            row["code"] = .integer(Int64(100 + n))
            return false
        }
        let result = try await f.store.execute(request, context: now, model: f.model)
        #expect(result.count == 3)
        #expect(result.changes.insertedCounts == ["Note": 3])
        #expect(try f.rows(#"SELECT "_entity", "title", "code" FROM "Content" ORDER BY "_pk""#)
                == ["Note|note 1|101", "Note|note 2|102", "Note|note 3|103"])
    }

    @Test func fromInsertsOneRowPerSourceObjectInOneStatement() async throws {
        let f = try LinkFixture.make()
        let source = BatchInsertSource(entity: "User", predicate: "userID != nil")
        var request = BatchInsertRequest(entity: "Article", from: source,
                                         values: ["title": "$source.name", "code": "$source.userID", "author": "$source"])
        request.resultType = .count
        let plan = try BatchInsertPlanner(model: f.model, layout: f.layout).plan(request, context: now)
        #expect(plan.statements.count == 1)
        #expect(plan.statements[0].sql == #"INSERT INTO "Content" ("_entity", "author", "code", "title", "words") SELECT ?, t."_pk", "#
                + #"t."userID", t."name", ? FROM "User" AS t WHERE (t."userID" IS NOT NULL) ORDER BY t."_pk""#)
        let result = try await f.store.execute(request, context: now, model: f.model)
        #expect(result.count == 3)
        #expect(try f.rows(#"SELECT "_entity", "title", "code", "words", "author" FROM "Content" ORDER BY "_pk""#)
                == ["Article|ann|10|100|1", "Article|bob|20|100|2", "Article|cy|30|100|3"])
    }

    @Test func sourceSubEntitiesOnlyWhenAsked() async throws {
        let f = try LinkFixture.make()
        var source = BatchInsertSource(entity: "User")
        source.includesSubentities = false
        let request = BatchInsertRequest(entity: "Note", from: source, values: ["title": "name"])
        let result = try await f.store.execute(request, context: now, model: f.model)
        #expect(result.count == 3)
        #expect(try f.rows(#"SELECT "title" FROM "Content" ORDER BY "_pk""#) == ["ann", "bob", "dee"])
    }

    @Test func uniquenessConflictFailsUnlessIgnoredOrUpdated() async throws {
        let f = try LinkFixture.make()
        try f.execute(#"INSERT INTO "Content" ("_pk", "_entity", "title", "code", "words") VALUES (1, 'Article', 'old', 5, 1)"#)
        let rows = [["title": UpdateValue.literal("new"), "code": .literal("5")], ["title": .literal("other"), "code": .literal("6")]]
        await #expect {
            try await f.store.execute(BatchInsertRequest(entity: "Article", objects: rows), context: now, model: f.model)
        } throws: { error in
            if case BatchError.violation(1551, _) = error { return true } else { return false }
        }
        #expect(try f.rows(#"SELECT "title", "code" FROM "Content" ORDER BY "_pk""#) == ["old|5"])

        var ignore = BatchInsertRequest(entity: "Article", objects: rows)
        ignore.onConflict = .ignore
        #expect(try await f.store.execute(ignore, context: now, model: f.model).count == 1)
        #expect(try f.rows(#"SELECT "title", "code" FROM "Content" ORDER BY "_pk""#) == ["old|5", "other|6"])

        var update = BatchInsertRequest(entity: "Article", objects: [["title": .literal("renamed"), "code": .literal("5")]])
        update.onConflict = .update
        update.resultType = .objectIDs
        let updated = try await f.store.execute(update, context: now, model: f.model)
        #expect(updated.count == 0 && updated.objectIDs == [])
        #expect(updated.changes.updated["Article"]?.map(\.primaryKey) == [1])
        #expect(try f.rows(#"SELECT "title", "code", "words" FROM "Content" ORDER BY "_pk""#) == ["renamed|5|1", "other|6|100"])
    }

    @Test func fromInsertsHonourOnConflict() async throws {
        let f = try LinkFixture.make()
        try f.execute(#"INSERT INTO "Content" ("_pk", "_entity", "title", "code", "words") VALUES (1, 'Note', 'old', 10, 1)"#)
        var request = BatchInsertRequest(entity: "Article", from: BatchInsertSource(entity: "User", predicate: "userID != nil"),
                                         values: ["title": "name", "code": "userID"])
        request.onConflict = .ignore
        #expect(try await f.store.execute(request, context: now, model: f.model).count == 2)
        #expect(try f.rows(#"SELECT "_pk", "_entity", "title", "code" FROM "Content" ORDER BY "_pk""#)
                == ["1|Note|old|10", "3|Article|bob|20", "4|Article|cy|30"])   // a skipped row's _pk is never used
        request.onConflict = .update
        request.resultType = .objectIDs
        let updated = try await f.store.execute(request, context: now, model: f.model)
        #expect(updated.count == 0)
        #expect(updated.changes.updated.mapValues { $0.map(\.primaryKey) } == ["Note": [1], "Article": [3, 4]])
        #expect(try f.rows(#"SELECT "_pk", "_entity", "title", "code", "words" FROM "Content" ORDER BY "_pk""#)
                == ["1|Note|ann|10|1", "3|Article|bob|20|100", "4|Article|cy|30|100"])
    }

    @Test(arguments: [
        ("Content", ["title": "$source.name"], "Content is abstract"),
        ("Post", ["authorID": "$source.userID"], "Post.title is not optional and has no default"),
        ("Note", ["title": "$source.userID"], "Note.title is string, but $source.userID is int64"),
        ("Note", ["nope": "1"], "Note has no attribute 'nope'"),
        ("User", ["posts": "$source"], "'posts' is a to-many relationship of User"),
        ("Article", ["author": "$source.groups"], "'$source.groups' is a to-many relationship; Article.author takes one object"),
        ("Article", ["author": "$source.name"], "Article.author is a relationship to User; give $source or a to-one key path of it"),
        ("Note", ["title": "$source"], "$source is an object"),
    ])
    func invalidInsertsAreRefusedBeforeAnythingRuns(entity: String, values: [String: String], message: String) throws {
        let f = try LinkFixture.make()
        let request = BatchInsertRequest(entity: entity, from: BatchInsertSource(entity: "User"), values: values)
        #expect {
            _ = try BatchInsertPlanner(model: f.model, layout: f.layout).plan(request, context: now)
        } throws: { error in
            guard case BatchError.invalid(let diagnostic) = error else { return false }
            return diagnostic.message.contains(message)
        }
    }

    @Test func insertedRowsAreAudited() async throws {
        let f = try LinkFixture.make()
        let request = BatchInsertRequest(entity: "Post", objects: [["title": .value(.null)]])
        #expect(throws: BatchError.self) {
            _ = try BatchInsertPlanner(model: f.model, layout: f.layout).plan(request, context: now)
        }
        // A dangling to-one is a 1700 violation (exit 3), and nothing is inserted.
        let dangling = BatchInsertRequest(entity: "Article", objects: [["author": .literal("42"), "code": .literal("9")]])
        await #expect {
            try await f.store.execute(dangling, context: now, model: f.model)
        } throws: { error in
            if case BatchError.violation(1700, _) = error { return true } else { return false }
        }
        #expect(try f.rows(#"SELECT count(*) FROM "Content""#) == ["0"])
        // An empty title breaks minLength, which only the audit of the inserted rows sees: rolled back, or
        // committed and reported under warn.
        let empty = BatchInsertRequest(entity: "Post", objects: [["title": .literal("")]])
        await #expect(throws: BatchViolationError.self) {
            try await f.store.execute(empty, context: now, model: f.model)
        }
        #expect(try f.rows(#"SELECT count(*) FROM "Post""#) == ["5"])
        let warned = try await f.store.execute(empty, context: now, model: f.model, onViolation: .warn)
        #expect(warned.audit?.violated.map { "\($0.code.rawValue) \($0.subject)" } == ["1670 Post.title"])
        #expect(try f.rows(#"SELECT "_pk", "title" FROM "Post" WHERE "_pk" > 5"#) == ["6|"])
    }
}

/// A thread-safe counter for handler closures.
final class Counter: @unchecked Sendable {
    private var value = 0
    private let lock = NSLock()
    func next() -> Int { lock.lock(); defer { lock.unlock() }; value += 1; return value }
}
