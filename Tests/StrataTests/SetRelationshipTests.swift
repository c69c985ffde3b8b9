import Foundation
import GRDB
import Testing
@testable import Strata

@Suite struct SetRelationshipTests {
    let now = LinkFixture.now

    func link(_ f: LinkFixture.Fixture, _ request: SetRelationshipRequest, onViolation: ViolationPolicy = .rollback) async throws -> BatchResult {
        try await f.store.execute(request, context: now, model: f.model, onViolation: onViolation)
    }

    @Test func toOneLinksOnTheSourceRowAndLeavesUnmatchedAlone() async throws {
        let f = try LinkFixture.make()
        try f.execute(#"UPDATE "Post" SET "author" = 4 WHERE "_pk" IN (4, 5)"#)
        var request = SetRelationshipRequest(entity: "Post", relationship: "author", match: [("authorID", "userID")])
        request.resultType = .objectIDs
        let result = try await link(f, request)
        #expect(result.kind == .link && result.count == 3)
        #expect(result.objectIDs?.map(\.primaryKey) == [1, 2, 3])
        // nil never matches (post 4), an unmatched one keeps its link (post 5); order columns count from 1 per user.
        #expect(try f.rows(#"SELECT "_pk", "author", "_order_User_posts" FROM "Post" ORDER BY "_pk""#)
                == ["1|1|1", "2|2|1", "3|2|2", "4|4|nil", "5|4|nil"])
    }

    @Test func aMatchOverwritesTheStoredLinkAndAppendsInPkOrder() async throws {
        let f = try LinkFixture.make()
        try f.execute(#"UPDATE "Post" SET "author" = 2, "_order_User_posts" = 1 WHERE "_pk" = 4; UPDATE "Post" SET "author" = 1 WHERE "_pk" = 2"#)
        var request = SetRelationshipRequest(entity: "Post", relationship: "author", match: [("authorID", "userID")])
        request.predicate = "title != 'p1'"
        _ = try await link(f, request)
        #expect(try f.rows(#"SELECT "_pk", "author", "_order_User_posts" FROM "Post" ORDER BY "_pk""#)
                == ["1|nil|nil", "2|2|2", "3|2|3", "4|2|1", "5|nil|nil"])
    }

