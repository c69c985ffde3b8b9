import Foundation
import GRDB
import Testing
@testable import Strata

/// `setRelationship` on a one-to-one (SPEC §11.4): ambiguity on either side, and a match that moves an object
/// away from its old partner. User.wallet is stored on User's row; Wallet.owner is its inverse.
extension SetRelationshipTests {
    /// Wallets 1 (label a), 2 (b), 3 (zzz); users 1 ann (kind a), 2 bob (b), 3 cy (a, Admin), 4 dee (nil).
    func wallets() throws -> LinkFixture.Fixture {
        let f = try LinkFixture.make()
        try f.execute(#"INSERT INTO "Wallet" ("_pk", "label") VALUES (1, 'a'), (2, 'b'), (3, 'zzz')"#)
        return f
    }

    @Test(arguments: [("User", "wallet", "kind", "label"), ("Wallet", "owner", "label", "kind")])
    func twoUsersForOneWalletAreAmbiguousFromEitherSide(entity: String, relationship: String, source: String, destination: String) async throws {
        let f = try wallets()
        let request = SetRelationshipRequest(entity: entity, relationship: relationship, match: [(source, destination)])
        await #expect {
            try await link(f, request, onViolation: .warn)
        } throws: { error in
            guard let error = error as? RelationshipAmbiguityError else { return false }
            // Wallet 1 (label a) matches ann and cy: the wallet is the ambiguous object either way.
            return error.object.entity == "Wallet" && error.object.primaryKey == 1 && error.matchedEntity == "User"
                && error.matches.map { "\($0.entity)/p\($0.primaryKey)" } == ["User/p1", "Admin/p3"]
                && error.relationship == "\(entity).\(relationship)" && error.exitCode == .validationViolations
        }
        #expect(try f.rows(#"SELECT count(*) FROM "User" WHERE "wallet" IS NOT NULL"#) == ["0"])
    }

    @Test(arguments: [("User", "wallet", "kind", "label"), ("Wallet", "owner", "label", "kind")])
    func aMatchedWalletLeavesItsOldOwner(entity: String, relationship: String, source: String, destination: String) async throws {
        let f = try wallets()
        // dee holds wallet 2 and cy wallet 3; only bob (kind b) and wallet 2 (label b) match now.
        try f.execute(#"UPDATE "User" SET "kind" = 'c' WHERE "_pk" IN (1, 3); UPDATE "User" SET "wallet" = 2 WHERE "_pk" = 4; UPDATE "User" SET "wallet" = 3 WHERE "_pk" = 3"#)
        var request = SetRelationshipRequest(entity: entity, relationship: relationship, match: [(source, destination)])
        request.resultType = .objectIDs
        for audit in [AuditMode.none, .touched] {
            let result = try await f.store.execute(request, context: now, model: f.model, audit: audit)
            #expect(result.count == 1)
            #expect(try f.rows(#"SELECT "_pk", "wallet" FROM "User" ORDER BY "_pk""#) == ["1|nil", "2|2", "3|3", "4|nil"])
            // dee's row changed too: the change set lists it beside bob's.
            #expect(result.changes.updated["User"]?.map(\.primaryKey) == [2, 4])
            try f.execute(#"UPDATE "User" SET "wallet" = NULL WHERE "_pk" = 2; UPDATE "User" SET "wallet" = 2 WHERE "_pk" = 4"#)
        }
    }

    @Test func aOneToOnePlanUnlinksOnlyOldPartnersOfMatchedObjects() throws {
        let f = try wallets()
        let request = SetRelationshipRequest(entity: "User", relationship: "wallet", match: [("kind", "label")])
        let plan = try RelationshipLinkPlanner(model: f.model, layout: f.layout).plan(request, context: now)
        #expect(plan.ambiguities.map(\.sourceIsAmbiguous) == [true, false])
        #expect(plan.unlink?.sql == #"UPDATE "User" AS o SET "wallet" = NULL WHERE o."wallet" IN (SELECT d."_pk" FROM "Wallet" AS d WHERE 1 AND (d."label") IN (SELECT t."kind" FROM "User" AS t WHERE 1)) "#
                + #"AND o."_pk" NOT IN (SELECT t."_pk" FROM "User" AS t WHERE 1 AND (t."kind") IN (SELECT d."label" FROM "Wallet" AS d WHERE 1))"#)
    }
}
