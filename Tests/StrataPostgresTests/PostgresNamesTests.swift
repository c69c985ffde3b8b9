import StrataCore
@testable import StrataPostgres
import Testing

@Suite struct PostgresNamesTests {
    @Test func shortNamesStayLongOnesGetAHashSuffix() {
        #expect(PostgresNames.shortened("strata_idx_Recipe_name") == "strata_idx_Recipe_name")
        let long = String(repeating: "x", count: 70)
        // 54 bytes + "_" + the first 8 hex digits of SHA-256(70 × "x").
        #expect(PostgresNames.shortened(long) == String(repeating: "x", count: 54) + "_c71bd109")
        #expect(PostgresNames.shortened(long).utf8.count == 63)
        #expect(PostgresNames.shortened(String(repeating: "x", count: 63)) == String(repeating: "x", count: 63))
    }

    @Test func neverSplitsACharacter() {
        let name = String(repeating: "é", count: 40)   // 80 bytes
        let short = PostgresNames.shortened(name)
        #expect(short.hasPrefix(String(repeating: "é", count: 27) + "_"))
        #expect(short.utf8.count == 63)
    }

    @Test func advisoryLockKeyIsTheDigestsFirstEightBytes() {
        // python3: int.from_bytes(hashlib.sha256(b"strata:public").digest()[:8], "big", signed=True)
        #expect(PostgresNames.advisoryLockKey(schema: "public") == 2_196_171_280_538_192_095)
        #expect(PostgresNames.advisoryLockKey(schema: "app") != PostgresNames.advisoryLockKey(schema: "public"))
    }

    @Test func layoutNamesOver63BytesAreRefusedOrShortened() throws {
        let column = ColumnSpec(name: "_pk", sqlType: "INTEGER", isPrimaryKey: true)
        let longTable = TableSpec(name: String(repeating: "T", count: 64), kind: .entity, rootEntity: "T", columns: [column])
        #expect(throws: PostgresStoreError.nameTooLong(kind: "table", name: longTable.name,
                                                        hint: "give the entity a shorter `table:` name (join tables are named after their relationship)")) {
            try PostgresLayout.adapted(StoreLayout(tables: [longTable], entities: [:]))
        }
        let index = IndexSpec(name: "strata_idx_" + String(repeating: "a", count: 60), columns: ["a"], isUnique: false)
        let table = TableSpec(name: "T", kind: .entity, rootEntity: "T",
                              columns: [column, ColumnSpec(name: "a", sqlType: "TEXT")], indexes: [index])
        let adapted = try PostgresLayout.adapted(StoreLayout(tables: [table], entities: [:]))
        #expect(adapted.tables[0].indexes[0].name == PostgresNames.shortened(index.name))
    }
}
