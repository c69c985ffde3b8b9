import Foundation
import GRDB
@testable import Strata
import Testing

/// Foreign keys after a rebuild (issue 12 item 22): turning them back on is checked, never `try?`.
@Suite struct StepExecutorTests {
    /// `PRAGMA foreign_keys = ON` is a no-op inside a transaction: the restore must notice and throw,
    /// so that the connection is not reused with foreign keys off.
    @Test func foreignKeysThatStayOffAfterAStepAreAnError() throws {
        let store = try TestStore.make(yaml: PipelineSupport.yaml).store
        try store.queue.inDatabase { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            try db.execute(sql: "BEGIN")
            let error = #expect(throws: MigrationError.self) { try StepExecutor.restoreForeignKeys(db) }
            #expect(error?.exitCode == .runtimeFailure)
            #expect(error?.description == """
                error: foreign keys could not be turned back on after a version step (PRAGMA foreign_keys still reads 0); the step was committed and the run stopped
                hint: rerun `strata migrate`: it continues from the recorded version
                """)
            try db.execute(sql: "ROLLBACK")
            try StepExecutor.restoreForeignKeys(db)
            #expect(try Int.fetchOne(db, sql: "PRAGMA foreign_keys") == 1)
        }
    }
}
