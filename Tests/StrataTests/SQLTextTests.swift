import Testing
@testable import StrataCore

@Suite struct SQLTextTests {
    let recipe = TableName("Recipe")
    let name = ColumnName("name")

    @Test func interpolationQuotesNamesAndBindsValues() {
        let text: SQLText = "UPDATE \(recipe) SET \(name) = \(Value.text("a\"b")) WHERE \(ColumnName("_pk", qualifier: "t")) > \(7)"
        #expect(text.sql == #"UPDATE "Recipe" SET "name" = ? WHERE t."_pk" > ?"#)
        #expect(text.arguments == [.text("a\"b"), .integer(7)])
    }

    @Test func identifiersWithQuotesAreDoubled() {
        let text: SQLText = "SELECT \(ColumnName("we\"ird")) FROM \(TableName("strata_touched", schema: "temp"))"
        #expect(text.sql == #"SELECT "we""ird" FROM temp."strata_touched""#)
    }

    /// GRDB binds a text as a C string, which SQLite cuts at its first NUL: such a text goes as its bytes,
    /// made text again by SQL, so it is stored and compared whole.
    @Test func aTextWithANULIsBoundAsBytes() {
        let text: SQLText = "SELECT \(Value.text("a\0b")) = \(Value.text("ab"))"
        #expect(text.sql == "SELECT CAST(? AS TEXT) = ?")
        #expect(text.arguments == [.blob([0x61, 0, 0x62]), .text("ab")])
        #expect(text.rendered(for: .postgresql).arguments == [.text("a\0b"), .text("ab")])
    }

    @Test func postgresqlNumbersPlaceholders() {
        let text: SQLText = "SELECT \(1) + \(Value.real(2.5)) WHERE \(name) = \(Value.text("x"))"
        let rendered = text.rendered(for: .postgresql)
        #expect(rendered.sql == #"SELECT $1 + $2 WHERE "name" = $3"#)
        #expect(rendered.arguments == [.integer(1), .real(2.5), .text("x")])
    }

    @Test func composingKeepsValuesInTextOrder() {
        let parts: [SQLText] = ["\(name) = \(1)", "\(ColumnName("b")) = \(Value.text("two"))"]
        let text = "WHERE " + parts.joined(separator: " AND ") + SQLText.call(" OR coalesce", [.bind(.null), "0"])
        #expect(text.sql == #"WHERE "name" = ? AND "b" = ? OR coalesce(?, 0)"#)
        #expect(text.arguments == [.integer(1), .text("two"), .null])
    }

    @Test func boundValueIsTheWholeStatementOnly() {
        #expect(SQLText.bind(.integer(3)).boundValue == .integer(3))
        #expect(("(" + SQLText.bind(.integer(3)) + ")").boundValue == nil)
        #expect(SQLText("?").boundValue == nil)
    }

    @Test func adjacentTextMerges() {
        let text: SQLText = "a" + "b" + SQLText.bind(.integer(1)) + "c"
        #expect(text.pieces == [.text("ab"), .value(.integer(1)), .text("c")])
    }
}
