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

    /// A `from:` insert into a table with one uniqueness constraint (`BatchInsertPlanner.upsert(columns:values:from:…)`):
    /// each key proposed once (`"strata_p"`, its last source row's values under its first source row's key), the
    /// insert (`"strata_w"`), and each written row returned with the number of source rows of its key (1 for a
    /// key with a NULL, matched by no proposal), as SQLite's `RETURNING` lists a row once per source row.
    @Test func aFromInsertIntoOneConstraintReturnsEachWrittenRowWithItsSourceRowCount() throws {
        let model = try ModelLoader.load(yaml: """
            version: 1
            entities:
              T:
                attributes: { a: { type: string }, b: { type: string }, c: { type: string } }
                uniqueness: [[a, b]]
              S:
                attributes: { x: { type: string }, y: { type: string } }
            """, file: "models/1.yaml")
        var request = BatchInsertRequest(entity: "T", from: BatchInsertSource(entity: "S", predicate: "x != %@", arguments: [.text("no")]),
                                         values: ["a": "x", "b": "y", "c": "x"])
        request.onConflict = .update
        let plan = try BatchInsertPlanner(model: model, layout: LayoutBuilder.layout(for: model)).plan(request, context: PredicateContext(now: 0))
        #expect(plan.rowByRow == nil)
        // SQLite's own statement: the source rows one by one in `_pk` order.
        #expect(plan.statements[0].rendered().sql == #"""
            INSERT INTO "T" ("a", "b", "c") SELECT t."x", t."y", t."x" FROM "S" AS t WHERE (t."x" IS NOT ?) ORDER BY t."_pk" \#
            ON CONFLICT ("a", "b") DO UPDATE SET "a" = excluded."a", "b" = excluded."b", "c" = excluded."c"
            """#)
        let upsert = try #require(plan.upserts[0])
        #expect(upsert.returnsWriters)
        #expect(upsert.count.rendered(for: .postgresql).sql == #"SELECT count(*) FROM "S" AS t WHERE (t."x" IS DISTINCT FROM $1)"#)
        let (sql, arguments) = upsert.insert(above: 41).rendered(for: .postgresql)
        #expect(sql == #"""
            WITH "strata_p" AS (SELECT *, row_number() OVER (PARTITION BY "strata_v0", "strata_v1" ORDER BY "strata_k" DESC) AS "strata_last", \#
            min("strata_k") OVER (PARTITION BY "strata_v0", "strata_v1") AS "strata_first", \#
            count(*) OVER (PARTITION BY "strata_v0", "strata_v1") AS "strata_n" \#
            FROM (SELECT t."x" AS "strata_v0", t."y" AS "strata_v1", t."x" AS "strata_v2", row_number() OVER (ORDER BY t."_pk") AS "strata_k" \#
            FROM "S" AS t WHERE (t."x" IS DISTINCT FROM $1)) AS p), \#
            "strata_w" AS (INSERT INTO "T" ("_pk", "a", "b", "c") OVERRIDING SYSTEM VALUE SELECT $2 + CASE WHEN n."strata_v0" IS NULL \#
            OR n."strata_v1" IS NULL THEN n."strata_k" ELSE n."strata_first" END, n."strata_v0", n."strata_v1", n."strata_v2" \#
            FROM "strata_p" AS n WHERE n."strata_last" = 1 OR n."strata_v0" IS NULL OR n."strata_v1" IS NULL ORDER BY 1 \#
            ON CONFLICT ("a", "b") DO UPDATE SET "a" = excluded."a", "b" = excluded."b", "c" = excluded."c" \#
            RETURNING "_pk", "a" AS "strata_v0", "b" AS "strata_v1") \#
            SELECT w."_pk", coalesce(n."strata_n", 1) FROM "strata_w" AS w LEFT JOIN "strata_p" AS n \#
            ON n."strata_last" = 1 AND n."strata_v0" = w."strata_v0" AND n."strata_v1" = w."strata_v1"
            """#)
        #expect(arguments == [.text("no"), .integer(41)])
    }

    /// A hierarchy table's rows come back with their `_entity` (the updated rows are listed under their own entity),
    /// before the count; keyword names are quoted wherever they are written.
    @Test func aFromInsertIntoAHierarchyTableReturnsEachRowsEntity() throws {
        let model = try ModelLoader.load(yaml: """
            version: 1
            entities:
              Order:
                attributes: { select: { type: string }, from: { type: string } }
                uniqueness: [[select]]
              Group:
                parent: Order
                attributes: { by: { type: string } }
            """, file: "models/1.yaml")
        var request = BatchInsertRequest(entity: "Group", from: BatchInsertSource(entity: "Order"), values: ["select": "from", "by": "select"])
        request.onConflict = .update
        let plan = try BatchInsertPlanner(model: model, layout: LayoutBuilder.layout(for: model)).plan(request, context: PredicateContext(now: 0))
        let (sql, arguments) = try #require(plan.upserts[0]).insert(above: 7).rendered(for: .postgresql)
        #expect(sql == #"""
            WITH "strata_p" AS (SELECT *, row_number() OVER (PARTITION BY "strata_v2" ORDER BY "strata_k" DESC) AS "strata_last", \#
            min("strata_k") OVER (PARTITION BY "strata_v2") AS "strata_first", count(*) OVER (PARTITION BY "strata_v2") AS "strata_n" \#
            FROM (SELECT $1 AS "strata_v0", t."select" AS "strata_v1", t."from" AS "strata_v2", \#
            row_number() OVER (ORDER BY t."_pk") AS "strata_k" FROM "Order" AS t WHERE true) AS p), \#
            "strata_w" AS (INSERT INTO "Order" ("_pk", "_entity", "by", "select") OVERRIDING SYSTEM VALUE SELECT $2 + CASE WHEN \#
            n."strata_v2" IS NULL THEN n."strata_k" ELSE n."strata_first" END, n."strata_v0", n."strata_v1", n."strata_v2" \#
            FROM "strata_p" AS n WHERE n."strata_last" = 1 OR n."strata_v2" IS NULL ORDER BY 1 \#
            ON CONFLICT ("select") DO UPDATE SET "by" = excluded."by", "select" = excluded."select" \#
            RETURNING "_pk", "_entity", "select" AS "strata_v2") \#
            SELECT w."_pk", w."_entity", coalesce(n."strata_n", 1) FROM "strata_w" AS w LEFT JOIN "strata_p" AS n \#
            ON n."strata_last" = 1 AND n."strata_v2" = w."strata_v2"
            """#)
        #expect(arguments == [.text("Group"), .integer(7)])
    }

    /// A PL/pgSQL block's body is one string constant: quotes and backslashes in it (a quoted name's) are escaped.
    @Test func aBlockBodyIsOneEscapedStringConstant() throws {
        let block = SQLText.function(.plpgsqlBlock, ["BEGIN PERFORM \(ColumnName("it's \\ odd")) FROM \(TableName("T")); END"])
        #expect(try PostgresRenderer().rendering(block).sql == #"DO E'BEGIN PERFORM "it''s \\ odd" FROM "T"; END'"#)
    }

    /// A profile's `user` is a one-to-one stored on its row, `uid` unique.
    static let oneToOne = try! ModelLoader.load(yaml: """
        version: 1
        entities:
          Profile:
            attributes: { uid: { type: int64 } }
            relationships: { user: { destination: User, inverse: profile } }
            uniqueness: [[uid]]
          User:
            attributes: { userID: { type: int64 } }
            relationships: { profile: { destination: Profile, inverse: user } }
        """, file: "models/1.yaml")

    /// The unlinking after an upsert that sets a one-to-one stored on its rows (`BatchInsertPlanner.unlinks`): the
    /// existing rows it updated with a statement that sets the key are bound as one JSON array, whatever their
    /// number. One parameter per key passed PostgreSQL's 65,535 (and SQLite's variable limit) with tens of
    /// thousands of updated rows.
    @Test func theUpdatedRowsOfAnUnlinkAreOneBoundArray() throws {
        let planner = BatchInsertPlanner(model: Self.oneToOne, layout: LayoutBuilder.layout(for: Self.oneToOne))
        var request = BatchInsertRequest(entity: "Profile", objects: [["uid": .literal("1"), "user": .literal("1")]])
        request.onConflict = .update
        let plan = try planner.plan(request, context: PredicateContext(now: 0))
        #expect(plan.unlinkColumns == ["user"])
        let unlink = try #require(planner.unlinks(plan, above: 7, updated: ["user": [3, 5]]).first)
        let written = #"(n."_pk" > ? OR n."_pk" IN (SELECT value FROM json_each(?)))"#
        #expect(unlink.update.rendered().sql == #"UPDATE "Profile" AS o SET "user" = NULL WHERE o."user" IN (SELECT n."user" FROM "Profile" AS n WHERE "#
                + written + #" AND n."user" IS NOT NULL) AND o."_pk" NOT IN (SELECT n."_pk" FROM "Profile" AS n WHERE "# + written + ")")
        #expect(unlink.update.rendered().arguments == [.integer(7), .text("[3,5]"), .integer(7), .text("[3,5]")])
        let postgres = try PostgresRenderer().rendering(unlink.update)
        #expect(postgres.sql.contains(#"(n."_pk" > $1 OR n."_pk" IN (SELECT value FROM (SELECT CAST(e AS bigint) AS value FROM "#
                                      + #"jsonb_array_elements_text(CAST($2 AS jsonb)) AS e) AS strata_list))"#), "\(postgres.sql)")
        #expect(postgres.arguments == [.integer(7), .text("[3,5]"), .integer(7), .text("[3,5]")])
        // 100,000 updated rows: the same statements, as many parameters.
        let many = try #require(planner.unlinks(plan, above: 7, updated: ["user": Array(1...100_000)]).first)
        for (statement, few) in [(many.update, unlink.update), (many.returning, unlink.returning), (many.touched, unlink.touched)] {
            #expect(statement.rendered().sql == few.rendered().sql)
            #expect(statement.rendered().arguments.count == few.rendered().arguments.count)
            #expect(try PostgresRenderer().rendering(statement).sql == PostgresRenderer().rendering(few).sql)
        }
        // No key updated: the new rows only.
        let none = try #require(planner.unlinks(plan, above: 7, updated: [:]).first)
        #expect(none.update.rendered().sql.contains(#"WHERE n."_pk" > ? AND n."user" IS NOT NULL"#), "\(none.update.rendered().sql)")
    }

    /// Literal objects set the key or not, each its own (nil sets it): an existing row the upsert updated keeps its
    /// link only where an object that sets the key wrote it, so one that did not set it loses a partner another row
    /// took. It kept it, and the audit stopped the hook (1590).
    @Test func onlyTheObjectsThatSetTheKeyKeepTheirLinks() throws {
        let planner = BatchInsertPlanner(model: Self.oneToOne, layout: LayoutBuilder.layout(for: Self.oneToOne))
        var request = BatchInsertRequest(entity: "Profile", objects: [["uid": .literal("3"), "user": .literal("1")], ["uid": .literal("1")],
                                                                      ["uid": .literal("2"), "user": .value(.null)]])
        request.onConflict = .update
        let plan = try planner.plan(request, context: PredicateContext(now: 0))
        #expect(plan.rowUnlinkColumns == [["user"], [], ["user"]])
        #expect(planner.unlinkColumns(plan, setBy: ["uid", "user"]) == ["user"])
        #expect(planner.unlinkColumns(plan, setBy: ["uid"]) == [])
        // Rows 3 and 2 set the key: only they are kept, and only their partners are freed.
        let unlink = try #require(planner.unlinks(plan, above: 7, updated: ["user": [3, 2]]).first)
        #expect(unlink.update.rendered().arguments == [.integer(7), .text("[3,2]"), .integer(7), .text("[3,2]")])
        // A `from:` insert sets its values' keys on every row.
        var from = BatchInsertRequest(entity: "Profile", from: BatchInsertSource(entity: "User"), values: ["uid": "userID", "user": "$source"])
        from.onConflict = .update
        #expect(try planner.plan(from, context: PredicateContext(now: 0)).rowUnlinkColumns == [["user"]])
    }
}
