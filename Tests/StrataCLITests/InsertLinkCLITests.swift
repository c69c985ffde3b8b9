import Foundation
import Testing
import StrataTestSupport

/// `batchInsert` and `setRelationship` hook steps end to end (SPEC §11.1, §11.4): exactly once, rollback on
/// uniqueness and ambiguity, dry-run counts, located lint errors.
@Suite struct InsertLinkCLITests {
    /// v1: posts carry a legacy `authorID`; v2 adds the real relationship, summaries and tags.
    static let v1 = """
        version: 1
        entities:
          User:
            attributes:
              userID: { type: int64, indexed: true }
              name:   { type: string, optional: false, default: Anonymous }
          Post:
            attributes:
              authorID: { type: int64 }
              title:    { type: string }
          Tag:
            attributes:
              name: { type: string, optional: false }
              uses: { type: int16, default: 0, optional: false }
            uniqueness: [[name]]
        """
    static let v2 = """
        version: 2
        entities:
          User:
            attributes:
              userID: { type: int64, indexed: true }
              name:   { type: string, optional: false, default: Anonymous }
            relationships:
              posts: { destination: Post, toMany: true, inverse: author }
          Post:
            attributes:
              authorID: { type: int64 }
              title:    { type: string }
            relationships:
              author:    { destination: User, inverse: posts }
              summaries: { destination: Summary, toMany: true, inverse: post }
          Summary:
            attributes:
              text:     { type: string, optional: false }
              position: { type: int16 }
            relationships:
              post: { destination: Post, inverse: summaries }
          Tag:
            attributes:
              name: { type: string, optional: false }
              uses: { type: int16, default: 0, optional: false, max: 10 }
            uniqueness: [[name]]
        """
    /// The README's example: the legacy `authorID` becomes the real `author` relationship.
    static let linkAuthors = """
        id: link-post-authors
        after: 2
        steps:
          - setRelationship:
              entity: Post
              relationship: author
              match: { authorID: userID }     # Post.authorID == User.userID
              predicate: "author == nil"
        """
    static let summarize = """
        id: summarize-posts
        after: 2
        steps:
          - batchInsert:
              entity: Summary
              from: { entity: Post, predicate: "title != nil" }
              values: { text: "$source.title", post: "$source", position: 1 }
              resultType: objectIDs
          - batchInsert:
              entity: Tag
              objects: [ { name: quick }, { name: vegan, uses: 3 } ]
        """

