import Foundation
import GRDB

/// What a Swift stage's closure gets (SPEC §11.2): the step's database, inside its transaction.
public final class StageContext {
    /// The stage's id.
    public let id: String
    /// `$NOW`: the run's clock.
    public let now: Date
    /// The `--var` values by name.
    public let variables: [String: String]
    /// Whether this is a dry run (the work is rolled back afterwards).
    public let isDryRun: Bool
    /// The GRDB database, SQLite only.
    public let database: Database

    init(id: String, now: Date, variables: [String: String], isDryRun: Bool, database: Database) {
        self.id = id
        self.now = now
        self.variables = variables
        self.isDryRun = isDryRun
        self.database = database
    }
}
