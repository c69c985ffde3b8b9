import Foundation
import StrataCore
@testable import StrataPostgres
import Testing

/// The PostgreSQL rendering of inferred steps, without a server: exact statements.
@Suite struct PostgresStepPlannerTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    static func example() throws -> ModelHistory { try ModelHistory.load(directory: root + "/models") }

    static func plan(_ history: ModelHistory, _ from: Int, _ to: Int) throws -> PostgresStepPlan {
        let source = history.models.first { $0.version == from }!
        let layout = try PostgresLayout.adapted(LayoutBuilder.layout(for: source))
        let step = try MappingInference.plan(models: history.models, from: from, to: to, sourceLayout: layout)[0]
        return try PostgresStepPlanner.plan(step, source: source, destination: history.models.first { $0.version == to }!)
    }

    /// The statements after the dependent-objects check, which must come first when there is one.
    static func statements(_ plan: PostgresStepPlan) -> [String] {
        guard case .dependents? = plan.operations.first else { return plan.sqlText }
        return Array(plan.sqlText.dropFirst())
    }

    /// The tables and columns the dependent-objects check asks about, as `table.column` (`table` alone).
    static func dependents(_ plan: PostgresStepPlan) -> [String] {
        guard case .dependents(let targets)? = plan.operations.first else { return [] }
        return targets.map { $0.table + ($0.column.map { "." + $0 } ?? "") }
    }

    @Test func newEntityAndToOneAreCreatedAndAddedInPlace() throws {
        let plan = try Self.plan(Self.example(), 1, 2)
        #expect(plan.sqlText == [
            #"CREATE TABLE "Chef" ("_pk" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, "name" text, "email" text)"#,
            #"ALTER TABLE "Recipe" ADD COLUMN "author" bigint"#,
            #"ALTER TABLE "Recipe" ADD CONSTRAINT "strata_fkey_Recipe_author" FOREIGN KEY ("author") REFERENCES "Chef" ("_pk") ON DELETE SET NULL DEFERRABLE INITIALLY IMMEDIATE"#,
            #"CREATE UNIQUE INDEX "strata_uniq_Chef_email" ON "Chef" ("email")"#,
            #"CREATE INDEX "strata_fk_Recipe_author" ON "Recipe" ("author")"#,
        ])
    }

    @Test func renameAddAndIndexAreAlterTable() throws {
        let plan = try Self.plan(Self.example(), 2, 3)
        #expect(plan.sqlText == [
            #"ALTER TABLE "Recipe" ADD COLUMN "notes" text"#,
            #"ALTER TABLE "Recipe" RENAME COLUMN "servings" TO "portions""#,
            #"CREATE INDEX "strata_idx_Recipe_lastUsed" ON "Recipe" ("lastUsed")"#,
        ])
    }

    @Test func newMandatoryBoolIsFilledWithItsDefault() throws {
        let plan = try Self.plan(Self.example(), 3, 4)
        #expect(plan.sqlText == [
            #"ALTER TABLE "Recipe" ADD COLUMN "favorite" boolean DEFAULT (0 <> 0)"#,
            #"ALTER TABLE "Recipe" ALTER COLUMN "favorite" DROP DEFAULT"#,
            #"CREATE INDEX "strata_idx_Recipe_favorite_lastUsed" ON "Recipe" ("favorite", "lastUsed")"#,
        ])
        #expect(plan.operations.allSatisfy { if case .execute(let s) = $0 { s.arguments.isEmpty } else { true } })
    }

    @Test func droppedAttributeAndMandatoryWithoutDefault() throws {
        let history = try ModelHistory.load(yaml: [
            "1.yaml": "version: 1\nentities:\n  A:\n    attributes:\n      x: { type: string }\n      y: { type: int32 }\n",
            "2.yaml": "version: 2\nentities:\n  A:\n    attributes:\n      x: { type: string, optional: false }\n",
        ])
        let plan = try Self.plan(history, 1, 2)
        #expect(Self.statements(plan) == [
            #"ALTER TABLE "A" DROP COLUMN "y""#,
            "-- check: A.x has no NULLs (it becomes non-optional and has no default)\n"
                + #"SELECT t."_pk", $1 FROM "A" AS t WHERE t."x" IS NULL ORDER BY t."_pk""#,
        ])
        #expect(Self.dependents(plan) == ["A.y"])
    }

    @Test func widenedTypesAreRetypedInPlace() throws {
        let history = try ModelHistory.load(yaml: [
            "1.yaml": "version: 1\nentities:\n  A:\n    attributes:\n      n: { type: int16 }\n      r: { type: int32 }\n",
            "2.yaml": "version: 2\nentities:\n  A:\n    attributes:\n      n: { type: int32 }\n      ratio: { type: double, renamedFrom: r }\n",
        ])
        let plan = try Self.plan(history, 1, 2)
        #expect(Self.statements(plan) == [
            #"ALTER TABLE "A" ALTER COLUMN "n" TYPE integer USING CAST("n" AS integer), "#
                + #"ALTER COLUMN "r" TYPE double precision USING CAST("r" AS double precision)"#,
            #"ALTER TABLE "A" RENAME COLUMN "r" TO "ratio""#,
        ])
        #expect(Self.dependents(plan) == ["A.n", "A.r"])
    }
}
