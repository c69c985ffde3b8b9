import Foundation
import StrataCore
@testable import StrataPostgres
import Testing

/// Predicates and batch statements rendered for PostgreSQL, without a server: the SQL SQLite runs stays as
/// it was, and PostgreSQL gets native SQL with its own placeholders, or a refusal naming what it lacks.
@Suite struct PostgresPredicateRenderingTests {
    static let model = try! ModelHistory.load(yaml: ["1.yaml": """
        version: 1
        entities:
          Recipe:
            attributes:
              name:     { type: string }
              rating:   { type: int16 }
              lastUsed: { type: date }
              favorite: { type: bool }
              price:    { type: decimal }
              code:     { type: uuid }
        """]).models[0]
    static let layout = try! PostgresLayout.adapted(LayoutBuilder.layout(for: model))
    /// 2024-05-21T00:00:00Z
    static let now: Double = 1_716_249_600

    static func compile(_ predicate: String, arguments: [PredicateArgument] = []) throws -> SQLText {
        try PredicateCompiler(model: model, layout: layout).compile(
            predicate, entity: "Recipe", context: PredicateContext(arguments: arguments, now: now), firstArgument: 0,
            origin: SourceLocation(file: "predicate", line: 1, column: 1)).0
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var predicate: String
        var sqlite: String
        var postgresql: String
        var arguments: [Value]
        var requirements: Set<PostgresRenderer.Requirement> = []
        var testDescription: String { predicate }
    }

