import Testing
@testable import Strata

/// The form PostgreSQL runs for a literal row with `onConflict: update` into a table with several uniqueness
/// constraints (`BatchInsertPlanner.upsert`): the row's target resolved constraint by constraint, in the order
/// of SQLite's `ON CONFLICT` clauses, then updated or inserted under `base + 1`. Pure: exact SQL.
@Suite struct BatchInsertUpsertPlanTests {
    static let model = try! ModelLoader.load(yaml: """
        version: 1
        entities:
          T:
            attributes:
              a: { type: string }
              b: { type: string }
              c: { type: string, default: "d" }
            uniqueness: [[a], [b, c]]
        """, file: "models/1.yaml")

    static func plan(_ row: [String: UpdateValue], onConflict: BatchInsertConflictPolicy = .update) throws -> BatchInsertPlan {
        var request = BatchInsertRequest(entity: "T", objects: [row])
        request.onConflict = onConflict
        return try BatchInsertPlanner(model: model, layout: LayoutBuilder.layout(for: model)).plan(request, context: PredicateContext(now: 0))
    }

    @Test func aLiteralRowResolvesItsTargetThenUpdatesOrInserts() throws {
        let plan = try Self.plan(["a": .literal("x"), "b": .literal("y")])
        // SQLite's own statement: one clause per constraint, in the layout's order.
        #expect(plan.statements[0].rendered().sql == #"""
            INSERT INTO "T" ("a", "b", "c") VALUES (?, ?, ?) ON CONFLICT ("a") DO UPDATE SET "a" = excluded."a", "b" = excluded."b" \#
            ON CONFLICT ("b", "c") DO UPDATE SET "a" = excluded."a", "b" = excluded."b"
            """#)
        let upsert = try #require(plan.upserts[0])
        let (sql, arguments) = upsert.insert(above: 41).rendered(for: .postgresql)
        #expect(sql == #"""
            WITH "m" AS (SELECT p.*, coalesce((SELECT x."_pk" FROM "T" AS x WHERE x."a" = p."strata_v0"), \#
            (SELECT x."_pk" FROM "T" AS x WHERE x."b" = p."strata_v1" AND x."c" = p."strata_v2")) AS "strata_target" \#
            FROM (SELECT $1 AS "strata_v0", $2 AS "strata_v1", $3 AS "strata_v2") AS p), \#
            "u" AS (UPDATE "T" AS x SET "a" = m."strata_v0", "b" = m."strata_v1" FROM "m" AS m WHERE x."_pk" = m."strata_target" \#
            RETURNING x."_pk"), \#
            "i" AS (INSERT INTO "T" AS x ("_pk", "a", "b", "c") OVERRIDING SYSTEM VALUE SELECT $4 + 1, m."strata_v0", m."strata_v1", \#
            m."strata_v2" FROM "m" AS m WHERE m."strata_target" IS NULL RETURNING x."_pk") SELECT * FROM "u" UNION ALL SELECT * FROM "i"
            """#)
        #expect(arguments == [.text("x"), .text("y"), .text("d"), .integer(41)])
    }

    @Test func aConstraintWithAColumnTheRowLeavesNullMatchesNothing() throws {
        let model = try ModelLoader.load(yaml: """
            version: 1
            entities:
              T:
                attributes: { a: { type: string }, b: { type: string } }
                uniqueness: [[a], [b]]
            """, file: "models/1.yaml")
        var request = BatchInsertRequest(entity: "T", objects: [["b": .literal("y")]])
        request.onConflict = .update
        let plan = try BatchInsertPlanner(model: model, layout: LayoutBuilder.layout(for: model)).plan(request, context: PredicateContext(now: 0))
        let sql = try #require(plan.upserts[0]).insert(above: 0).rendered(for: .postgresql).sql
        #expect(sql.hasPrefix(#"WITH "m" AS (SELECT p.*, coalesce((SELECT x."_pk" FROM "T" AS x WHERE x."b" = p."strata_v0")) AS "strata_target""#), "\(sql)")
    }

    @Test(arguments: [BatchInsertConflictPolicy.fail, .ignore])
    func otherPoliciesAndOneConstraintNeedNoSuchForm(_ policy: BatchInsertConflictPolicy) throws {
        #expect(try Self.plan(["a": .literal("x")], onConflict: policy).upserts == [nil])
        let single = try ModelLoader.load(yaml: "version: 1\nentities:\n  T:\n    attributes: { a: { type: string } }\n    uniqueness: [[a]]\n",
                                          file: "models/1.yaml")
        var request = BatchInsertRequest(entity: "T", objects: [["a": .literal("x")]])
        request.onConflict = .update
        #expect(try BatchInsertPlanner(model: single, layout: LayoutBuilder.layout(for: single)).plan(request, context: PredicateContext(now: 0)).upserts == [nil])
    }

    /// A `from:` insert (`BatchInsertPlanner.rowByRowUpsert`): SQLite's statement as before (source `_pk` order), and
    /// for PostgreSQL the work table, its fill keyed from `base`, the block that runs the rows in that order, and the
    /// rows updated.
    @Test func aFromInsertRunsRowByRowOnTheServer() throws {
        let model = try ModelLoader.load(yaml: """
            version: 1
            entities:
              T:
                attributes: { a: { type: string }, b: { type: string }, c: { type: string } }
                uniqueness: [[a], [b]]
              S:
                attributes: { x: { type: string }, y: { type: string } }
            """, file: "models/1.yaml")
        var request = BatchInsertRequest(entity: "T", from: BatchInsertSource(entity: "S", predicate: "x != %@", arguments: [.text("no")]),
                                         values: ["a": "x", "b": "y"])
        request.onConflict = .update
        let plan = try BatchInsertPlanner(model: model, layout: LayoutBuilder.layout(for: model)).plan(request, context: PredicateContext(now: 0))
        #expect(plan.upserts == [nil])
        #expect(plan.statements[0].rendered().sql == #"""
            INSERT INTO "T" ("a", "b") SELECT t."x", t."y" FROM "S" AS t WHERE (t."x" IS NOT ?) ORDER BY t."_pk" \#
            ON CONFLICT ("a") DO UPDATE SET "a" = excluded."a", "b" = excluded."b" ON CONFLICT ("b") DO UPDATE SET "a" = excluded."a", "b" = excluded."b"
            """#)
        let rowByRow = try #require(plan.rowByRow)
        #expect(rowByRow.create.rendered(for: .postgresql).sql == #"""
            CREATE TEMP TABLE "strata_upsert" ON COMMIT DROP AS SELECT x."_pk" AS "strata_k", x."_pk" AS "strata_target", \#
            x."a" AS "strata_v0", x."b" AS "strata_v1" FROM "T" AS x WITH NO DATA
            """#)
        let fill = rowByRow.fill(above: 41).rendered(for: .postgresql)
        #expect(fill.sql == #"""
            INSERT INTO pg_temp."strata_upsert" ("strata_k", "strata_v0", "strata_v1") SELECT $1 + row_number() OVER (ORDER BY t."_pk"), \#
            t."x", t."y" FROM "S" AS t WHERE (t."x" IS DISTINCT FROM $2)
            """#)
        #expect(fill.arguments == [.integer(41), .text("no")])
        #expect(rowByRow.key.rendered(for: .postgresql).sql == #"ALTER TABLE pg_temp."strata_upsert" ADD PRIMARY KEY ("strata_k")"#)
        let loop = try PostgresRenderer().rendering(rowByRow.loop)
        #expect(loop.sql == #"""
            DO E'#variable_conflict use_variable
            DECLARE "strata_r" record; "strata_pk" bigint; BEGIN FOR "strata_r" IN SELECT * FROM pg_temp."strata_upsert" ORDER BY "strata_k" \#
            LOOP "strata_pk" := coalesce((SELECT x."_pk" FROM "T" AS x WHERE x."a" = strata_r."strata_v0"), \#
            (SELECT x."_pk" FROM "T" AS x WHERE x."b" = strata_r."strata_v1")); \#
            IF "strata_pk" IS NULL THEN INSERT INTO "T" ("_pk", "a", "b") OVERRIDING SYSTEM VALUE VALUES \#
            (strata_r."strata_k", strata_r."strata_v0", strata_r."strata_v1"); \#
            ELSE UPDATE "T" AS x SET "a" = strata_r."strata_v0", "b" = strata_r."strata_v1" WHERE x."_pk" = "strata_pk"; \#
            UPDATE pg_temp."strata_upsert" AS u SET "strata_target" = "strata_pk" WHERE u."strata_k" = strata_r."strata_k"; \#
            END IF; END LOOP; END'
            """#)
        #expect(loop.arguments.isEmpty)
        #expect(rowByRow.updated.rendered(for: .postgresql).sql == #"""
            SELECT u."strata_target" FROM pg_temp."strata_upsert" AS u WHERE u."strata_target" IS NOT NULL ORDER BY u."strata_k"
            """#)
    }

    /// A PL/pgSQL block's body is one string constant: quotes and backslashes in it (a quoted name's) are escaped.
    @Test func aBlockBodyIsOneEscapedStringConstant() throws {
        let block = SQLText.function(.plpgsqlBlock, ["BEGIN PERFORM \(ColumnName("it's \\ odd")) FROM \(TableName("T")); END"])
        #expect(try PostgresRenderer().rendering(block).sql == #"DO E'BEGIN PERFORM "it''s \\ odd" FROM "T"; END'"#)
    }
}
