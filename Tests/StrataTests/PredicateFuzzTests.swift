import Foundation
import StrataTestSupport
import GRDB
import Testing
@testable import Strata

/// A seeded, time-bounded fuzz of the predicate and expression compiler (issue 12): random token soups,
/// deep nesting, huge literals, long chains and mutations of valid predicates. Every input either
/// compiles to SQL that SQLite runs, or fails with a located error on line 1 of `predicate`/`value`.
/// Never a crash. `STRATA_FUZZ_SEED` replays a seed.
@Suite struct PredicateFuzzTests {
    static let seed: UInt64 = ProcessInfo.processInfo.environment["STRATA_FUZZ_SEED"].flatMap { UInt64($0) } ?? 20_261_124

    static let valid = [
        "rating >= 3", "name ==[cd] \"creme\"", "lastUsed >= $NOW - 30 days", "price > 10", "rating BETWEEN {1, 3}",
        "rating IN {1, 2, 5}", "author.name BEGINSWITH \"A\"", "ANY ingredients.name == \"salt\"", "ingredients.@count > 1",
        "SUBQUERY(ingredients, $i, $i.quantity > 10).@count > 0", "NOT (rating > 3) OR favorite == YES", "calories / 2 > rating * 10",
        "name MATCHES \"S.*\"", "lastUsed > \"2024-05-01T00:00:00+02:00\"", "rating == nil", "ALL ingredients.quantity > 1",
        "abs(rating - 3) <= 1", "length(name) > 4", "lowercase(name) CONTAINS \"s\"", "tags.@count == 0 AND notes == nil",
    ]

    static let vocabulary = [
        "rating", "name", "lastUsed", "price", "calories", "favorite", "notes", "author", "author.name", "ingredients", "ingredients.name",
        "ingredients.@count", "tags.label", "==", "=", "!=", "<>", "<", "<=", ">", ">=", "=>", "BETWEEN", "IN", "AND", "OR", "NOT", "!",
        "&&", "||", "(", ")", "{", "}", ",", "+", "-", "*", "/", "ANY", "ALL", "NONE", "SOME", "SUBQUERY", "$i", "$i.name", "$NOW", "$DAYS",
        "$BAD", "days", "hours", "%@", "%K", "nil", "NULL", "YES", "NO", "TRUEPREDICATE", "FALSEPREDICATE", "\"Soup\"", "\"2024-02-30\"",
        "\"2024-05-01\"", "\"(unclosed\"", "\"a{2,1}\"", "MATCHES", "CONTAINS[cd]", "LIKE[c]", "BEGINSWITH", "ENDSWITH", "[d]",
        "9223372036854775807", "9223372036854775808", "-9223372036854775808", "9007199254740993", "1e308", "1e309", "0.5", "3", "0",
        "abs(", "lowercase(", "length(", "now()", "@count", "@sum", ".", "#rating", "\"", "'", "$", "@", "%", "\\", "\u{0}", "é", "🍲",
    ]

    static func soup(_ g: inout SeededGenerator) -> String {
        let count = Int.random(in: 1...30, using: &g)
        let separator = Bool.random(using: &g) ? " " : ""
        return (0..<count).map { _ in vocabulary.randomElement(using: &g)! }.joined(separator: separator)
    }

    static func nested(_ g: inout SeededGenerator) -> String {
        var text = valid.randomElement(using: &g)!
        let depth = Int.random(in: 1...160, using: &g)
        for i in 0..<depth {
            switch Int.random(in: 0..<6, using: &g) {
            case 0: text = "(" + text + ")"
            case 1: text = "NOT " + text
            case 2: text = "!" + text
            case 3: text = "rating == \(i) OR (" + text + ")"
            case 4: text = "NOT (rating == \(i) AND " + text + ")"
            default: text = "(" + text + ") AND TRUEPREDICATE"
            }
        }
        return text
    }

