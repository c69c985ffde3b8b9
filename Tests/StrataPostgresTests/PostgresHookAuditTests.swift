import Foundation
import GRDB
import StrataCore
@testable import Strata
@testable import StrataPostgres
import StrataTestSupport
import Testing

/// The audit after hooks on PostgreSQL (SPEC §5, §7): each kind of hook step records in `pg_temp."strata_touched"`
/// exactly the rows SQLite records in `temp."strata_touched"`, and what `sql:` steps write is audited in full.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresHookAuditTests {
    static let model = """
        version: 1
        entities:
          Author:
            attributes:
              name:   { type: string, minLength: 1 }
              handle: { type: string }
            relationships:
              books:   { destination: Book, toMany: true, inverse: author, deleteRule: nullify }
              tags:    { destination: Tag, toMany: true, inverse: authors }
              profile: { destination: Profile, inverse: author }
          Book:
            attributes:
              title:        { type: string }
              authorHandle: { type: string }
            relationships:
              author: { destination: Author, inverse: books, deleteRule: nullify }
          Tag:
            attributes:
              label: { type: string }
            relationships:
              authors: { destination: Author, toMany: true, inverse: tags }
          Profile:
            attributes:
              handle: { type: string }
              alias:  { type: string }
            relationships:
              author: { destination: Author, inverse: profile }
        """

    /// One hook per kind of step, run in this order on the same rows.
    static let hooks: [(id: String, yaml: String)] = [
        ("insert", "- batchInsert: { entity: Book, objects: [ { title: new, authorHandle: bo }, { title: newer } ] }"),
        ("link", "- setRelationship: { entity: Book, relationship: author, match: { authorHandle: handle } }"),
        ("tag", "- setRelationship: { entity: Author, relationship: tags, match: { handle: label } }"),
        ("profile", "- setRelationship: { entity: Profile, relationship: author, match: { handle: handle } }"),
        // A one-to-one: Ann's new profile (alias ann) takes her from her first one, which is unlinked.
        ("alias", "- setRelationship: { entity: Profile, relationship: author, match: { alias: handle } }"),
        ("update", "- batchUpdate: { entity: Book, predicate: \"title BEGINSWITH 'b'\", propertiesToUpdate: { title: x } }"),
        ("delete", "- batchDelete: { entity: Author, predicate: \"name == 'Ann'\" }"),
    ]

    /// Three authors (Ann and Bo tagged `ann`/`bo` through the join table after `tag`), four books.
    static let rows = """
        INSERT INTO %"Author" ("name", "handle") VALUES ('Ann', 'ann'), ('Bo', 'bo'), ('Cy', 'cy');
        INSERT INTO %"Tag" ("label") VALUES ('ann'), ('bo'), ('zz');
        INSERT INTO %"Book" ("title", "authorHandle") VALUES ('a1', 'ann'), ('b1', 'bo'), ('b2', 'ann'), ('c1', NULL);
        INSERT INTO %"Profile" ("handle", "alias") VALUES ('ann', NULL), ('zz', 'ann');
        """

    static func hookSet(_ history: ModelHistory) throws -> HookSet {
        try HookSet.load(yaml: Dictionary(uniqueKeysWithValues: hooks.map { ("\($0.id).yaml", "id: \($0.id)\nafter: 1\nsteps:\n  \($0.yaml)\n") }),
                         models: history)
    }

    @Test func everyKindOfStepRecordsTheRowsSQLiteRecords() async throws {
        let history = try ModelHistory.load(yaml: ["1.yaml": Self.model])
        let model = history.models[0]
        let hooks = try Self.hookSet(history)
        let context = PredicateContext(now: 0)

        // SQLite: each hook through HookRunner inside one write, `temp.strata_touched` read after each.
        let path = Temporary.directory("pg-hook-audit") + "/store.sqlite"
        let sqliteStore = try StoreCreator.create(at: path, model: model)
        let metadata = try sqliteStore.metadata()
        let sqlite: [[String]] = try sqliteStore.write { db in
            try db.execute(sql: Self.rows.replacingOccurrences(of: "%", with: ""))
            var touched: [[String]] = []
            for (id, _) in Self.hooks {
                var options = HookRunner.Options(context: context)
                options.audit = .touched
                _ = try HookRunner.run(hooks.hook(id: id)!, in: db, model: model, layout: metadata.layout, storeUUID: metadata.storeUUID,
                                       options: options)
                touched.append(try String.fetchAll(db, sql: #"SELECT "table" || ' ' || "pk" FROM temp."strata_touched" ORDER BY 1"#))
            }
            return touched
        }

        // PostgreSQL: the same hooks through PostgresHookRunner, each in a transaction, the table read before commit.
        let (url, schema) = try await PostgresMigrationTests.create(history, at: 1)
        _ = try PostgresStoreTests.psql(Self.rows.replacingOccurrences(of: "%", with: "\"\(schema)\"."))
        let store = try await PostgresStore.open(url)
        var postgres: [[String]] = []
        do {
            let pgMetadata = try await store.metadata()
            var runner = PostgresHookRunner(store: store, renderer: PostgresRenderer(), storeUUID: pgMetadata.storeUUID)
            runner.options.audit = .touched
            for (id, _) in Self.hooks {
                let plan = try PostgresHookPlan.plan(hooks.hook(id: id)!, model: model, layout: pgMetadata.layout, context: context,
                                                     schema: schema)
                let query: SQLText = #"SELECT "table" || ' ' || "pk" FROM pg_temp."strata_touched" ORDER BY ("table" || ' ' || "pk") COLLATE "C""#
                let rows = try await store.session.transaction(lockTimeout: 5) {
                    _ = try await runner.run(plan)
                    return try await store.session.rows(query).map { try PostgresSession.decode($0[0], as: String.self, statement: query) }
                }
                postgres.append(rows)
            }
            await store.close()
        } catch {
            await store.close()
            throw error
        }
        #expect(postgres == sqlite)
        #expect(sqlite == [
            ["Book 5", "Book 6"],                                  // the inserted books
            ["Book 1", "Book 2", "Book 3", "Book 5"],              // the books whose author was set
            ["Author 1", "Author 2", "_Author_tags 1", "_Author_tags 2"],   // the tagged authors and the join table
            ["Author 1"],                                          // Ann, whose row holds the one-to-one's key
            ["Author 1"],                                          // Ann again, relinked (and unlinked first)
            ["Book 2", "Book 3"],                                  // the updated books
            ["Book 1", "Book 3", "Profile 2", "Tag 1"],            // Ann's books nullified; her profile and tag lost her
        ], "\(sqlite)")
    }

    /// What an `sql:` step writes is audited in full, as on SQLite: a row it inserts without the non-optional
    /// `sale` is found although no batch recorded it, and the hook rolls back with its version step (exit 3).
    @Test func sqlStepsAreAuditedInFullForTheEntitiesTheyWrite() async throws {
        let (result, schema) = try await PostgresHookTests.runSQLHook(
            #"{ sqlite: "SELECT 1", postgresql: "INSERT INTO {{Item}} ({{Item.name}}, {{Item.code}}) VALUES ('c', 'r')" }"#, audit: .touched)
        guard case .failure(let error as HookViolationError) = result else { Issue.record("got \(result)"); return }
        #expect(error.exitCode == .validationViolations)
        #expect(error.result.committed == false)
        #expect(error.result.audit?.entities == ["Item"])
        #expect(error.result.audit?.violated.map { "\($0.subject) \($0.rule) \($0.code.rawValue) \($0.count)" } == ["Item.sale optional 1570 1"])
        #expect(error.result.audit?.violated.first?.samples.map(\.objectID).first?.hasSuffix("/Item/p3") == true)
        #expect(try PostgresHookTests.version(schema) == ["1"])
        #expect(try PostgresStoreTests.psql(#"SELECT count(*) FROM "\#(schema)"."Item""#) == ["2"])
    }
}
