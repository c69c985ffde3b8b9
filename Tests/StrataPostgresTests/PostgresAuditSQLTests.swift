import Foundation
import StrataCore
import Strata
@testable import StrataPostgres
import Testing

/// The audit's statements rendered for PostgreSQL: the planner SQLite uses, a second renderer. Pure.
@Suite struct PostgresAuditSQLTests {
    static func rules(_ yaml: String = PostgresAuditFixture.modelYAML) throws -> [AuditRule] {
        let model = try ModelLoader.load(yaml: yaml, file: "1.yaml")
        let layout = try PostgresLayout.adapted(LayoutBuilder.layout(for: model))
        return try AuditPlanner(model: model, layout: layout, now: 0).rules(for: .full)
    }

    static func rule(_ subject: String, _ kind: AuditRule.Kind) throws -> AuditRule {
        try #require(try rules().first { "\($0.entity).\($0.property ?? "")" == subject && $0.kind == kind })
    }

    /// The rule's condition and value as PostgreSQL text.
    static func postgres(_ rule: AuditRule) throws -> [String] {
        guard case .row(let condition, let value) = rule.check else { return [] }
        return [try PostgresRenderer().rendering(condition).sql, try PostgresRenderer().rendering(value).sql]
    }

    /// The rule's condition as SQLite text.
    static func sqlite(_ rule: AuditRule) -> String {
        guard case .row(let condition, _) = rule.check else { return "" }
        return condition.sql
    }

    static let ascii = #"octet_length(t."code") = char_length(t."code") AND strpos(t."code", chr(13)) = 0"#

    @Test func lengthsJudgeOnlyASCIIWithoutCRInSQL() throws {
        let max = try Self.rule("Item.code", .maxLength)
        #expect(max.lengthLimit == 3)
        #expect(try Self.postgres(max) == [
            #"length(t."code") > $1 AND CASE WHEN \#(Self.ascii) THEN char_length(t."code") END > $2"#, #"t."code""#])
        let min = try Self.rule("Item.code", .minLength)
        #expect(min.lengthLimit == 2)
        #expect(try Self.postgres(min) == [
            #"(length(t."code") < $1 OR ((octet_length(t."code") <> char_length(t."code") OR strpos(t."code", chr(13)) > 0) AND CASE WHEN \#(Self.ascii) THEN char_length(t."code") END < $2))"#,
            #"t."code""#])
        // SQLite's text is what it was: strata_length counts every text there (whole: read as bytes, past a NUL).
        #expect(Self.sqlite(min) == #"(length(CAST(t."code" AS BLOB)) < ? OR ((length(CAST(t."code" AS BLOB)) <> length(t."code") OR instr(t."code", char(13)) > 0) AND strata_length(CAST(t."code" AS BLOB)) < ?))"#)
        #expect(AuditSQL.undecidedLengths(max, mode: .all).rendered(for: .postgresql).sql == #"SELECT t."_pk", NULL, t."code" FROM "Item" AS t WHERE (length(t."code") > $1 AND CASE WHEN \#(Self.ascii) THEN char_length(t."code") END > $2) IS NULL AND t."code" IS NOT NULL ORDER BY t."_pk""#)
    }

    @Test func patternsBoundsAndValuesInStorageForm() throws {
        let pattern = try Self.rule("Item.label", .pattern)
        #expect(try Self.postgres(pattern) == [#"t."label" IS NOT NULL AND COALESCE((t."label" ~ $1), false) = false"#, #"t."label""#])
        guard case .row(let condition, _) = pattern.check else { Issue.record("row rule"); return }
        #expect(try PostgresRenderer().rendering(condition).arguments == [.text("^(?:[A-Z][a-z]*)$")])
        #expect(Self.sqlite(pattern) == #"t."label" IS NOT NULL AND COALESCE(strata_matches(CAST(t."label" AS BLOB), ?), 0) = 0"#)
        #expect(try Self.postgres(Self.rule("Item.done", .optional)) == [#"t."done" IS NULL"#, #"CAST(t."done" AS integer)"#])
        #expect(try Self.postgres(Self.rule("Item.seen", .optional)) == [#"t."seen" IS NULL"#, #"date_part('epoch', t."seen")"#])
        let price = try Self.postgres(Self.rule("Item.price", .min))
        #expect(price == [#"sign(CAST(t."price" AS numeric) - CAST($1 AS numeric)) < 0"#, #"t."price""#])
        let predicate = try Self.postgres(Self.rule("Item.", .predicate))
        #expect(predicate == [#"COALESCE((t."size" IS DISTINCT FROM $1), false) = false"#, "NULL"])
    }

    @Test func samplesAndDuplicateGroupsAreCappedAndInCodePointOrder() throws {
        let unique = try Self.rule("Item.code", .uniqueness)
        #expect(AuditSQL.duplicateMembers(unique, perGroup: 2, limit: 5).rendered(for: .postgresql).sql == """
            SELECT "k0", "_pk", "_entity", "n" FROM (SELECT t."code" AS "k0", t."_pk" AS "_pk", NULL AS "_entity", \
            COUNT(*) OVER (PARTITION BY t."code") AS "n", ROW_NUMBER() OVER (PARTITION BY t."code" ORDER BY t."_pk") AS "r" \
            FROM "Item" AS t WHERE t."code" IS NOT NULL) AS d WHERE "n" > 1 AND "r" <= $1 ORDER BY "k0" COLLATE "C", "_pk" LIMIT $2
            """)
        #expect(AuditSQL.duplicateGroupCount(unique).rendered(for: .postgresql).sql == """
            SELECT COUNT(*) FROM (SELECT 1 FROM "Item" AS t WHERE t."code" IS NOT NULL GROUP BY t."code" HAVING COUNT(*) > 1) AS d
            """)
        let size = try Self.rule("Item.size", .max)
        #expect(AuditSQL.samples([size], mode: .all, after: 4, limit: 3).rendered(for: .postgresql).sql
                == #"SELECT t."_pk", NULL, (t."size" > $1), t."size" FROM "Item" AS t WHERE t."_pk" > $2 AND ((t."size" > $3)) ORDER BY t."_pk" LIMIT $4"#)
    }

    @Test func icuOnlyPatternIsRefusedBeforeTheAudit() throws {
        let yaml = PostgresAuditFixture.modelYAML.replacingOccurrences(of: #"pattern: "[A-Z][a-z]*""#, with: #"pattern: "\\bA""#)
        let rules = try Self.rules(yaml)
        #expect(throws: PostgresRenderError.self) { try Auditor.requirements(of: rules) }
    }
}
