import Testing
@testable import Strata

/// Bad predicates: exact location and message (the hint is checked for a few).
@Suite struct PredicateErrorTests {
    struct BadCase: CustomTestStringConvertible, Sendable {
        var predicate: String
        var headline: String
        var arguments: [PredicateArgument]
        var testDescription: String { predicate }
        init(_ predicate: String, _ headline: String, arguments: [PredicateArgument] = []) {
            self.predicate = predicate
            self.headline = headline
            self.arguments = arguments
        }
    }

    static let cases: [BadCase] = [
        .init("lastUsd >= $NOW", #"predicate:1:1: error: Recipe has no attribute 'lastUsd' (did you mean 'lastUsed'?)"#),
        .init("rating == \"five\"", #"predicate:1:11: error: rating is int16, but 'five' is not an integer"#),
        .init("rating == ", "predicate:1:11: error: expected a value but found end of predicate"),
        .init("", "predicate:1:1: error: empty predicate"),
        .init("rating >", "predicate:1:9: error: expected a value but found end of predicate"),
        .init("rating >= 3 AND", "predicate:1:16: error: expected a value but found end of predicate"),
        .init("(rating >= 3", #"predicate:1:13: error: expected ')' but found end of predicate"#),
        .init("rating >= 3)", #"predicate:1:12: error: unexpected ')'"#),
        .init("rating ~ 3", #"predicate:1:8: error: unexpected character '~'"#),
        .init("rating CONTAIN 3", #"predicate:1:8: error: expected a comparison operator but found 'CONTAIN'"#),
        .init("name == \"unterminated", "predicate:1:9: error: unterminated string"),
        .init("name == 5", "predicate:1:9: error: name is string, but 5 is a number, not a string"),
        .init("rating == 70000", "predicate:1:11: error: rating is int16, but 70000 is out of range for int16 (-32768...32767)"),
        .init("rating == 2.5", "predicate:1:11: error: rating is int16, but 2.5 is not an integer"),
        .init("favorite == 2", "predicate:1:13: error: favorite is bool, but 2 is not a boolean (use YES or NO)"),
        .init("favorite == \"maybe\"", #"predicate:1:13: error: favorite is bool, but 'maybe' is not a boolean (use true/false or YES/NO)"#),
        .init("lastUsed > \"yesterday\"", #"predicate:1:12: error: lastUsed is date, but 'yesterday' is not an ISO 8601 date (e.g. "2024-05-01" or "2024-05-01T00:00:00Z")"#),
        .init("code == \"not-a-uuid\"", #"predicate:1:9: error: code is uuid, but 'not-a-uuid' is not a UUID"#),
        .init("price == \"abc\"", #"predicate:1:10: error: price is decimal, but 'abc' is not a decimal number (write digits, e.g. "12.50")"#),
        .init("rating CONTAINS \"3\"", "predicate:1:1: error: CONTAINS compares strings, but rating is int16"),
        .init("rating < nil", "predicate:1:8: error: nil can only be compared with == or !="),
        .init("author == \"Ana\"", #"predicate:1:1: error: 'author' is a relationship; it can only be compared with nil"#),
        .init("author.nme == \"Ana\"", #"predicate:1:8: error: Chef has no attribute 'nme' (did you mean 'name'?)"#),
        .init("ingredients == nil", #"predicate:1:1: error: compare an attribute of 'ingredients', not the relationship itself"#),
        .init("ANY rating > 3", "predicate:1:1: error: ANY needs a to-many key path"),
        .init("ingredients.@count == \"x\"", #"predicate:1:23: error: ingredients.@count is int64, but 'x' is not an integer"#),
        .init("ingredients.@cnt > 1", #"predicate:1:13: error: unknown aggregate '@cnt'"#),
        .init("rating.@count > 1", #"predicate:1:8: error: 'rating' is an attribute of Recipe; a key path cannot continue after it"#),
        .init("name.length == 3", #"predicate:1:6: error: 'name' is an attribute of Recipe; a key path cannot continue after it"#),
        .init("rating == $MISSING", "predicate:1:11: error: unknown variable $MISSING"),
        .init("rating == %@", "predicate:1:11: error: missing argument for %@: 0 given"),
        .init("rating == %@", "predicate:1:13: error: 2 arguments given but the predicate uses 1", arguments: [.number(1), .number(2)]),
        .init("%K == 1", #"predicate:1:1: error: Recipe has no attribute 'nope' (did you mean 'code'?)"#, arguments: [.key("nope")]),
        .init("%K == 1", #"predicate:1:1: error: Recipe has no attribute 'name"; DROP TABLE Recipe; --'"#, arguments: [.key("name\"; DROP TABLE Recipe; --")]),
        .init("rating > 3 days ago", #"predicate:1:17: error: unexpected 'ago'"#),
        .init("name ==[x] \"a\"", #"predicate:1:9: error: unknown comparison option 'x'"#),
        .init("rating <[c] 3", "predicate:1:9: error: options [c] do not apply to <"),
        .init("rating BETWEEN {1}", "predicate:1:16: error: BETWEEN needs exactly two values, got 1"),
        .init("rating BETWEEN 1", "predicate:1:16: error: BETWEEN needs a list of two values"),
        .init("rating IN 3", "predicate:1:11: error: IN needs a list or a to-many key path"),
        .init("lowercase(rating) == \"a\"", "predicate:1:11: error: lowercase() needs a string"),
        .init("lower(name) == \"a\"", #"predicate:1:1: error: unknown function 'lower'"#),
        .init("SUBQUERY(ingredients, $i, $i.name == \"x\") > 0", "predicate:1:1: error: SUBQUERY(…) must be followed by .@count"),
        .init("SUBQUERY(rating, $i, $i.name == \"x\").@count > 0", "predicate:1:10: error: SUBQUERY needs a to-many relationship"),
        .init("SUBQUERY(ingredients, $i, $j.name == \"x\").@count > 0", "predicate:1:27: error: unknown SUBQUERY variable $j"),
        .init("name == nme", #"predicate:1:9: error: Recipe has no attribute 'nme' (did you mean 'name'?)"#),
        .init("rating == name", "predicate:1:11: error: cannot compare rating (int16) with name (string)"),
        .init("rating == $NOW", "predicate:1:11: error: cannot compare rating (int16) with $NOW (date)"),
        .init("lastUsed > calories", "predicate:1:12: error: cannot compare lastUsed (date) with calories (double)"),
        .init("name + 1 == 3", "predicate:1:8: error: + joins strings only, but 1 is an integer"),
        .init("name * 2 == 3", "predicate:1:1: error: arithmetic needs numbers or dates, but name is string"),
        .init("rating == 3 rating", #"predicate:1:13: error: unexpected 'rating'"#),
        .init("rating @ 3", #"predicate:1:8: error: expected an aggregate after '@'"#),
        .init("$ == 3", #"predicate:1:1: error: expected a variable name after '$'"#),
        .init("rating == %d", "predicate:1:11: error: unknown format specifier"),
        .init("AND rating == 3", #"predicate:1:1: error: expected a value but found 'AND'"#),
        .init("rating == 3 OR", "predicate:1:15: error: expected a value but found end of predicate"),
        .init("ingredients.name.length == 1", #"predicate:1:18: error: 'name' is an attribute of Ingredient; a key path cannot continue after it"#),
        .init("ANY tags.recipes.name == \"x\"", "predicate:1:10: error: a key path can cross only one to-many relationship"),
        .init("lastUsed + lastUsed > 3", "predicate:1:10: error: dates can only be subtracted from each other"),
        .init("name ==[c] 3", "predicate:1:12: error: name is string, but 3 is a number, not a string"),
        .init("IN == 3", #"predicate:1:1: error: expected a value but found 'IN'"#),
    ]

    @Test(arguments: cases)
    func rejects(_ c: BadCase) throws {
        let fixture = try PredicateMatchTests.fixture.get()
        let context = PredicateContext(arguments: c.arguments, now: PredicateFixture.now)
        #expect(throws: PredicateCompileError.self) {
            _ = try fixture.compiler.compile(c.predicate, entity: "Recipe", context: context)
        }
        do {
            _ = try fixture.compiler.compile(c.predicate, entity: "Recipe", context: context)
        } catch {
            #expect(error.diagnostic.headline == c.headline)
        }
    }

    @Test func atLeastFortyBadPredicates() { #expect(Self.cases.count >= 40) }

    @Test func rendersCaretAndHint() throws {
        let fixture = try PredicateMatchTests.fixture.get()
        do {
            _ = try fixture.compiler.compile("rating >= 3 AND lastUsd >= $NOW", entity: "Recipe", context: PredicateContext(now: 0))
            Issue.record("expected an error")
        } catch {
            #expect(error.description == """
            predicate:1:17: error: Recipe has no attribute 'lastUsd' (did you mean 'lastUsed'?)
                rating >= 3 AND lastUsd >= $NOW
                                ^
            hint: Recipe's keys: calories, code, favorite, lastUsed, name, notes, price, rating, author, ingredients, tags
            """)
        }
    }

    @Test func locatesInsideAFile() throws {
        let fixture = try PredicateMatchTests.fixture.get()
        let origin = SourceLocation(file: "migrations/fav.yaml", line: 7, column: 19)
        do {
            _ = try fixture.compiler.compile("rating >= \"high\"", entity: "Recipe", context: PredicateContext(now: 0), origin: origin)
            Issue.record("expected an error")
        } catch {
            #expect(error.diagnostic.headline == "migrations/fav.yaml:7:29: error: rating is int16, but 'high' is not an integer")
            #expect(error.diagnostic.sourceLine == nil)
        }
    }

    @Test func unknownEntity() throws {
        let fixture = try PredicateMatchTests.fixture.get()
        #expect(throws: PredicateCompileError.self) {
            _ = try fixture.compiler.compile("TRUEPREDICATE", entity: "Recipie", context: PredicateContext(now: 0))
        }
    }
}
