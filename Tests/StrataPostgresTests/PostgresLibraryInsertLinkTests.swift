import Foundation
@testable import Strata
@testable import StrataPostgres
import StrataTestSupport
import Testing

/// The library's batch inserts and links on PostgreSQL (`PostgresStore.execute(_:)` with a `BatchInsertRequest` or a
/// `SetRelationshipRequest`), each request run on an SQLite ``Store`` and a PostgreSQL store with the same model and
/// rows: the same counts, object IDs, audits, rows read back and change sets received by an observer; a violation
/// rolled back and an invalid request refused the same way, with nothing written. Skipped (and said so on stderr)
/// without PostgreSQL.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresLibraryInsertLinkTests {
    /// Users (a hierarchy: `Admin`) with a unique `email` and a `score` of at most 10, each with a wallet (a
    /// one-to-one stored on the user's row); posts naming their author's handle, linked by `setRelationship`.
    static let models = ["1.yaml": """
        version: 1
        entities:
          User:
            attributes:
              handle: { type: string }
              email:  { type: string }
              score:  { type: int32, max: 10 }
              active: { type: bool, default: true, optional: false }
            uniqueness: [[email]]
            relationships:
              posts:  { destination: Post, toMany: true, inverse: author }
              wallet: { destination: Wallet, inverse: owner }
          Wallet:
            attributes:
              label: { type: string }
            relationships:
              owner: { destination: User, inverse: wallet }
          Admin:
            parent: User
            attributes:
              level: { type: int16 }
          Post:
            attributes:
              title:        { type: string }
              authorHandle: { type: string }
            relationships:
              author: { destination: User, inverse: posts }
        """]
    static let context = PredicateContext(now: 1_716_249_600)

    /// The two stores, their UUIDs, and an observer's change sets on each (subscribed before `body` runs).
    struct Stores {
        let sqlite: Store
        let postgres: PostgresStore
        let sqliteUUID: String
        let postgresUUID: String
        let sqliteChanges: StoreChanges
        let postgresChanges: StoreChanges

        /// The two stores, their UUIDs, and a subscription to each one's changes (from now on).
        init(_ sqlite: Store, _ postgres: PostgresStore) async throws {
            self.sqlite = sqlite
            self.postgres = postgres
            sqliteUUID = try sqlite.metadata().storeUUID
            postgresUUID = try await postgres.metadata().storeUUID
            sqliteChanges = sqlite.changes()
            postgresChanges = postgres.changes()
        }

        /// `value` as JSON with sorted keys, each store's UUID replaced by `<uuid>` and audit durations zeroed.
        func plain<T: Encodable>(_ value: T) -> String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let text = String(decoding: (try? encoder.encode(value)) ?? Data(), as: UTF8.self)
            return text.replacingOccurrences(of: sqliteUUID, with: "<uuid>").replacingOccurrences(of: postgresUUID, with: "<uuid>")
        }

        /// A result with what may differ between two stores left out: the store's UUID, the audit's durations.
        func plain(_ result: BatchResult) -> String {
            var audit = result.audit
            if let rules = audit?.rules { audit?.rules = rules.map { var rule = $0; rule.duration = 0; return rule } }
            return "\(result.kind) \(result.entity) \(result.count) " + plain(result.objectIDs) + " " + plain(result.changes) + " " + plain(audit)
        }

        /// Every object of `entity` (its subentities' too), in `_pk` order, without the store's UUID.
        func objects(_ entity: String) async throws -> (sqlite: [String], postgres: [String]) {
            func plain(_ objects: [FetchedObject]) -> [String] {
                objects.map { object in
                    "\(object.entity)/p\(object.id.primaryKey) " + object.values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                        .joined(separator: " ")
                }
            }
            return (plain(try sqlite.fetchAll(entity)), plain(try await postgres.fetchAll(entity)))
        }

        /// The next `count` change sets each observer received, as plain text.
        func received(_ count: Int) async -> (sqlite: [String], postgres: [String]) {
            var sqliteIterator = sqliteChanges.makeAsyncIterator(), postgresIterator = postgresChanges.makeAsyncIterator()
            var onSQLite: [String] = [], onPostgres: [String] = []
            for _ in 0..<count {
                onSQLite.append(plain(await sqliteIterator.next()))
                onPostgres.append(plain(await postgresIterator.next()))
            }
            return (onSQLite, onPostgres)
        }
    }

    /// Runs `body` on a fresh store on each engine, seeded with the same users and posts (by `psql` and SQLite, not
    /// through the requests under test); the PostgreSQL store is closed and the SQLite file removed however it ends.
    static func withStores(_ body: (Stores) async throws -> Void) async throws {
        let users = #"INSERT INTO "User" ("_entity", "handle", "email", "score", "active", "level") VALUES "#
            + #"('User', 'ana', 'ana@x', 3, true, NULL), ('User', 'bo', 'bo@x', 5, true, NULL), ('Admin', 'cy', 'cy@x', 9, false, 2)"#
        let posts = #"INSERT INTO "Post" ("title", "authorHandle") VALUES ('a1', 'ana'), ('b1', 'bo'), ('c1', 'cy'), ('x', 'nobody')"#
        let onSQLite = users.replacingOccurrences(of: "true", with: "1").replacingOccurrences(of: "false", with: "0") + "; " + posts
        try await withSeededStores(models, seed: users + "; " + posts, sqliteSeed: onSQLite) { sqlite, postgres, _ in
            let stores = try await Stores(sqlite, postgres)
            #expect(try await stores.objects("User").postgres == stores.objects("User").sqlite)
            try await body(stores)
        }
    }

    /// Runs `body` with an SQLite store and a PostgreSQL store of `models`, seeded with the `seed` SQL (`sqliteSeed` on
    /// SQLite when the two differ; by `psql` and SQLite, not through the requests under test); the PostgreSQL store
    /// is closed and the SQLite file removed however it ends.
    static func withSeededStores(_ models: [String: String], seed: String, sqliteSeed: String? = nil,
                                 _ body: (Store, PostgresStore, PostgresStoreURL) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-pglib-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try PostgresStoreURL(parsing: PostgresTestServer.url())
        let postgres = try await PostgresStore.open(url, models: .yaml(models))
        do {
            let sqlite = try await Store.open(at: directory.appendingPathComponent("store.sqlite").path, models: .yaml(models))
            _ = try PostgresStoreTests.psql(#"SET search_path TO "\#(url.schema)"; "# + seed)
            try await sqlite.queue.write { db in try db.execute(sql: sqliteSeed ?? seed) }
            try await body(sqlite, postgres, url)
            await postgres.close()
        } catch {
            await postgres.close()
            throw error
        }
    }

    @Test func insertsAndLinksGiveTheSameResultsRowsAndChangeSetsAsSQLite() async throws {
        try await Self.withStores { stores in
            var literal = BatchInsertRequest(entity: "User", objects: [
                ["handle": .literal("dee"), "email": .literal("dee@x"), "score": .literal("4")],
                ["handle": .literal("eve"), "email": .literal("eve@x"), "active": .literal("false")],
            ])
            literal.resultType = .objectIDs
            let counter = HandlerCounter()
            let handler = BatchInsertRequest(entity: "Post") { row in
                let n = counter.next()
                if n > 2 { return true }
                row["title"] = .text("note \(n)")
                row["authorHandle"] = .text(n == 1 ? "dee" : "cy")
                return false
            }
            var from = BatchInsertRequest(entity: "Post", from: BatchInsertSource(entity: "User", predicate: "score > 4"),
                                          values: ["title": "$source.handle", "author": "$source"])
            from.resultType = .count
            var upsert = BatchInsertRequest(entity: "Admin", objects: [
                ["handle": .literal("ana2"), "email": .literal("ana@x"), "score": .literal("6"), "level": .literal("1")],
                ["handle": .literal("fay"), "email": .literal("fay@x"), "level": .literal("3")],
            ])
            upsert.onConflict = .update
            upsert.resultType = .objectIDs
            var link = SetRelationshipRequest(entity: "Post", relationship: "author", match: [("authorHandle", "handle")],
                                              predicate: "author == nil")
            link.resultType = .objectIDs
            let counted = SetRelationshipRequest(entity: "Post", relationship: "author", match: [("title", "handle")])

            let onSQLite = [
                try await stores.sqlite.execute(literal, context: Self.context),
                try await stores.sqlite.execute(handler, context: Self.context),
                try await stores.sqlite.execute(from, context: Self.context),
                try await stores.sqlite.execute(upsert, context: Self.context),
                try await stores.sqlite.execute(link, context: Self.context),
                try await stores.sqlite.execute(counted, context: Self.context, audit: .full),
            ]
            counter.reset()
            let onPostgres = [
                try await stores.postgres.execute(literal, context: Self.context),
                try await stores.postgres.execute(handler, context: Self.context),
                try await stores.postgres.execute(from, context: Self.context),
                try await stores.postgres.execute(upsert, context: Self.context),
                try await stores.postgres.execute(link, context: Self.context),
                try await stores.postgres.execute(counted, context: Self.context, audit: .full),
            ]
            for (i, (postgres, sqlite)) in zip(onPostgres, onSQLite).enumerated() {
                #expect(stores.plain(postgres) == stores.plain(sqlite), "request \(i + 1)")
            }
            #expect(onPostgres.map(\.count) == [2, 2, 2, 1, 4, 2])   // `ana` is `ana2` after the upsert: a1 finds no author
            #expect(onPostgres[0].objectIDs?.map { "\($0.entity)/p\($0.primaryKey)" } == ["User/p4", "User/p5"])
            #expect(onPostgres[3].objectIDs?.map { "\($0.entity)/p\($0.primaryKey)" } == ["Admin/p7"])
            #expect(onPostgres[3].changes.updated.mapValues { $0.map(\.primaryKey) } == ["User": [1]])
            #expect(onPostgres.allSatisfy { $0.audit?.totalViolations == 0 })

            let received = await stores.received(6)
            #expect(received.postgres == received.sqlite)
            #expect(received.postgres.count == 6)
            for entity in ["User", "Post"] {
                let objects = try await stores.objects(entity)
                #expect(objects.postgres == objects.sqlite, "\(entity)")
            }
            let schema = stores.postgres.url.schema
            #expect(try PostgresStoreTests.psql(#"SELECT "title" || ' ' || coalesce("author"::text, '-') FROM "\#(schema)"."Post" ORDER BY "_pk""#)
                    == ["a1 -", "b1 2", "c1 3", "x -", "note 1 4", "note 2 3", "bo 2", "cy 3"])
        }
    }

    /// `text` with every object's key (`/p12`) as `/p?`.
    static func keyless(_ text: String) -> String {
        text.replacingOccurrences(of: #"/p[0-9]+"#, with: "/p?", options: .regularExpression)
    }

    @Test func aViolationRollsBackWritesNothingAndPublishesNothing() async throws {
        try await Self.withStores { stores in
            let tooHigh = BatchInsertRequest(entity: "User", objects: [["handle": .literal("max"), "email": .literal("max@x"),
                                                                        "score": .literal("11")]])
            var sqliteError: BatchViolationError?, postgresError: BatchViolationError?
            do { _ = try await stores.sqlite.execute(tooHigh, context: Self.context) } catch let error as BatchViolationError { sqliteError = error }
            do { _ = try await stores.postgres.execute(tooHigh, context: Self.context) } catch let error as BatchViolationError { postgresError = error }
            #expect(postgresError?.result.audit?.totalViolations == 1)
            #expect(postgresError.map { stores.plain($0.result) } == sqliteError.map { stores.plain($0.result) })
            #expect(try await stores.objects("User").postgres.count == 3)

            // An upsert that raises an existing user's score: the updated row is audited too.
            var raise = BatchInsertRequest(entity: "User", objects: [["handle": .literal("bo"), "email": .literal("bo@x"),
                                                                      "score": .literal("12")]])
            raise.onConflict = .update
            do { _ = try await stores.sqlite.execute(raise, context: Self.context) } catch let error as BatchViolationError { sqliteError = error }
            do { _ = try await stores.postgres.execute(raise, context: Self.context) } catch let error as BatchViolationError { postgresError = error }
            #expect(postgresError?.result.audit?.totalViolations == 1)
            #expect(postgresError.map { stores.plain($0.result) } == sqliteError.map { stores.plain($0.result) })

            // Warned: committed with the violation in the result, and published. The rolled-back inserts used
            // identity values on PostgreSQL (sequences are not transactional), where SQLite's AUTOINCREMENT gave
            // its values back: the new object is p6 there, p4 here, and otherwise the same.
            let warned = try await stores.postgres.execute(tooHigh, context: Self.context, onViolation: .warn)
            let sqliteWarned = try await stores.sqlite.execute(tooHigh, context: Self.context, onViolation: .warn)
            #expect(warned.audit?.totalViolations == 1)
            #expect(warned.changes.inserted["User"]?.map(\.primaryKey) == [6])
            #expect(sqliteWarned.changes.inserted["User"]?.map(\.primaryKey) == [4])
            #expect(Self.keyless(stores.plain(warned)) == Self.keyless(stores.plain(sqliteWarned)))
            let received = await stores.received(1)   // the rolled-back requests published nothing
            #expect(received.postgres.map(Self.keyless) == received.sqlite.map(Self.keyless))
            #expect(received.postgres.first?.contains(#""inserted":{"User":["x-strata:\/\/<uuid>\/User\/p6"]"#) == true)
            let users = try await stores.objects("User")
            #expect(users.postgres.map(Self.keyless) == users.sqlite.map(Self.keyless))
            #expect(users.postgres.map(Self.keyless) == [
                #"User/p? active=1 email="ana@x" handle="ana" score=3"#, #"User/p? active=1 email="bo@x" handle="bo" score=5"#,
                #"Admin/p? active=0 email="cy@x" handle="cy" level=2 score=9"#, #"User/p? active=1 email="max@x" handle="max" score=11"#,
            ])
        }
    }

    /// A wallet inserted for a user sets the user's row (the one-to-one is stored there): that row is audited too.
    @Test func theOtherSideOfAOneToOneIsAuditedAsOnSQLite() async throws {
        try await Self.withStores { stores in
            _ = try PostgresStoreTests.psql(#"UPDATE "\#(stores.postgres.url.schema)"."User" SET "score" = 12 WHERE "handle" = 'bo'"#)
            try await stores.sqlite.queue.write { try $0.execute(sql: #"UPDATE "User" SET "score" = 12 WHERE "handle" = 'bo'"#) }
            let from = BatchInsertRequest(entity: "Wallet", from: BatchInsertSource(entity: "User", predicate: "handle == 'bo'"),
                                          values: ["label": "$source.handle", "owner": "$source"])
            let literal = BatchInsertRequest(entity: "Wallet", objects: [["label": .literal("bo's"), "owner": .literal("2")]])
            for request in [from, literal] {
                var sqliteError: BatchViolationError?, postgresError: BatchViolationError?
                do { _ = try await stores.sqlite.execute(request, context: Self.context) } catch let error as BatchViolationError { sqliteError = error }
                do { _ = try await stores.postgres.execute(request, context: Self.context) } catch let error as BatchViolationError { postgresError = error }
                let violated = postgresError?.result.audit?.violated ?? []
                #expect(violated.map { "\($0.entity).\($0.property ?? "")" } == ["User.score"])
                #expect(violated.flatMap(\.samples).map { $0.objectID.split(separator: "/").last.map(String.init) } == ["p2"])
                #expect(postgresError.map { Self.keyless(stores.plain($0.result)) } == sqliteError.map { Self.keyless(stores.plain($0.result)) })
            }
            let wallets = try await stores.objects("Wallet")
            #expect(wallets.postgres.isEmpty && wallets.sqlite.isEmpty)
            let users = try await stores.objects("User")
            #expect(users.postgres == users.sqlite)
        }
    }

    @Test func invalidAndConflictingRequestsAreRefusedAsOnSQLiteWithNothingWritten() async throws {
        try await Self.withStores { stores in
            let unknown = BatchInsertRequest(entity: "User", objects: [["nick": .literal("z")]])
            let sqliteInvalid = await #expect(throws: BatchError.self) { try await stores.sqlite.execute(unknown, context: Self.context) }
            let postgresInvalid = await #expect(throws: BatchError.self) { try await stores.postgres.execute(unknown, context: Self.context) }
            #expect(postgresInvalid.map { "\($0)" } == sqliteInvalid.map { "\($0)" })
            #expect(postgresInvalid?.exitCode == .invalidInput)

            let badLink = SetRelationshipRequest(entity: "Post", relationship: "writer", match: [("authorHandle", "handle")])
            let sqliteBadLink = await #expect(throws: BatchError.self) { try await stores.sqlite.execute(badLink, context: Self.context) }
            let postgresBadLink = await #expect(throws: BatchError.self) { try await stores.postgres.execute(badLink, context: Self.context) }
            #expect(postgresBadLink.map { "\($0)" } == sqliteBadLink.map { "\($0)" })

            // An ambiguous link: SQLite's error, nothing linked.
            _ = try PostgresStoreTests.psql(#"INSERT INTO "\#(stores.postgres.url.schema)"."User" ("_entity", "handle", "email", "active") VALUES ('User', 'bo', 'bo2@x', true)"#)
            try await stores.sqlite.queue.write { db in
                try db.execute(sql: #"INSERT INTO "User" ("_entity", "handle", "email", "active") VALUES ('User', 'bo', 'bo2@x', 1)"#)
            }
            let ambiguous = SetRelationshipRequest(entity: "Post", relationship: "author", match: [("authorHandle", "handle")])
            let sqliteAmbiguous = await #expect(throws: RelationshipAmbiguityError.self) { try await stores.sqlite.execute(ambiguous, context: Self.context) }
            let postgresAmbiguous = await #expect(throws: RelationshipAmbiguityError.self) {
                try await stores.postgres.execute(ambiguous, context: Self.context)
            }
            #expect(postgresAmbiguous.map { stores.plain($0.diagnostics.map(\.headline)) } == sqliteAmbiguous.map { stores.plain($0.diagnostics.map(\.headline)) })
            #expect(postgresAmbiguous?.hook == nil && postgresAmbiguous?.object.primaryKey == 2)

            // A uniqueness conflict without onConflict: 1551, nothing written (the first row is new). Last: it uses
            // identity values on PostgreSQL, not on SQLite.
            let duplicate = BatchInsertRequest(entity: "User", objects: [["handle": .literal("new"), "email": .literal("new@x")],
                                                                         ["handle": .literal("ana"), "email": .literal("ana@x")]])
            for store in ["sqlite", "postgres"] {
                do {
                    _ = store == "sqlite" ? try await stores.sqlite.execute(duplicate, context: Self.context)
                        : try await stores.postgres.execute(duplicate, context: Self.context)
                    Issue.record("\(store): the duplicate should be refused")
                } catch BatchError.violation(let code, _) {
                    #expect(code == 1551, "\(store)")
                }
            }

            for entity in ["User", "Post"] {
                let objects = try await stores.objects(entity)
                #expect(objects.postgres == objects.sqlite, "\(entity)")
            }
            #expect(try await stores.objects("User").postgres.count == 4)
            #expect(try await stores.postgres.fetchAll("Post", where: "author != nil").isEmpty)
            // Nothing was published: the next change set each observer sees is this update's.
            let marker = BatchUpdateRequest(entity: "User", predicate: "handle == 'cy'", propertiesToUpdate: ["score": .literal("1")])
            _ = try await stores.sqlite.execute(marker, context: Self.context)
            _ = try await stores.postgres.execute(marker, context: Self.context)
            let received = await stores.received(1)
            #expect(received.postgres == received.sqlite)
            #expect(received.postgres.first?.contains(#""updated":{"Admin":["#) == true)
        }
    }
}

/// The rows a `dictionaryHandler` has filled, shared with the handler's closure.
final class HandlerCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0

    func next() -> Int {
        lock.lock(); defer { lock.unlock() }
        n += 1
        return n
    }

    func reset() {
        lock.lock(); defer { lock.unlock() }
        n = 0
    }

    /// An upsert (`onConflict: .update`) into `entity` whose handler proposes `rows` in order, then stops.
    func upsert(into entity: String, _ rows: [[String: Value]]) -> BatchInsertRequest {
        var request = BatchInsertRequest(entity: entity) { row in
            let n = self.next()
            guard n <= rows.count else { return true }
            row = rows[n - 1]
            return false
        }
        request.onConflict = .update
        return request
    }
}