    static func nestedExpression(_ g: inout SeededGenerator) -> String {
        var text = ["rating", "1", "calories", "price", "length(name)"].randomElement(using: &g)!
        for _ in 0..<Int.random(in: 1...140, using: &g) {
            switch Int.random(in: 0..<5, using: &g) {
            case 0: text = "(" + text + " + 1)"
            case 1: text = "-" + text
            case 2: text = "abs(" + text + ")"
            case 3: text = "(" + text + ") * 2"
            default: text = "(" + text + ")"
            }
        }
        return text + [" > 3", " IN {1, 2}", " BETWEEN {0, 9}"].randomElement(using: &g)!
    }

    static func hugeLiteral(_ g: inout SeededGenerator) -> String {
        let digits = String((0..<Int.random(in: 1...30, using: &g)).map { _ in "0123456789".randomElement(using: &g)! })
        let sign = Bool.random(using: &g) ? "-" : ""
        let key = ["rating", "calories", "price", "lastUsed", "favorite", "name"].randomElement(using: &g)!
        let op = ["==", "<", "+ 1 >", "* 2 ==", "- 9223372036854775807 <", "IN {1,", "BETWEEN {0,"].randomElement(using: &g)!
        let close = op.hasPrefix("IN") || op.hasPrefix("BETWEEN") ? "}" : ""
        return "\(key) \(op) \(sign)\(digits)\(close)"
    }

    static func chain(_ g: inout SeededGenerator) -> String {
        let n = Int.random(in: 2...3_000, using: &g)
        switch Int.random(in: 0..<4, using: &g) {
        case 0: return (0..<n).map { "rating == \($0)" }.joined(separator: " OR ")
        case 1: return (0..<n).map { _ in "rating >= 0" }.joined(separator: " && ")
        case 2: return "rating" + String(repeating: " + 1", count: n) + " > 3"
        default: return "rating IN {" + (0..<n).map(String.init).joined(separator: ",") + "}"
        }
    }

