import Testing
@testable import Strata

/// One row of the table: a predicate (with arguments and variables) and the Recipe `_pk`s it matches.
struct PredicateCase: CustomTestStringConvertible, Sendable {
    var predicate: String
    var arguments: [PredicateArgument] = []
    var variables: [String: String] = [:]
    var expected: [Int64]
    var testDescription: String { predicate }

    init(_ predicate: String, _ expected: [Int64], arguments: [PredicateArgument] = [], variables: [String: String] = [:]) {
        self.predicate = predicate
        self.expected = expected
        self.arguments = arguments
        self.variables = variables
    }
}

@Suite struct PredicateMatchTests {
    static let comparisons: [PredicateCase] = [
        .init("rating == 5", [2, 8]),
        .init("rating = 5", [2, 8]),
        .init("rating != 5", [1, 3, 4, 5, 6, 7]),
        .init("rating <> 5", [1, 3, 4, 5, 6, 7]),
        .init("rating < 2", [4, 7]),
        .init("rating <= 2", [4, 5, 7]),
        .init("rating =< 2", [4, 5, 7]),
        .init("rating > 3", [2, 6, 8]),
        .init("rating >= 3", [1, 2, 6, 8]),
        .init("rating => 3", [1, 2, 6, 8]),
        .init("NOT (rating > 3)", [1, 3, 4, 5, 7]),
        .init("!(rating > 3)", [1, 3, 4, 5, 7]),
        .init("rating BETWEEN {2, 4}", [1, 5, 6]),
        .init("NOT rating BETWEEN {2, 4}", [2, 3, 4, 7, 8]),
        .init("rating IN {1, 3, 5}", [1, 2, 4, 8]),
        .init("NOT (rating IN {1, 3, 5})", [3, 5, 6, 7]),
        .init("rating NOT IN {1, 3, 5}", [3, 5, 6, 7]),
        .init("rating IN {}", []),
        .init("rating == nil", [3]),
        .init("rating == NULL", [3]),
        .init("rating != nil", [1, 2, 4, 5, 6, 7, 8]),
        .init("nil == rating", [3]),
        .init("5 == rating", [2, 8]),
        .init("3 < rating", [2, 6, 8]),
        .init("rating + 1 > 5", [2, 8]),
        .init("rating * 2 == 10", [2, 8]),
        .init("rating / 2 == 2.5", [2, 8]),
        .init("rating - 1 < 0", [7]),
        .init("-rating == -5", [2, 8]),
        .init("(rating + 1) * 2 >= 10", [2, 6, 8]),
        .init("rating == 2 + 3", [2, 8]),
        .init("TRUEPREDICATE", [1, 2, 3, 4, 5, 6, 7, 8]),
        .init("FALSEPREDICATE", []),
        .init("NOT FALSEPREDICATE", [1, 2, 3, 4, 5, 6, 7, 8]),
    ]

    static let logic: [PredicateCase] = [
        .init("rating > 3 AND favorite == YES", [2, 8]),
        .init("rating > 3 && favorite == NO", [6]),
        .init("rating < 1 OR rating > 4", [2, 7, 8]),
        .init("rating < 1 || rating > 4", [2, 7, 8]),
        .init("favorite == YES OR rating == 3 AND name BEGINSWITH \"S\"", [1, 2, 5, 8]),
        .init("(favorite == YES OR rating == 3) AND name BEGINSWITH \"S\"", [1]),
        .init("NOT favorite == YES AND rating > 3", [6]),
        .init("NOT (favorite == YES AND rating > 3)", [1, 3, 4, 5, 6, 7]),
        .init("NOT NOT rating == 5", [2, 8]),
        .init("favorite == TRUE", [2, 5, 8]),
        .init("favorite == false", [1, 4, 6, 7]),
        .init("favorite != YES", [1, 3, 4, 6, 7]),
        .init("favorite == 1", [2, 5, 8]),
        .init("favorite == nil", [3]),
        .init("not (rating >= 3) and not (rating == nil)", [4, 5, 7]),
    ]