    /// A project with both versions and the given hooks, and a v1 store: users 1..3 (userID 10, 20, 30),
    /// posts by 10, 20, 20, nil and 99 (titles p1…p5, p4 has none), tag "x".
    func project(hooks: [String: String]) throws -> String {
        let dir = Temporary.directory("insert-link")
        try FileManager.default.createDirectory(atPath: dir + "/models", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/migrations", withIntermediateDirectories: true)
        try Self.v1.write(toFile: dir + "/models/1.yaml", atomically: true, encoding: .utf8)
        try Self.v2.write(toFile: dir + "/models/2.yaml", atomically: true, encoding: .utf8)
        let created = try CLI.run(["migrate", "--create", "--to", "1", "--store", "app.sqlite"], in: dir)
        #expect(created.status == 0, "\(created.stderr)")
        for (name, text) in hooks { try text.write(toFile: dir + "/migrations/\(name).yaml", atomically: true, encoding: .utf8) }
        try E2E.execute(dir + "/app.sqlite", """
            INSERT INTO "User" ("userID", "name") VALUES (10, 'ann'), (20, 'bob'), (30, 'cy');
            INSERT INTO "Post" ("authorID", "title") VALUES (10, 'p1'), (20, 'p2'), (20, 'p3'), (NULL, NULL), (99, 'p5');
            INSERT INTO "Tag" ("name", "uses") VALUES ('x', 0);
            """)
        return dir
    }

    func version(_ dir: String) throws -> [String] {
        try E2E.rows(dir + "/app.sqlite", #"SELECT max("toVersion") FROM "strata_history""#)
    }

    @Test func insertsAndLinksRunExactlyOnceAcrossReruns() throws {
        let dir = try project(hooks: ["link": Self.linkAuthors, "summarize": Self.summarize])
        let run = try CLI.run(["migrate", "--store", "app.sqlite", "--format", "json", "--changes-out", "changes.json"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let path = dir + "/app.sqlite"
        #expect(try E2E.rows(path, #"SELECT "_pk", "author" FROM "Post" ORDER BY "_pk""#) == ["1|1", "2|2", "3|2", "4|NULL", "5|NULL"])
        #expect(try E2E.rows(path, #"SELECT "_pk", "text", "position", "post" FROM "Summary" ORDER BY "_pk""#)
                == ["1|p1|1|1", "2|p2|1|2", "3|p3|1|3", "4|p5|1|5"])
        #expect(try E2E.rows(path, #"SELECT "name", "uses" FROM "Tag" ORDER BY "_pk""#) == ["x|0", "quick|0", "vegan|3"])
        let changes = try CLI.json(String(contentsOfFile: dir + "/changes.json", encoding: .utf8))
        let inserted = try #require(changes["inserted"] as? [String: [String]])
        #expect(inserted["Summary"]?.map { $0.components(separatedBy: "/").last! } == ["p1", "p2", "p3", "p4"])
        #expect(inserted["Tag"]?.count == 2)
        for _ in 0..<3 {
            let again = try CLI.run(["migrate", "--store", "app.sqlite", "--format", "json"], in: dir)
            #expect(again.status == 0)
            #expect((try CLI.json(again.stdout)["migration"] as? [String: Any])?["nothingToDo"] as? Bool == true)
        }
        #expect(try E2E.rows(path, #"SELECT count(*) FROM "Summary""#) == ["4"])
        #expect(try E2E.rows(path, #"SELECT count(*) FROM "Tag""#) == ["3"])
        #expect(try E2E.rows(path, #"SELECT "id", "status", "rowsAffected" FROM "strata_hooks" ORDER BY "id""#)
                == ["link-post-authors|applied|3", "summarize-posts|applied|6"])
    }

    /// Two steps of a hook updating the same posts: `--changes-out` lists each post once (one object to refresh),
    /// while the counts add up both statements' rows.
    @Test func anObjectTwoStepsUpdateIsListedOnce() throws {
        let hook = """
            id: retitle-posts
            after: 2
            steps:
              - batchUpdate: { entity: Post, predicate: "authorID == 20", propertiesToUpdate: { title: draft } }
              - batchUpdate: { entity: Post, predicate: "title == 'draft' OR title == 'p1'", propertiesToUpdate: { title: final } }
            """
        let dir = try project(hooks: ["retitle": hook])
        let run = try CLI.run(["migrate", "--store", "app.sqlite", "--format", "json", "--changes-out", "changes.json"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try E2E.rows(dir + "/app.sqlite", #"SELECT "title" FROM "Post" ORDER BY "_pk""#) == ["final", "final", "final", "NULL", "p5"])
        let changes = try CLI.json(String(contentsOfFile: dir + "/changes.json", encoding: .utf8))
        let updated = try #require(changes["updated"] as? [String: [String]])
        #expect(updated["Post"]?.map { $0.components(separatedBy: "/").last! } == ["p1", "p2", "p3"])
        let counts = try #require(((try CLI.json(run.stdout)["migration"] as? [String: Any])?["changes"] as? [String: Any])?["updatedCounts"] as? [String: Int])
        #expect(counts["Post"] == 5)
    }

    /// A run killed in the middle of the step (its journal growing while the link rewrites the posts) leaves a
    /// consistent store: at v1 with no hook effects, or at v2 with all of them; the rerun completes them once.
    @Test func aRunKilledMidStepCompletesOnRerunExactlyOnce() throws {
        let dir = try project(hooks: ["link": Self.linkAuthors, "summarize": Self.summarize])
        let path = dir + "/app.sqlite"
        try E2E.execute(path, """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000)
            INSERT INTO "Post" ("authorID", "title") SELECT 10 * (1 + i % 3), 'post ' || i FROM n
            """)
        let child = try E2E.Child(["migrate", "--store", "app.sqlite", "--no-progress"], in: dir)
        while child.process.isRunning, (CrashSafetyCLITests.journal(path)?.size ?? 0) < 200_000 { usleep(1_000) }
        child.kill()
        #expect(try E2E.rows(path, "PRAGMA integrity_check") == ["ok"])
        let version = try version(dir)
        let markers = try E2E.rows(path, #"SELECT count(*) FROM "strata_hooks""#)
        #expect((version, markers) == (["1"], ["0"]) || (version, markers) == (["2"], ["2"]), "\(version) \(markers)")
        let rerun = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(try E2E.rows(path, #"SELECT count(*) FROM "Post" WHERE "author" IS NOT NULL"#) == ["100003"])
        #expect(try E2E.rows(path, #"SELECT count(*) FROM "Summary""#) == ["100004"])
        #expect(try E2E.rows(path, #"SELECT count(*) FROM "Tag""#) == ["3"])
        #expect(try E2E.rows(path, #"SELECT count(*) FROM "strata_hooks" WHERE "status" = 'applied'"#) == ["2"])
    }

    @Test func dryRunCountsEqualTheRealRunsAndWriteNothing() throws {
        let dir = try project(hooks: ["link": Self.linkAuthors, "summarize": Self.summarize])
        let before = E2E.storeHashes(dir + "/app.sqlite")
        func counts(_ args: [String]) throws -> [[Int]] {
            let result = try CLI.run(["migrate", "--store", "app.sqlite", "--format", "json"] + args, in: dir)
            #expect(result.status == 0, "\(result.stderr)")
            let hooks = try #require((try CLI.json(result.stdout)["migration"] as? [String: Any])?["hooks"] as? [[String: Any]])
            return hooks.map { ($0["steps"] as? [[String: Any]] ?? []).map { $0["count"] as? Int ?? -1 } }
        }
        let dry = try counts(["--dry-run"])
        #expect(E2E.storeHashes(dir + "/app.sqlite") == before)
        #expect(dry == [[3], [4, 2]])
        #expect(try counts([]) == dry)
    }

    @Test func aUniquenessConflictRollsTheStepBackUnlessIgnored() throws {
        let hook = """
            id: add-tags
            after: 2
            onViolation: warn
            steps:
              - batchInsert: { entity: Tag, objects: [ { name: new }, { name: x } ] }
            """
        let dir = try project(hooks: ["tags": hook])
        let before = try E2E.rows(dir + "/app.sqlite", #"SELECT * FROM "Tag""#)
        let failed = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(failed.status == 3)
        #expect(failed.stderr.contains("uniqueness constraint") && failed.stderr.contains("(1551)"), "\(failed.stderr)")
        #expect(try version(dir) == ["1"])
        #expect(try E2E.rows(dir + "/app.sqlite", #"SELECT * FROM "Tag""#) == before)

        try hook.replacingOccurrences(of: "{ name: x } ] }", with: "{ name: x, uses: 5 } ], onConflict: ignore }")
            .write(toFile: dir + "/migrations/tags.yaml", atomically: true, encoding: .utf8)
        #expect(try CLI.run(["migrate", "--store", "app.sqlite"], in: dir).status == 0)
        #expect(try E2E.rows(dir + "/app.sqlite", #"SELECT "name", "uses" FROM "Tag" ORDER BY "_pk""#) == ["x|0", "new|0"])
    }

    @Test func insertedRowsAreAuditedBeforeCommit() throws {
        let hook = """
            id: big-tag
            after: 2
            steps:
              - batchInsert: { entity: Tag, objects: [ { name: big, uses: 50 } ] }
            """
        let dir = try project(hooks: ["big": hook])
        let failed = try CLI.run(["migrate", "--store", "app.sqlite", "--format", "json"], in: dir)
        #expect(failed.status == 3)
        #expect(failed.stdout.contains("\"code\" : 1610") || failed.stdout.contains("\"code\":1610"), "\(failed.stdout)")
        #expect(try version(dir) == ["1"])
        #expect(try E2E.rows(dir + "/app.sqlite", #"SELECT count(*) FROM "Tag""#) == ["1"])
        try (hook + "\nonViolation: warn\n").write(toFile: dir + "/migrations/big.yaml", atomically: true, encoding: .utf8)
        let warned = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(warned.status == 0, "\(warned.stderr)")
        #expect(try E2E.rows(dir + "/app.sqlite", #"SELECT "name", "uses" FROM "Tag" ORDER BY "_pk""#) == ["x|0", "big|50"])
    }

    @Test func anAmbiguousMatchRollsBackEvenUnderWarnNamingBothSides() throws {
        let dir = try project(hooks: ["link": Self.linkAuthors + "\nonViolation: warn\n"])
        try E2E.execute(dir + "/app.sqlite", #"UPDATE "User" SET "userID" = 20 WHERE "_pk" = 3"#)
        let result = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(result.status == 3)
        let uuid = try E2E.rows(dir + "/app.sqlite", #"SELECT "value" FROM "strata_metadata" WHERE "key" = 'strata.uuid'"#).first ?? ""
        #expect(result.stderr.contains("hook 'link-post-authors': setRelationship Post.author is ambiguous: Post x-strata://\(uuid)/Post/p2 (authorID = 20) matches several User objects: x-strata://\(uuid)/User/p2, x-strata://\(uuid)/User/p3"),
                "\(result.stderr)")
        #expect(try version(dir) == ["1"])
        #expect(try E2E.rows(dir + "/app.sqlite", #"SELECT count(*) FROM "strata_hooks""#) == ["0"])
    }

    @Test(arguments: [
        ("      match: { authorID: name }", "migrations/bad.yaml:7:16: error: Post.authorID is int64 but User.name is string"),
        ("      match: { authorId: userID }", "migrations/bad.yaml:7:16: error: Post has no attribute 'authorId' (did you mean 'authorID'?)"),
        ("      destination: Tag\n      match: { authorID: userID }", "migrations/bad.yaml:7:20: error: Post.author links to User; 'Tag' is not User or one of its sub-entities"),
        ("      match: { authorID: userID }\n      predicate: \"titel == nil\"", "migrations/bad.yaml:8:19: error: Post has no attribute 'titel'"),
    ])
    func lintLocatesSetRelationshipErrors(line: String, expected: String) throws {
        let hook = "id: bad\nafter: 2\nsteps:\n  - setRelationship:\n      entity: Post\n      relationship: author\n" + line + "\n"
        let dir = try project(hooks: ["bad": hook])
        let lint = try CLI.run(["lint"], in: dir)
        #expect(lint.status == 2)
        #expect(lint.stderr.contains(expected), "\(lint.stderr)")
        let migrate = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(migrate.status == 2)
        #expect(try version(dir) == ["1"])
    }

    @Test(arguments: [
        ("values: { text: \"$source.authorID\" }", "migrations/bad.yaml:7:24: error: Summary.text is string, but $source.authorID is int64"),
        ("values: { position: 1 }", "migrations/bad.yaml:5:15: error: Summary.text is not optional and has no default"),
        ("values: { text: \"$source.title\", post: \"$source.summaries\" }", "migrations/bad.yaml:7:47: error: '$source.summaries' is a to-many relationship; Summary.post takes one object"),
        ("values: { text: \"$source.titl\" }", "migrations/bad.yaml:7:32: error: Post has no attribute 'titl' (did you mean 'title'?)"),
    ])
    func lintLocatesBatchInsertErrors(line: String, expected: String) throws {
        let hook = "id: bad\nafter: 2\nsteps:\n  - batchInsert:\n      entity: Summary\n      from: { entity: Post }\n      " + line + "\n"
        let dir = try project(hooks: ["bad": hook])
        let lint = try CLI.run(["lint"], in: dir)
        #expect(lint.status == 2)
        #expect(lint.stderr.contains(expected), "\(lint.stderr)")
    }

    @Test func anAbstractOrUnknownInsertIsExit2BeforeAnyWrite() throws {
        let hook = "id: bad\nafter: 2\nsteps:\n  - batchInsert: { entity: Tags, objects: [ { name: a } ] }\n"
        let dir = try project(hooks: ["bad": hook])
        let before = E2E.storeHashes(dir + "/app.sqlite")
        let result = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(result.status == 2)
        #expect(result.stderr.contains("migrations/bad.yaml:4:28: error: unknown entity 'Tags'"), "\(result.stderr)")
        #expect(E2E.storeHashes(dir + "/app.sqlite") == before)
    }

    @Test func objectsTakeRowFreeFunctionCallsSuchAsNow() throws {
        let hook = """
            id: seed
            after: 2
            steps:
              - batchInsert:
                  entity: Post
                  objects: [ { title: { expression: "string(now())" }, authorID: { expression: "int64(abs(-5) + round(1.4))" } },
                             { title: { expression: "TERNARY($NOW > 0, 'later', 'epoch')" } } ]

            """
        let dir = try project(hooks: ["seed": hook])
        let lint = try CLI.run(["lint"], in: dir)
        #expect(lint.status == 0, "\(lint.stderr)")
        let run = try CLI.run(["migrate", "--store", "app.sqlite", "--now", "2025-01-01T00:00:00Z"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try E2E.rows(dir + "/app.sqlite", #"SELECT "title", ifnull("authorID", 'nil') FROM "Post" WHERE "_pk" > 5 ORDER BY "_pk""#)
                == ["2025-01-01T00:00:00Z|6", "later|nil"])
    }

    @Test(arguments: ["uppercase(title)", "string(authorID)", "TERNARY(title == nil, 'a', 'b')"])
    func objectsStillRefuseAnExpressionThatReadsARow(_ expression: String) throws {
        let hook = "id: seed\nafter: 2\nsteps:\n  - batchInsert:\n      entity: Post\n      objects: [ { title: { expression: \"\(expression)\" } } ]\n"
        let dir = try project(hooks: ["seed": hook])
        let lint = try CLI.run(["lint"], in: dir)
        #expect(lint.status == 2, "\(expression): \(lint.stderr)")
        #expect(lint.stderr.contains("migrations/seed.yaml:6:42: error: an expression in objects: cannot read a row (there is none)"), "\(lint.stderr)")
    }
}