    static func mutate(_ g: inout SeededGenerator) -> String {
        var scalars = Array(valid.randomElement(using: &g)!.unicodeScalars)
        for _ in 0..<Int.random(in: 1...3, using: &g) {
            let position = Int.random(in: 0...scalars.count, using: &g)
            switch Int.random(in: 0..<3, using: &g) {
            case 0 where position < scalars.count: scalars.remove(at: position)
            case 1: scalars.insert(contentsOf: vocabulary.randomElement(using: &g)!.unicodeScalars, at: position)
            default:
                if position < scalars.count { scalars[position] = "(){}\"'!$%@#.,-+*/<=>[]0 9".unicodeScalars.randomElement(using: &g)! }
            }
        }
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars)
        return text
    }

    static func input(_ g: inout SeededGenerator) -> String {
        switch Int.random(in: 0..<6, using: &g) {
        case 0: return soup(&g)
        case 1: return nested(&g)
        case 2: return nestedExpression(&g)
        case 3: return hugeLiteral(&g)
        case 4: return chain(&g)
        default: return mutate(&g)
        }
    }

    /// Fails the test unless the error is on line 1 of `file`, at a column inside the text (or just after it).
    static func checkLocated(_ error: StrataCore.PredicateCompileError, file: String, text: String, seed: UInt64, iteration: Int) {
        let location = error.diagnostic.location
        let columns = text.unicodeScalars.count + 1
        let ok = location?.file == file && location?.line == 1 && (1...max(1, columns)).contains(location?.column ?? 0)
            || (location?.file == file && text.contains("\n"))
        #expect(ok, "seed \(seed) #\(iteration): \(error.diagnostic.headline) for \(text.prefix(200))")
    }

    @Test func predicatesCompileToRunnableSQLOrLocatedErrors() throws {
        let fixture = try PredicateFixture.make()
        var g = SeededGenerator(seed: Self.seed)
        let clock = ContinuousClock()
        let start = clock.now
        var iteration = 0, compiled = 0, refused = 0
        // A few seconds, but at least 150 inputs even on a loaded machine (and never more than 30 s).
        while (clock.now - start < .seconds(4) || iteration < 150) && clock.now - start < .seconds(30) {
            iteration += 1
            let text = Self.input(&g)
            let arguments: [PredicateArgument] = Bool.random(using: &g) ? [] : [[.text("3"), .text("name"), .list(["1", "2"]), .number(9e18)].randomElement(using: &g)!]
            let context = PredicateContext(arguments: arguments, variables: ["DAYS": "30", "BAD": "x"], now: PredicateFixture.now)
            do {
                let statement = try fixture.compiler.compile(text, entity: "Recipe", context: context)
                compiled += 1
                let filter = fixture.compiler.entityFilter(for: "Recipe", includesSubentities: false)!
                let select = RenderedSQL("SELECT t.\"_pk\" FROM \"Recipe\" AS t WHERE \(filter.sql) AND \(statement.sql)",
                                          filter.arguments + statement.arguments)
                // The audit's shape: the predicate under NOT COALESCE, inside a subquery.
                let audit = RenderedSQL("SELECT COUNT(*) FROM (SELECT t.\"_pk\" FROM \"Recipe\" AS t WHERE NOT COALESCE(\(statement.sql), 0))",
                                         statement.arguments)
                do {
                    try fixture.store.queue.read { db in
                        _ = try Row.fetchAll(db, sql: select.sql, arguments: select.statementArguments)
                        _ = try Row.fetchAll(db, sql: audit.sql, arguments: audit.statementArguments)
                    }
                } catch {
                    Issue.record("seed \(Self.seed) #\(iteration): SQLite refused a compiled predicate: \(error) for \(text.prefix(300))")
                }
            } catch {
                refused += 1
                Self.checkLocated(error, file: "predicate", text: text, seed: Self.seed, iteration: iteration)
            }
        }
        #expect(compiled > 5 && refused > 5, "compiled \(compiled), refused \(refused) of \(iteration)")
        print("predicate fuzz, seed \(Self.seed): \(iteration) inputs, \(compiled) compiled and ran, \(refused) refused with a location")
    }

    @Test func expressionsCompileToRunnableSQLOrLocatedErrors() throws {
        let fixture = try PredicateFixture.make()
        var g = SeededGenerator(seed: Self.seed &+ 1)
        let clock = ContinuousClock()
        let start = clock.now
        var iteration = 0, compiled = 0
        while (clock.now - start < .seconds(2) || iteration < 100) && clock.now - start < .seconds(30) {
            iteration += 1
            var text = Self.input(&g)
            for suffix in [" > 3", " IN {1, 2}", " BETWEEN {0, 9}"] where text.hasSuffix(suffix) { text.removeLast(suffix.count) }
            let target = ["rating", "calories", "name", "lastUsed", "price", "favorite"].randomElement(using: &g)!
            let context = PredicateContext(variables: ["DAYS": "30"], now: PredicateFixture.now)
            do {
                let (statement, _) = try fixture.compiler.compileValue(text, for: target, of: "Recipe", context: context)
                compiled += 1
                do {
                    try fixture.store.queue.read { db in
                        _ = try db.makeStatement(sql: "SELECT \(statement.sql) FROM \"Recipe\" AS t WHERE t.\"_pk\" IN (SELECT \"_pk\" FROM \"Recipe\" WHERE 1)")
                    }
                } catch {
                    Issue.record("seed \(Self.seed) #\(iteration): SQLite refused a compiled value: \(error) for \(text.prefix(300))")
                }
            } catch {
                Self.checkLocated(error, file: "value", text: text, seed: Self.seed, iteration: iteration)
            }
        }
        #expect(compiled > 0, "compiled \(compiled) of \(iteration)")
        print("expression fuzz, seed \(Self.seed): \(iteration) inputs, \(compiled) compiled")
    }
}
