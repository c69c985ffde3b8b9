import Testing
@testable import Strata

/// Exact SQL and arguments for a subset of predicates.
@Suite struct PredicateSQLTests {
    struct SQLCase: CustomTestStringConvertible, Sendable {
        var predicate: String
        var sql: String
        var arguments: [Value]
        var testDescription: String { predicate }
        init(_ predicate: String, _ sql: String, _ arguments: [Value] = []) {
            self.predicate = predicate
            self.sql = sql
            self.arguments = arguments
        }
    }

    static let cases: [SQLCase] = [
        .init("rating >= 3", #"t."rating" >= ?"#, [.integer(3)]),
        .init("lastUsed >= $NOW - 30 days", #"t."lastUsed" >= ?"#, [.real(PredicateFixture.now - 2_592_000)]),
        .init("lastUsed >= \"2024-05-01\"", #"t."lastUsed" >= ?"#, [.real(1_714_521_600)]),
        .init("rating != 5", #"t."rating" IS NOT ?"#, [.integer(5)]),
        .init("NOT (rating > 3)", #"NOT COALESCE(t."rating" > ?, 0)"#, [.integer(3)]),
        .init("rating == nil", #"t."rating" IS NULL"#),
        .init("rating == 5 AND favorite == YES", #"(t."rating" = ? AND t."favorite" = ?)"#, [.integer(5), .integer(1)]),
        .init("rating < 1 OR rating > 4", #"(t."rating" < ? OR t."rating" > ?)"#, [.integer(1), .integer(4)]),
        .init("rating BETWEEN {1, 3}", #"t."rating" BETWEEN ? AND ?"#, [.integer(1), .integer(3)]),
        .init("rating IN {1, 2}", #"t."rating" IN (?, ?)"#, [.integer(1), .integer(2)]),
        .init("name ==[cd] \"Crème\"", #"strata_casefold(strata_unaccent(t."name")) = ?"#, [.text("creme")]),
        .init("name BEGINSWITH \"S\"", #"strata_beginswith(t."name", ?)"#, [.text("S")]),
        .init("name LIKE[c] \"s*\"", #"strata_like(strata_casefold(t."name"), ?)"#, [.text("s*")]),
        .init("name MATCHES \"[A-Z].*\"", #"strata_matches(t."name", ?)"#, [.text("[A-Z].*")]),
        .init("price > 10", #"strata_decimal_compare(t."price", ?) > 0"#, [.text("10")]),
        .init("code == \"6F1C0D2A-8B3E-4C5D-9E7F-0A1B2C3D4E5F\"", #"t."code" = ?"#, [.text("6f1c0d2a-8b3e-4c5d-9e7f-0a1b2c3d4e5f")]),
        .init("rating + 1 > 5", #"(t."rating" + ?) > ?"#, [.integer(1), .integer(5)]),
        // A double result may be infinite on SQLite: nil where it is used (§11.4), and so is a divisor.
        .init("calories * 1e10 > 5", #"NULLIF(NULLIF((t."calories" * ?), 9e999), -9e999) > ?"#, [.real(1e10), .real(5)]),
        .init("calories / (calories * 2) == nil", #"NULLIF(NULLIF((CAST(t."calories" AS REAL) / NULLIF(NULLIF((t."calories" * ?), 9e999), -9e999)), 9e999), -9e999) IS NULL"#, [.integer(2)]),
        .init("rating / 2 > 1", #"(CAST(t."rating" AS REAL) / ?) > ?"#, [.integer(2), .real(1)]),
        .init("author.name == \"Ana\"", #"(SELECT a1."name" FROM "Chef" AS a1 WHERE a1."_pk" = t."author") = ?"#, [.text("Ana")]),
        .init("author == nil", #"t."author" IS NULL"#),
        .init("ANY ingredients.name == \"salt\"",
              #"EXISTS (SELECT 1 FROM "Ingredient" AS a1 WHERE a1."recipe" = t."_pk" AND a1."name" = ?)"#, [.text("salt")]),
        .init("ALL ingredients.quantity > 1",
              #"NOT EXISTS (SELECT 1 FROM "Ingredient" AS a1 WHERE a1."recipe" = t."_pk" AND NOT COALESCE(a1."quantity" > ?, 0))"#, [.integer(1)]),
        .init("ingredients.@count > 1", #"(SELECT COUNT(*) FROM "Ingredient" AS a1 WHERE a1."recipe" = t."_pk") > ?"#, [.integer(1)]),
        .init("ANY tags.label == \"sweet\"",
              #"EXISTS (SELECT 1 FROM "_Recipe_tags" AS j2 JOIN "Tag" AS a1 ON a1."_pk" = j2."target" WHERE j2."source" = t."_pk" AND a1."label" = ?)"#,
              [.text("sweet")]),
        .init("TRUEPREDICATE", "1"),
        .init("NOT FALSEPREDICATE", "NOT 0"),
        // NOT's parentheses come from the condition's structure: a comparison of two subqueries starts with
        // "(" and ends with ")" but is not one group, so it is parenthesized as a whole.
        .init("NOT (ingredients.@count == ingredients.@count)",
              #"NOT ((SELECT COUNT(*) FROM "Ingredient" AS a1 WHERE a1."recipe" = t."_pk") IS (SELECT COUNT(*) FROM "Ingredient" AS a2 WHERE a2."recipe" = t."_pk"))"#),
        .init("name == \"x'); DROP TABLE Recipe; --\"", #"t."name" = ?"#, [.text("x'); DROP TABLE Recipe; --")]),
    ]

    @Test(arguments: cases)
    func sql(_ c: SQLCase) throws {
        let fixture = try PredicateMatchTests.fixture.get()
        let statement = try fixture.compiler.compile(c.predicate, entity: "Recipe", context: PredicateContext(now: PredicateFixture.now))
        #expect(statement.sql == c.sql)
        #expect(statement.arguments == c.arguments)
    }

    @Test func entityFilters() throws {
        let compiler = try PredicateMatchTests.fixture.get().compiler
        #expect(compiler.entityFilter(for: "Recipe") == nil)
        let own = compiler.entityFilter(for: "Recipe", includesSubentities: false)
        #expect(own?.sql == #"t."_entity" = ?"#)
        #expect(own?.arguments == [.text("Recipe")])
        let kinds = compiler.entityFilter(for: "Dessert")
        #expect(kinds?.sql == #"t."_entity" IN (?)"#)
        #expect(kinds?.arguments == [.text("Dessert")])
        #expect(compiler.entityFilter(for: "Chef") == nil)
    }
}
