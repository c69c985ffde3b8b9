import Foundation
import Testing
@testable import Strata

/// A step that moves a one-to-one's key to the other side (an inverse added to a to-one, or a rename that
/// changes which side sorts first) fills it with a subquery; an object that two others link stops the step
/// (1590, exit 3, store unchanged) where the subquery would keep one link and drop the other.
@Suite struct OneToOneKeyMoveTests {
    static let wallets = [
        "version: 1\nentities:\n  User:\n    attributes:\n      name: { type: string }\n  Wallet:\n    relationships:\n      owner: { destination: User }\n",
        "version: 2\nentities:\n  User:\n    attributes:\n      name: { type: string }\n    relationships:\n      wallet: { destination: Wallet, inverse: owner }\n  Wallet:\n    relationships:\n      owner: { destination: User, inverse: wallet }\n",
    ]

    @Test func anObjectTwoOthersLinkStopsTheStep() throws {
        let history = try MigrationSupport.history(Self.wallets)
        let store = try MigrationSupport.store(history, at: 1, fill: """
            INSERT INTO User (_pk, name) VALUES (1, 'Ada'), (2, 'Bo'), (3, 'Cy');
            INSERT INTO Wallet (_pk, owner) VALUES (10, 1), (11, 2), (12, 1), (13, NULL), (14, NULL);
            """)
        let uuid = try store.metadata().storeUUID
        let before = MigrationSupport.fileBytes(store)
        #expect {
            try Migrator.migrate(store, history: history)
        } throws: { error in
            guard case MigrationError.violations(1, 2, let v) = error else { return false }
            return v.count == 1 && v[0].code == 1590 && v[0].entity == "User" && v[0].properties == ["wallet"]
                && v[0].objects == [ObjectID(storeUUID: uuid, entity: "User", primaryKey: 1)]
        }
        #expect(MigrationSupport.fileBytes(store) == before)
    }

    @Test func eachLinkMovesWhenNoObjectIsLinkedTwice() throws {
        let history = try MigrationSupport.history(Self.wallets)
        let store = try MigrationSupport.store(history, at: 1, fill: """
            INSERT INTO User (_pk, name) VALUES (1, 'Ada'), (2, 'Bo'), (3, 'Cy');
            INSERT INTO Wallet (_pk, owner) VALUES (10, 1), (11, 2), (13, NULL), (14, NULL);
            """)
        _ = try Migrator.migrate(store, history: history)
        #expect(try MigrationSupport.dump(store, "SELECT _pk, wallet FROM User ORDER BY _pk") == ["1|10", "2|11", "3|NULL"])
        #expect(try MigrationSupport.columns(store, "Wallet") == ["_pk"])
    }

    /// `next` ↔ `prev` on one entity: renaming `next` to `znext` puts the key on `prev`; every link is kept.
    @Test func aRenameThatMovesTheKeyKeepsEveryLink() throws {
        let v1 = "version: 1\nentities:\n  Step:\n    relationships:\n      next: { destination: Step, inverse: prev }\n      prev: { destination: Step, inverse: next }\n"
        let v2 = "version: 2\nentities:\n  Step:\n    relationships:\n      znext: { destination: Step, inverse: prev, renamedFrom: next }\n      prev: { destination: Step, inverse: znext }\n"
        let history = try MigrationSupport.history(v1, v2)
        let store = try MigrationSupport.store(history, at: 1, fill: """
            INSERT INTO Step (_pk) VALUES (1), (2), (3), (4);
            UPDATE Step SET next = CASE _pk WHEN 1 THEN 2 WHEN 2 THEN 3 WHEN 3 THEN 1 END;
            """)
        _ = try Migrator.migrate(store, history: history)
        #expect(try MigrationSupport.columns(store, "Step") == ["_pk", "prev"])
        #expect(try MigrationSupport.dump(store, "SELECT _pk, prev FROM Step ORDER BY _pk") == ["1|3", "2|1", "3|2", "4|NULL"])
    }
}