    @Test func toManyWithAToOneInverseLinksTheDestinationRows() async throws {
        let f = try LinkFixture.make()
        let request = SetRelationshipRequest(entity: "User", relationship: "posts", match: [("userID", "authorID")])
        let result = try await link(f, request)
        #expect(result.count == 3)
        #expect(result.changes.updatedCounts == ["Post": 3])
        #expect(try f.rows(#"SELECT "author", "_order_User_posts" FROM "Post" ORDER BY "_pk""#)
                == ["1|1", "2|1", "2|2", "nil|nil", "nil|nil"])
    }

    @Test func manyToManyAddsJoinRowsOnceInPkOrder() async throws {
        let f = try LinkFixture.make()
        try f.execute(#"INSERT INTO "_Group_members" ("source", "target", "source_order") VALUES (1, 3, 1)"#)
        let request = SetRelationshipRequest(entity: "Group", relationship: "members", match: [("kind", "kind")])
        #expect(try await link(f, request).count == 2)   // 1–1 and 2–2; 1–3 was there; nil kinds never match
        #expect(try await link(f, request).count == 0)   // never duplicated
        #expect(try f.rows(#"SELECT "source", "target", "source_order" FROM "_Group_members" ORDER BY "source", "target""#)
                == ["1|1|2", "1|3|1", "2|2|1"])
    }

    @Test func aSubEntityDestinationNarrowsTheCandidates() async throws {
        let f = try LinkFixture.make()
        try f.execute(#"UPDATE "User" SET "kind" = 'a' WHERE "_pk" = 2"#)
        let request = SetRelationshipRequest(entity: "Group", relationship: "members", destination: "Admin", match: [("kind", "kind")])
        #expect(try await link(f, request).count == 1)
        #expect(try f.rows(#"SELECT "source", "target" FROM "_Group_members""#) == ["1|3"])
    }

    @Test func severalDestinationsForOneSourceAreAmbiguousEvenUnderWarn() async throws {
        let f = try LinkFixture.make()
        try f.execute(#"UPDATE "User" SET "userID" = 20 WHERE "_pk" = 3"#)
        let request = SetRelationshipRequest(entity: "Post", relationship: "author", match: [("authorID", "userID")])
        await #expect {
            try await link(f, request, onViolation: .warn)
        } throws: { error in
            guard let error = error as? RelationshipAmbiguityError else { return false }
            return error.object.entity == "Post" && error.object.primaryKey == 2 && error.keys == ["authorID = 20"]
                && error.matches.map { "\($0.entity)/p\($0.primaryKey)" } == ["User/p2", "Admin/p3"] && error.exitCode == .validationViolations
        }
        #expect(try f.rows(#"SELECT count(*) FROM "Post" WHERE "author" IS NOT NULL"#) == ["0"])
    }

    @Test func severalSourcesForOneDestinationAreAmbiguous() async throws {
        let f = try LinkFixture.make()
        try f.execute(#"UPDATE "User" SET "userID" = 10 WHERE "_pk" = 2"#)
        let request = SetRelationshipRequest(entity: "User", relationship: "posts", match: [("userID", "authorID")])
        await #expect {
            try await link(f, request)
        } throws: { error in
            guard let error = error as? RelationshipAmbiguityError else { return false }
            return error.object.entity == "Post" && error.object.primaryKey == 1 && error.matches.map(\.primaryKey) == [1, 2]
                && error.description.contains("User.posts is ambiguous")
        }
        // A duplicate key nothing matches is no ambiguity.
        try f.execute(#"UPDATE "User" SET "userID" = 77 WHERE "_pk" IN (1, 2)"#)
        #expect(try await link(f, request).count == 0)
    }

    @Test(arguments: [
        (SetRelationshipRequest(entity: "Post", relationship: "writer", match: [("authorID", "userID")]), "Post has no relationship 'writer'"),
        (SetRelationshipRequest(entity: "Post", relationship: "author", destination: "Group", match: [("authorID", "userID")]),
         "'Group' is not User or one of its sub-entities"),
        (SetRelationshipRequest(entity: "Post", relationship: "author", match: [("title", "userID")]),
         "Post.title is string but User.userID is int64"),
        (SetRelationshipRequest(entity: "Post", relationship: "author", match: [("authorID", "born")]), "Post.authorID is int32 but User.born is date"),
        (SetRelationshipRequest(entity: "Post", relationship: "author", match: [("authorID", "nope")]), "User has no attribute 'nope'"),
        (SetRelationshipRequest(entity: "Post", relationship: "author", match: []), "needs at least one match pair"),
    ])
    func invalidRequestsAreRefused(request: SetRelationshipRequest, message: String) throws {
        let f = try LinkFixture.make()
        #expect {
            _ = try RelationshipLinkPlanner(model: f.model, layout: f.layout).plan(request, context: now)
        } throws: { error in
            guard case BatchError.invalid(let diagnostic) = error else { return false }
            return diagnostic.message.contains(message)
        }
    }

    /// Without the touched-row audit a link is one statement; it must link exactly what the keyed run links.
    @Test(arguments: [("Post", "author", "authorID", "userID"), ("User", "posts", "userID", "authorID"), ("Group", "members", "kind", "kind"),
                      ("Article", "author", "code", "userID")])
    func theSingleStatementLinksWhatTheKeyedRunLinks(entity: String, relationship: String, source: String, destination: String) async throws {
        var results: [[String]] = []
        for audit in [AuditMode.none, .touched] {
            let f = try LinkFixture.make()
            try f.execute(#"UPDATE "Post" SET "author" = 4 WHERE "_pk" = 5"#)
            try f.execute(#"INSERT INTO "Content" ("_pk", "_entity", "code", "words", "author") VALUES (1, 'Article', 10, 1, NULL), (2, 'Article', 99, 1, 4), (3, 'Note', 20, 1, NULL), (4, 'Article', 30, 1, NULL)"#)
            let request = SetRelationshipRequest(entity: entity, relationship: relationship, match: [(source, destination)])
            let result = try await f.store.execute(request, context: now, model: f.model, audit: audit)
            results.append(["\(result.count)"] + (try f.rows(#"SELECT "_pk", "author" FROM "Post" ORDER BY "_pk""#))
                           + (try f.rows(#"SELECT "source", "target" FROM "_Group_members" ORDER BY 1, 2"#))
                           + (try f.rows(#"SELECT "_pk", "author" FROM "Content" ORDER BY 1"#)))
        }
        #expect(results[0] == results[1])
        #expect(results[0].count > 1)
    }

    @Test(arguments: [AuditMode.none, .touched])
    func everyMatchPairMustBeEqual(audit: AuditMode) async throws {
        let f = try LinkFixture.make()
        try f.execute(#"INSERT INTO "Content" ("_pk", "_entity", "title", "code", "words") VALUES (1, 'Article', 'bob', 20, 1), (2, 'Article', 'x', 30, 1), (3, 'Article', 'ann', 10, 1)"#)
        let request = SetRelationshipRequest(entity: "Article", relationship: "author", match: [("code", "userID"), ("title", "name")])
        let result = try await f.store.execute(request, context: now, model: f.model, audit: audit)
        #expect(result.count == 2)
        #expect(try f.rows(#"SELECT "_pk", "author" FROM "Content" ORDER BY "_pk""#) == ["1|2", "2|nil", "3|1"])
    }

    @Test func planIsOneUpdateWithACorrelatedLookup() throws {
        let f = try LinkFixture.make()
        let request = SetRelationshipRequest(entity: "Post", relationship: "author", match: [("authorID", "userID")])
        let plan = try RelationshipLinkPlanner(model: f.model, layout: f.layout).plan(request, context: now)
        #expect(plan.link.sql == #"UPDATE "Post" AS t SET "author" = (SELECT d."_pk" FROM "User" AS d WHERE d."userID" = t."authorID") "#
                + #"WHERE 1 AND (t."authorID") IN (SELECT d."userID" FROM "User" AS d WHERE 1)"#)
        #expect(plan.ambiguities.map(\.candidates.sql) == [
                #"SELECT 1 FROM "User" AS d WHERE 1 AND d."userID" IS NOT NULL GROUP BY d."userID" HAVING count(*) > 1 LIMIT 1"#])
        #expect(plan.unlink == nil)
    }
}