    static let strings: [PredicateCase] = [
        .init("name == \"Soup\"", [1]),
        .init("name == 'Soup'", [1]),
        .init("name ==[c] \"soup\"", [1]),
        .init("name == \"soup\"", []),
        .init("name BEGINSWITH \"S\"", [1, 3]),
        .init("name BEGINSWITH[c] \"s\"", [1, 3]),
        .init("name ENDSWITH \"Cream\"", [6]),
        .init("name ENDSWITH[c] \"CREAM\"", [6]),
        .init("name CONTAINS \"e\"", [2, 3, 6, 7, 8]),
        .init("name CONTAINS[c] \"CREME\"", [5]),
        .init("name CONTAINS[cd] \"creme\"", [2, 5]),
        .init("name CONTAINS[d] \"Creme\"", [2]),
        .init("name ==[cd] \"CREME BRULEE\"", [2]),
        .init("name ==[d] \"naive stew\"", [8]),
        .init("name BEGINSWITH[cd] \"NAI\"", [8]),
        .init("name LIKE \"S*\"", [1, 3]),
        .init("name LIKE \"S??p\"", [1]),
        .init("name LIKE[c] \"*cream\"", [6]),
        .init("name LIKE \"*e*\"", [2, 3, 6, 7, 8]),
        .init("name LIKE \"Soup?\"", []),
        .init("name MATCHES \"S.*\"", [1, 3]),
        .init("name MATCHES \"[A-Z]+\"", [5]),
        .init("name MATCHES[c] \"creme\"", [5]),
        .init("name MATCHES \"oup\"", []),
        .init("name CONTAINS \"ß\"", [3]),
        .init("name ==[c] \"STRASSE SALAD\"", []),
        .init("name ==[c] \"straße salad\"", [3]),
        .init("name BEGINSWITH[c] \"I\"", [6]),
        .init("name BEGINSWITH \"ı\"", [4]),
        .init("name BEGINSWITH[c] \"İ\"", [7]),
        .init("name BEGINSWITH[cd] \"i\"", [6, 7]),
        .init("name IN {\"Soup\", \"CREME\"}", [1, 5]),
        .init("name IN[c] {\"soup\", \"creme\"}", [1, 5]),
        .init("name != \"Soup\"", [2, 3, 4, 5, 6, 7, 8]),
        .init("name < \"D\"", [2, 5]),
        .init("lowercase(name) == \"creme\"", [5]),
        .init("uppercase(name) == \"SOUP\"", [1]),
        .init("length(name) == 4", [1]),
        .init("length(name) == 12", [2, 3]),
        .init("notes == nil", [1, 2, 3, 4, 5, 6, 7, 8]),
        .init("NOT (notes CONTAINS \"x\")", [1, 2, 3, 4, 5, 6, 7, 8]),
    ]

    static let datesAndNumbers: [PredicateCase] = [
        .init("lastUsed >= \"2024-05-01\"", [1, 4, 6, 8]),
        .init("lastUsed > \"2024-05-01T12:00:00Z\"", [1, 6, 8]),
        .init("lastUsed >= $NOW - 30 days", [1, 4, 6, 8]),
        .init("lastUsed >= $NOW - 1 week", [6, 8]),
        .init("lastUsed < $NOW - 2 weeks", [2, 4, 5, 7]),
        .init("lastUsed > $NOW - 24 hours", []),
        .init("lastUsed >= $NOW - 1 day", [6]),
        .init("lastUsed BETWEEN {\"2024-01-01\", \"2024-04-30\"}", [2]),
        .init("lastUsed == \"2024-04-01\"", [2]),
        .init("lastUsed == nil", [3]),
        .init("NOT (lastUsed >= \"2024-01-01\")", [3, 5, 7]),
        .init("lastUsed >= $NOW - 1440 minutes", [6]),
        .init("lastUsed >= $NOW - 86400 seconds", [6]),
        .init("lastUsed >= now() - 1 day", [6]),
        .init("lastUsed > 1715731200", [6, 8]),
        .init("price == 12.5", [1, 8]),
        .init("price == \"12.50\"", [1, 8]),
        .init("price > 10", [1, 4, 8]),
        .init("price < 1", [5, 7]),
        .init("price BETWEEN {3, 12.5}", [1, 2, 6, 8]),
        .init("price IN {\"3\", \"100\"}", [4, 6]),
        .init("price != 12.5", [2, 3, 4, 5, 6, 7]),
        .init("price == nil", [3]),
        .init("calories > 400", [2, 7, 8]),
        .init("calories == 250", [1]),
        .init("calories >= rating * 100", [7, 8]),
        .init("code == \"6F1C0D2A-8B3E-4C5D-9E7F-0A1B2C3D4E5F\"", [1]),
        .init("code != nil", [1, 8]),
    ]

