import Foundation
import GRDB
import Testing
@testable import Strata

@Suite struct AuditPlannerTests {
    typealias F = AuditFixture

    static func rules() throws -> [AuditRule] {
        try AuditPlanner(model: F.model, layout: LayoutBuilder.layout(for: F.model), now: 0).rules(for: .full)
    }

    static func rule(_ subject: String, _ kind: AuditRule.Kind) throws -> AuditRule {
        try #require(try rules().first { "\($0.entity).\($0.property ?? "")" == subject && $0.kind == kind })
    }

    @Test func sampleAndCountSQLAreExact() throws {
        let max = try Self.rule("Recipe.rating", .max)
        let sweet = try Self.rule("Dessert.sweetness", .min)
        #expect(AuditSQL.samples([max, sweet], mode: .all, after: 7) == RenderedSQL(
            #"SELECT t."_pk", t."_entity", (t."rating" > ?), (t."_entity" IN (?) AND (t."sweetness" < ?)), t."rating", t."sweetness" FROM "Recipe" AS t WHERE t."_pk" > ? AND ((t."rating" > ?) OR (t."_entity" IN (?) AND (t."sweetness" < ?))) ORDER BY t."_pk""#,
            [.integer(5), .text("Dessert"), .integer(1), .integer(7), .integer(5), .text("Dessert"), .integer(1)]))
        #expect(AuditSQL.counts([max], mode: .touchedRows) == RenderedSQL(
            #"SELECT COUNT(*) FILTER (WHERE t."rating" > ?) FROM temp."strata_touched" AS touched CROSS JOIN "Recipe" AS t WHERE touched."table" = ? AND t."_pk" = touched."pk""#,
            [.integer(5), .text("Recipe")]))
        #expect(AuditSQL.counts([max], mode: .all) == RenderedSQL(#"SELECT COUNT(*) FILTER (WHERE t."rating" > ?) FROM "Recipe" AS t"#, [.integer(5)]))
        #expect(AuditSQL.samples([max], mode: .touchedRows) == RenderedSQL(
            #"SELECT t."_pk", t."_entity", (t."rating" > ?), t."rating" FROM temp."strata_touched" AS touched CROSS JOIN "Recipe" AS t WHERE touched."table" = ? AND t."_pk" = touched."pk" AND ((t."rating" > ?)) ORDER BY t."_pk""#,
            [.integer(5), .text("Recipe"), .integer(5)]))
    }

    @Test func relationshipAndUniquenessSQL() throws {
        #expect(try Self.rule("Recipe.ingredients", .minCount).check.rendered == [RenderedSQL(#"(SELECT COUNT(*) FROM "Ingredient" AS o WHERE o."recipe" = t."_pk") BETWEEN 1 AND ?"#, [.integer(1)]), RenderedSQL(#"(SELECT COUNT(*) FROM "Ingredient" AS o WHERE o."recipe" = t."_pk")"#)])
        #expect(try Self.rule("Tag.owner", .dangling).check.rendered == [RenderedSQL(#"t."owner" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "Chef" AS o WHERE o."_pk" = t."owner")"#), RenderedSQL(#"t."owner""#)])
        #expect(try Self.rule("Tag.owner", .dangling).entityWideTriggers == ["Chef"])
        #expect(try Self.rule("Profile.chef", .optional).check.rendered == [RenderedSQL(#"NOT EXISTS (SELECT 1 FROM "Chef" AS o WHERE o."profile" = t."_pk")"#), RenderedSQL("NULL")])
        let unique = try Self.rule("Recipe.name", .uniqueness)
        #expect(AuditSQL.duplicateGroupCount(unique).sql ==
            #"SELECT COUNT(*) FROM (SELECT 1 FROM "Recipe" AS t WHERE t."name" IS NOT NULL GROUP BY t."name" HAVING COUNT(*) > 1) AS d"#)
        // Relationships with a foreign key cannot dangle: only the noAction one is checked.
        #expect(try Self.rules().filter { $0.kind == .dangling }.map(\.entity) == ["Tag"])
    }

    @Test func boundsAndLengthsCompileToStorageForm() throws {
        #expect(try Self.rule("Recipe.price", .max).check.rendered == [RenderedSQL(#"strata_decimal_compare(t."price", ?) > 0"#, [.text("99.99")]), RenderedSQL(#"t."price""#)])
        #expect(try Self.rule("Recipe.lastUsed", .min).check.rendered == [RenderedSQL(#"t."lastUsed" < ?"#, [.real(1_577_836_800)]), RenderedSQL(#"t."lastUsed""#)])
        #expect(try Self.rule("Recipe.lastUsed", .min).constraint == "min 2020-01-01T00:00:00Z")
        #expect(try Self.rule("Recipe.servings", .max).constraint == "int16 max 32767")
        #expect(try Self.rule("Recipe.name", .maxLength).check.rendered == [RenderedSQL(#"(length(CAST(t."name" AS BLOB)) > ? AND (length(t."name") > ? OR instr(CAST(t."name" AS BLOB), x'00') > 0)) AND strata_length(CAST(t."name" AS BLOB)) > ?"#, [.integer(5), .integer(5), .integer(5)]), RenderedSQL(#"CAST(t."name" AS BLOB)"#)])
        #expect(try Self.rule("Recipe.name", .pattern).check.rendered == [RenderedSQL(#"t."name" IS NOT NULL AND COALESCE(strata_matches(CAST(t."name" AS BLOB), ?), 0) = 0"#, [.text("[A-Z].*")]), RenderedSQL(#"CAST(t."name" AS BLOB)"#)])
    }

    @Test func brokenValidationPredicateIsALocatedError() throws {
        var model = F.model
        var chef = model.entity("Chef")!
        chef.validation = [ValidationRule(predicate: "nam == 'x'", location: SourceLocation(file: "models/1.yaml", line: 9, column: 20))]
        model = Model(version: 1, entities: model.entities.filter { $0.name != "Chef" } + [chef])
        let compiler = AuditPlanner(model: model, layout: LayoutBuilder.layout(for: model), now: 0)
        do {
            _ = try compiler.rules(for: .full)
            Issue.record("expected an error")
        } catch {
            guard case .predicate(let diagnostic) = error else { Issue.record("\(error)"); return }
            #expect(diagnostic.location == SourceLocation(file: "models/1.yaml", line: 9, column: 20))
            #expect(diagnostic.message.contains("nam"))
        }
    }

    /// A one-attribute store: every value of `values` inserted in order (p1, p2, …).
    static func audit(_ attribute: Attribute, _ values: [Value]) throws -> [String: [String]] {
        let model = Model(version: 1, entities: [Entity(name: "E", attributes: [attribute])])
        let (queue, layout) = try F.emptyStore(model: model)
        try queue.write { db in
            for v in values {
                let arg: DatabaseValue
                switch v {
                case .null: arg = .null
                case .integer(let i): arg = i.databaseValue
                case .real(let d): arg = d.databaseValue
                case .text(let s): arg = s.databaseValue
                case .blob(let b): arg = Data(b).databaseValue
                }
                try db.execute(sql: #"INSERT INTO "E" ("a") VALUES (?)"#, arguments: [arg])
            }
        }
        let result = try queue.read { db in try Auditor(model: model, layout: layout, storeUUID: "u").run(in: db, scope: .full) }
        return Dictionary(uniqueKeysWithValues: result.violated.map { ($0.rule, $0.samples.map { $0.objectID.components(separatedBy: "/").last! }) })
    }

    @Test func patternIsAWholeValueMatch() throws {
        let a = F.attribute("a", .string, pattern: "[A-Z][a-z]*")
        #expect(try Self.audit(a, [.text("Abc"), .text("abc"), .text("xAbc"), .text("Abc1"), .text("A"), .null, .text("")])
                == ["pattern": ["p2", "p3", "p4", "p7"]])
    }

    @Test func lengthsCountCharacters() throws {
        let a = F.attribute("a", .string, minLength: 2, maxLength: 3)
        // "é" precomposed and decomposed is one Character; an emoji family is one Character.
        #expect(try Self.audit(a, [.text("é"), .text("e\u{301}e\u{301}"), .text("e\u{301}e\u{301}e\u{301}"),
                                   .text("👨‍👩‍👧👨‍👩‍👧"), .text("abcd"), .null, .text(""),
                                   .text("\r\n"), .text("a\n\r")])
                == ["minLength": ["p1", "p7", "p8"], "maxLength": ["p5"]])
    }

    @Test func minLengthOneNeedsOnlyEmptiness() throws {
        let a = F.attribute("a", .string, minLength: 1, maxLength: 1)
        #expect(try Self.audit(a, [.text(""), .text("\r\n"), .text("e\u{301}"), .text("ab"), .null])
                == ["minLength": ["p1"], "maxLength": ["p4"]])
    }

    @Test(arguments: [
        (F.attribute("a", .int32, min: .integer(-5), max: .integer(5)), [Value.integer(-5), .integer(5), .integer(-6), .integer(6), .null],
         ["min": ["p3"], "max": ["p4"]]),
        (F.attribute("a", .int32), [.integer(2_147_483_647), .integer(2_147_483_648), .integer(-2_147_483_649), .null],
         ["max": ["p2"], "min": ["p3"]]),
        (F.attribute("a", .int64), [.integer(Int64.max), .integer(Int64.min), .null], [:]),
        (F.attribute("a", .float, min: .real(-0.5), max: .real(0.5)), [.real(-0.5), .real(0.5), .real(-0.51), .real(0.51), .null],
         ["min": ["p3"], "max": ["p4"]]),
        (F.attribute("a", .decimal, min: .text("-1.5"), max: .text("12.5")),
         [.text("12.5"), .text("12.50000000000000000001"), .text("-1.5"), .text("-1.6"), .null], ["max": ["p2"], "min": ["p4"]]),
        (F.attribute("a", .date, max: F.date("2024-05-01")), [F.date("2024-05-01"), .real(F.seconds("2024-05-01") + 0.001), .null],
         ["max": ["p2"]]),
        (F.attribute("a", .bool, optional: false), [.integer(0), .integer(1), .null], ["optional": ["p3"]]),
        (F.attribute("a", .binary, optional: false), [.blob([1]), .null], ["optional": ["p2"]]),
    ] as [(Attribute, [Value], [String: [String]])])
    func boundsBoundariesAndNull(attribute: Attribute, values: [Value], expected: [String: [String]]) throws {
        #expect(try Self.audit(attribute, values) == expected)
    }
}
