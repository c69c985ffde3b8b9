import GRDB
import Testing
@testable import Strata

@Suite struct LargeModelTests {
    /// 80 entities, 800 attributes with keyword names and sibling clashes: loads, creates, and every
    /// column the layout names exists in the live schema with its declared type.
    @Test func largeModelCreatesTheLayoutItRecords() throws {
        let yaml = LargeModel.yaml(entities: 80)
        let model = try ModelLoader.load(yaml: yaml, file: "large.yaml")
        // Nothing the YAML declares is dropped on the way (80 entities of 10 attributes: 9 generated plus an id or key).
        #expect(model.entities.count == 80)
        #expect(model.entities.reduce(0) { $0 + $1.attributes.count } == 800)
        let (store, _, layout) = try TestStore.make(yaml: yaml)
        try store.queue.read { db in
            for table in layout.tables {
                let live = try Row.fetchAll(db, sql: "PRAGMA table_info(\(quoted(table.name)))")
                    .map { "\($0["name"] as String) \($0["type"] as String)" }
                #expect(live == table.columns.map { "\($0.name) \($0.sqlType)" }, "\(table.name)")
            }
            for (entity, storage) in layout.entities {
                let columns = Set(try Row.fetchAll(db, sql: "PRAGMA table_info(\(quoted(storage.table)))").map { $0["name"] as String })
                for (property, column) in storage.attributeColumns {
                    #expect(columns.contains(column), "\(entity).\(property) → \(column)")
                }
            }
        }
        // Siblings Entity2 and Entity3 both declare `sub1`: the first by name keeps the plain name.
        #expect(layout.storage(of: "Entity2")?.attributeColumns["sub1"] == "sub1")
        #expect(layout.storage(of: "Entity3")?.attributeColumns["sub1"] == "Entity3_sub1")
        #expect(layout.storage(of: "Entity3")?.attributeColumns["attr1"] == "attr1")
        #expect(layout.storage(of: "Entity1")?.kinds == ["Entity1", "Entity2", "Entity3"])
    }
}