    static let cases: [Case] = [
        Case(predicate: #"name ==[c] "SOUP""#, sqlite: #"strata_casefold(t."name") = ?"#,
             postgresql: #"lower(t."name" COLLATE "und-x-icu") = $1"#, arguments: [.text("soup")], requirements: [.icuCollation]),
        Case(predicate: #"name CONTAINS[d] "e""#, sqlite: #"strata_contains(strata_unaccent(t."name"), ?)"#,
             postgresql: #"(strpos("public".unaccent(t."name"), $1) > 0)"#, arguments: [.text("e")], requirements: [.unaccent]),
        Case(predicate: #"name BEGINSWITH "So""#, sqlite: #"strata_beginswith(t."name", ?)"#,
             postgresql: #"starts_with(t."name", $1)"#, arguments: [.text("So")]),
        Case(predicate: #"name ENDSWITH "up""#, sqlite: #"strata_endswith(t."name", ?)"#,
             postgresql: #"(right(t."name", char_length($1)) = $2)"#, arguments: [.text("up"), .text("up")]),
        Case(predicate: #"name LIKE "S*p?""#, sqlite: #"strata_like(t."name", ?)"#,
             postgresql: #"(t."name" LIKE $1)"#, arguments: [.text("S%p_")]),
        Case(predicate: #"name MATCHES "S[a-z]+p""#, sqlite: #"strata_matches(t."name", ?)"#,
             postgresql: #"(t."name" ~ $1)"#, arguments: [.text("^(?:S[a-z]+p)$")]),
        // Case folding and character classes under the ICU collation: Unicode, as SQLite's ICU regexes.
        Case(predicate: #"name MATCHES[c] "s.*""#, sqlite: #"strata_matches(t."name", ?, ?)"#,
             postgresql: #"((t."name" COLLATE "und-x-icu") ~* $1)"#, arguments: [.text("^(?:s.*)$")], requirements: [.icuCollation]),
        Case(predicate: #"name MATCHES "\\w+ \\d""#, sqlite: #"strata_matches(t."name", ?)"#,
             postgresql: #"((t."name" COLLATE "und-x-icu") ~ $1)"#, arguments: [.text(#"^(?:\w+ \d)$"#)], requirements: [.icuCollation]),
        Case(predicate: #"name MATCHES "[[:alpha:]]+""#, sqlite: #"strata_matches(t."name", ?)"#,
             postgresql: #"((t."name" COLLATE "und-x-icu") ~ $1)"#, arguments: [.text("^(?:[[:alpha:]]+)$")], requirements: [.icuCollation]),
        Case(predicate: "lastUsed >= $NOW - 30 days", sqlite: #"t."lastUsed" >= ?"#,
             postgresql: #"t."lastUsed" >= to_timestamp($1)"#, arguments: [.real(now - 2_592_000)]),
        // A computed date is compared as an infinity past timestamptz's range, as SQLite compares the number.
        Case(predicate: "lastUsed + 1 day < $NOW", sqlite: #"(t."lastUsed" + ?) < ?"#,
             postgresql: #"to_timestamp(CASE WHEN (date_part('epoch', t."lastUsed") + $1) < -210866803200 THEN CAST('-Infinity' AS double precision) "#
                + #"WHEN (date_part('epoch', t."lastUsed") + $2) >= 9224318016000 THEN CAST('Infinity' AS double precision) "#
                + #"ELSE (date_part('epoch', t."lastUsed") + $3) END) < to_timestamp($4)"#,
             arguments: [.real(86_400), .real(86_400), .real(86_400), .real(now)]),
        Case(predicate: "favorite == YES", sqlite: #"t."favorite" = ?"#,
             postgresql: #"CAST(t."favorite" AS integer) = $1"#, arguments: [.integer(1)]),
        Case(predicate: "price > 10", sqlite: #"strata_decimal_compare(t."price", ?) > 0"#,
             postgresql: #"sign(CAST(t."price" AS numeric) - CAST($1 AS numeric)) > 0"#, arguments: [.text("10")]),
        Case(predicate: "price != 2.50", sqlite: #"strata_decimal_compare(t."price", ?) IS NOT 0"#,
             postgresql: #"sign(CAST(t."price" AS numeric) - CAST($1 AS numeric)) IS DISTINCT FROM 0"#, arguments: [.text("2.5")]),
        Case(predicate: "NOT (rating > 3)", sqlite: #"NOT COALESCE(t."rating" > ?, 0)"#,
             postgresql: #"NOT COALESCE(t."rating" > $1, false)"#, arguments: [.integer(3)]),
        Case(predicate: "rating != 3 AND FALSEPREDICATE", sqlite: #"(t."rating" IS NOT ? AND 0)"#,
             postgresql: #"(t."rating" IS DISTINCT FROM $1 AND false)"#, arguments: [.integer(3)]),
        Case(predicate: #"code == "6F1C0D2A-8B3E-4C5D-9E7F-0A1B2C3D4E5F""#, sqlite: #"t."code" = ?"#,
             postgresql: #"CAST(t."code" AS text) = $1"#, arguments: [.text("6f1c0d2a-8b3e-4c5d-9e7f-0a1b2c3d4e5f")]),
        Case(predicate: "length(name) > 3", sqlite: #"strata_length(t."name") > ?"#,
             postgresql: #"char_length(regexp_replace(replace(t."name", E'\r\n', E'\n'), '[\u0300-\u036F\u1AB0-\u1AFF\u1DC0-\u1DFF\u20D0-\u20FF\uFE00-\uFE0F\uFE20-\uFE2F\U0001F3FB-\U0001F3FF]|\u200D.', '', 'g')) > $1"#,
             arguments: [.integer(3)]),
    ]

    @Test(arguments: cases) func rendersBothDialects(_ c: Case) throws {
        let statement = try Self.compile(c.predicate)
        #expect(statement.sql == c.sqlite)
        let rendering = try PostgresRenderer(unaccentSchema: "public").rendering(statement)
        #expect(rendering.sql == c.postgresql)
        #expect(rendering.arguments == c.arguments)
        #expect(rendering.requirements == c.requirements)
    }

    /// A constant date past timestamptz's range (4713 BC to 294276 AD) is bound as an infinity on PostgreSQL, so
    /// the comparison holds or fails as SQLite's on the number, instead of "timestamp out of range" (exit 3).
    @Test(arguments: [("lastUsed >= $NOW - 9223372036854775807 days", -Double.infinity), ("lastUsed < $NOW + 1000000000 days", Double.infinity),
                      ("lastUsed > $NOW - 1000000000 days", -Double.infinity)])
    func aConstantDatePastTheRangeIsAnInfinity(_ predicate: String, _ bound: Double) throws {
        let statement = try Self.compile(predicate)
        let rendering = try PostgresRenderer(unaccentSchema: "public").rendering(statement)
        #expect(rendering.sql.hasSuffix(#"t."lastUsed" "# + predicate.split(separator: " ")[1] + " to_timestamp($1)"), "\(rendering.sql)")
        #expect(rendering.arguments == [.real(bound)])
        #expect(statement.sql == #"t."lastUsed" "# + predicate.split(separator: " ")[1] + " ?")
    }

    static let refusals: [(String, String)] = [
        (#"name MATCHES "\\bSoup""#, #"MATCHES "\bSoup" uses a word boundary (\b), which only ICU regular expressions have on a PostgreSQL store"#),
        (#"name MATCHES "\\p{L}+""#, #"MATCHES "\p{L}+" uses a Unicode property (\p{…}), which only ICU regular expressions have on a PostgreSQL store"#),
        (#"name MATCHES "\\Qa.b\\E""#, #"MATCHES "\Qa.b\E" uses quoting (\Q…\E), which only ICU regular expressions have on a PostgreSQL store"#),
        (#"name MATCHES "a++""#, #"MATCHES "a++" uses a possessive quantifier (++), which only ICU regular expressions have on a PostgreSQL store"#),
        (#"name MATCHES "(?>ab)c""#, #"MATCHES "(?>ab)c" uses an atomic group ((?>…)), which only ICU regular expressions have on a PostgreSQL store"#),
    ]

    @Test func longINListsAreOneBoundJSONArrayOfTheComparedType() throws {
        let statement = try Self.compile("rating IN {" + (1...40).map(String.init).joined(separator: ", ") + "}")
        #expect(statement.sql == #"t."rating" IN (SELECT value FROM json_each(?))"#)
        let rendering = try PostgresRenderer().rendering(statement)
        #expect(rendering.sql == #"t."rating" IN (SELECT value FROM (SELECT CAST(e AS bigint) AS value FROM jsonb_array_elements_text(CAST($1 AS jsonb)) AS e) AS strata_list)"#)
        #expect(rendering.arguments == [.text("[" + (1...40).map(String.init).joined(separator: ",") + "]")])
    }

    @Test(arguments: refusals) func refusesWhatPostgreSQLCannotRun(_ predicate: String, _ message: String) throws {
        let statement = try Self.compile(predicate)
        let error = #expect(throws: PostgresRenderError.self) { try PostgresRenderer().rendering(statement) }
        #expect(error?.diagnostics.first?.message == message)
        #expect(error?.exitCode == .invalidInput)
    }

    @Test func regexSyntaxBothEnginesReadAlikeIsAccepted() throws {
        for pattern in [#"a[+*]b"#, #"\+\+"#, "a+?b", #"\d{2}-\w+"#, "(?:ab)+", "[]b]+"] {
            #expect(throws: Never.self) { try PostgresRenderer.checkRegex(pattern) }
        }
    }

    @Test func updateAssignmentsConvertStorageFormsToNativeTypes() throws {
        let request = BatchUpdateRequest(entity: "Recipe", predicate: "lastUsed >= $NOW - 30 days", propertiesToUpdate: [
            "favorite": .literal("true"), "lastUsed": .expression("now()"), "price": .literal("12.50"),
            "code": .literal("6F1C0D2A-8B3E-4C5D-9E7F-0A1B2C3D4E5F"), "rating": .expression("rating + 1"),
        ])
        let plan = try BatchPlanner(model: Self.model, layout: Self.layout).planUpdate(request, context: PredicateContext(now: Self.now))
        let statement = plan.update(returning: false)
        #expect(statement.sql == #"UPDATE "Recipe" AS t SET "code" = ?, "favorite" = ?, "lastUsed" = ?, "price" = ?, "rating" = (t."rating" + ?) WHERE t."lastUsed" >= ?"#)
        let rendering = try PostgresRenderer().rendering(statement)
        #expect(rendering.sql == #"UPDATE "Recipe" AS t SET "code" = CAST($1 AS uuid), "favorite" = ($2 <> 0), "lastUsed" = to_timestamp($3), "price" = CAST($4 AS numeric), "rating" = (CAST(t."rating" AS bigint) + CAST($5 AS bigint)) WHERE t."lastUsed" >= to_timestamp($6)"#)
        #expect(rendering.arguments == [.text("6f1c0d2a-8b3e-4c5d-9e7f-0a1b2c3d4e5f"), .integer(1), .real(Self.now), .text("12.5"),
                                        .integer(1), .real(Self.now - 2_592_000)])
    }

    @Test func temporaryTablesAndIgnoredConflictsTakePostgreSQLSpelling() throws {
        let cascade: SQLText = .keyword(.insertOrIgnore) + " INTO \(BatchPlanner.doomedTable) SELECT 1" + .keyword(.onConflictIgnore)
        #expect(cascade.sql == #"INSERT OR IGNORE INTO temp."strata_doomed" SELECT 1"#)
        #expect(try PostgresRenderer().rendering(cascade).sql == #"INSERT INTO pg_temp."strata_doomed" SELECT 1 ON CONFLICT DO NOTHING"#)
    }
}
