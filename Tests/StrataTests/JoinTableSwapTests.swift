import Foundation
import Testing
@testable import Strata

/// A rename that changes which side of a many-to-many sorts first swaps its join table's columns: the step
/// rebuilds it keeping every link, and gives its reasons in one order (the dry run's report and the run's
/// were the same step with the "swap" reasons in either order, from iterating a dictionary).
@Suite struct JoinTableSwapTests {
    @Test func aSwapKeepsTheLinksAndStatesItsReasonsInOneOrder() throws {
        let v1 = "version: 1\nentities:\n  A:\n    relationships:\n      likes: { destination: A, inverse: likedBy, toMany: true }\n      likedBy: { destination: A, inverse: likes, toMany: true }\n"
        let v2 = "version: 2\nentities:\n  A:\n    relationships:\n      likes: { destination: A, inverse: zlikedBy, toMany: true }\n      zlikedBy: { destination: A, inverse: likes, toMany: true, renamedFrom: likedBy }\n"
        let history = try MigrationSupport.history(v1, v2)
        // `likedBy` sorts first: its side holds `source` in `_A_likedBy`.
        let store = try MigrationSupport.store(history, at: 1, fill: """
            INSERT INTO A (_pk) VALUES (1), (2), (3);
            INSERT INTO _A_likedBy (source, target) VALUES (1, 2), (1, 3), (3, 2);
            """)
        let result = try Migrator.migrate(store, history: history)
        let join = try #require(result.steps[0].step.tableActions.first { $0.table == "_A_likes" })
        #expect(join.kind == .rebuild)
        #expect(join.reasons == ["its primary key changes", "columns source and target swap names", "columns target and source swap names"])
        // 1 is liked by 2 and 3 (`likedBy` of 1 = {2, 3}), so 2 and 3 like 1: now `likes` holds `source`.
        #expect(try MigrationSupport.dump(store, "SELECT source, target FROM _A_likes ORDER BY 1, 2") == ["2|1", "2|3", "3|1"])
    }
}
