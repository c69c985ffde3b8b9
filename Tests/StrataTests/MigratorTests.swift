import Foundation
import GRDB
import Testing
@testable import Strata

@Suite struct MigratorTests {
    let v1 = """
        version: 1
        entities:
          Recipe:
            attributes:
              name: { type: string }
              rating: { type: int16 }
        """
    let v2 = """
        version: 2
        entities:
          Recipe:
            attributes:
              name: { type: string }
              rating: { type: int16 }
              favorite: { type: bool, default: false, optional: false }
        """

    @Test func addColumnInPlace() throws {
        let history = try MigrationSupport.history(v1, v2)
        let store = try MigrationSupport.store(history, at: 1, fill: """
            INSERT INTO Recipe (name, rating) VALUES ('Pie', 5), (NULL, NULL), ('Crème brûlée 🍮', -32768);
            """)
        let result = try Migrator.migrate(store, history: history)
        #expect(result.toVersion == 2)
        #expect(result.steps.map(\.step.sqlText) == [[#"ALTER TABLE "Recipe" ADD COLUMN "favorite" INTEGER DEFAULT 0"#]])
        #expect(try MigrationSupport.dump(store, "SELECT _pk, name, rating, favorite FROM Recipe ORDER BY _pk")
                == ["1|Pie|5|0", "2|NULL|NULL|0", "3|Crème brûlée 🍮|-32768|0"])
        #expect(try store.metadata().version == 2)
        #expect(try MigrationSupport.drift(store, history).items == [])
    }
}