    static let relationships: [PredicateCase] = [
        .init("author.name == \"Ana\"", [1, 4]),
        .init("author.name BEGINSWITH[cd] \"c\"", [5, 8]),
        .init("author == nil", [3, 6]),
        .init("author != nil", [1, 2, 4, 5, 7, 8]),
        .init("author.name != \"Ana\"", [2, 3, 5, 6, 7, 8]),
        .init("NOT (author.name == \"Ana\")", [2, 3, 5, 6, 7, 8]),
        .init("author.name ==[cd] \"bjorn\"", []),
        .init("ANY ingredients.name == \"salt\"", [1, 5]),
        .init("SOME ingredients.name == \"salt\"", [1, 5]),
        .init("ingredients.name == \"salt\"", [1, 5]),
        .init("ALL ingredients.quantity > 1", [1, 2, 4, 6, 7, 8]),
        .init("NONE ingredients.name == \"salt\"", [2, 3, 4, 6, 7, 8]),
        .init("ingredients.@count == 2", [1, 2, 5]),
        .init("ingredients.@count == 0", [4, 6, 7]),
        .init("ingredients.@count > 1 AND rating >= 3", [1, 2]),
        .init("ingredients.@sum.quantity > 400", [1, 8]),
        .init("ingredients.@max.quantity == 200", [2]),
        .init("ingredients.@avg.quantity < 5", [3, 5]),
        .init("\"salt\" IN ingredients.name", [1, 5]),
        .init("ANY tags.label == \"sweet\"", [2, 6]),
        .init("tags.@count >= 2", [2]),
        .init("ALL tags.label == \"quick\"", [1, 3, 4, 5, 7, 8]),
        .init("SUBQUERY(ingredients, $i, $i.name == \"salt\" AND $i.quantity > 1).@count > 0", [1]),
        .init("SUBQUERY(ingredients, $i, $i.quantity >= 100).@count == 2", [2]),
        .init("ANY ingredients.name IN {\"egg\", \"water\"}", [1, 5, 8]),
        .init("author.recipes.@count >= 2", [1, 2, 4, 5, 7, 8]),
        .init("ANY author.recipes.rating == 0", [2, 7]),
    ]

    static let placeholders: [PredicateCase] = [
        .init("rating == %@", [1], arguments: [.number(3)]),
        .init("name == %@", [1], arguments: [.text("Soup")]),
        .init("%K == %@", [2, 8], arguments: [.key("rating"), .number(5)]),
        .init("%K BEGINSWITH %@", [2, 7], arguments: [.key("author.name"), .text("B")]),
        .init("rating IN %@", [4, 5], arguments: [.list(["1", "2"])]),
        .init("lastUsed > %@", [6, 8], arguments: [.text("2024-05-14")]),
        .init("lastUsed < %@", [5, 7], arguments: [.text("2024-01-01")]),
        .init("rating BETWEEN {%@, %@}", [4, 5], arguments: [.number(1), .number(2)]),
        .init("name == $DISH", [1], variables: ["DISH": "Soup"]),
        .init("rating >= $MIN", [2, 6, 8], variables: ["MIN": "4"]),
        .init("lastUsed >= $SINCE", [6, 8], variables: ["SINCE": "2024-05-15"]),
        .init("#rating == 5", [2, 8]),
        .init("  rating\n==\t5  ", [2, 8]),
    ]

    static let fixture = Result { try PredicateFixture.make() }

    @Test(arguments: comparisons + logic + strings + datesAndNumbers + relationships + placeholders)
    func matches(_ c: PredicateCase) throws {
        let fixture = try Self.fixture.get()
        let ids = try PredicateFixture.matches(fixture, c.predicate, arguments: c.arguments, variables: c.variables)
        #expect(ids == c.expected, "\(c.predicate)")
    }

    @Test func tableHasAtLeastAHundredCases() {
        let count = (Self.comparisons + Self.logic + Self.strings + Self.datesAndNumbers + Self.relationships + Self.placeholders).count
        #expect(count >= 100)
    }

    @Test func subEntityPredicatesSeeInheritedAndOwnAttributes() throws {
        let fixture = try Self.fixture.get()
        #expect(try PredicateFixture.matches(fixture, "sweetness > 6", entity: "Dessert") == [6])
        #expect(try PredicateFixture.matches(fixture, "rating >= 4", entity: "Dessert") == [2, 6])
        #expect(try PredicateFixture.matches(fixture, "TRUEPREDICATE", entity: "Dessert") == [2, 6])
    }
}
