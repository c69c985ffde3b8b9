import Foundation
import Strata
@testable import StrataPostgres
import StrataTestSupport
import Testing

/// The library inside a server application, on PostgreSQL: migrate on open (`PostgresStore.open(_:models:hooks:options:)`)
/// and reading objects back (`fetch`, `fetchAll`, `table(for:)`, `column(for:property:)`), checked against the
/// same calls on an SQLite ``Store`` with the same models and hooks: the same objects, keys and values.
/// Skipped (and said so on stderr) without PostgreSQL.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresLibraryTests {
    /// v1: items; v2 adds `tag`, and a hook after 2 inserts five items and updates one.
    static let version1 = """
        version: 1
        entities:
          Item:
            attributes:
              name:   { type: string }
              price:  { type: decimal }
              seen:   { type: date }
              active: { type: bool, default: true, optional: false }
              count:  { type: int32 }
          Special:
            parent: Item
            attributes:
              level: { type: int16 }
        """
    static let models: [String: String] = [
        "1.yaml": version1,
        "2.yaml": version1.replacingOccurrences(of: "version: 1", with: "version: 2")
            .replacingOccurrences(of: "      count:  { type: int32 }\n", with: "      count:  { type: int32 }\n      tag:    { type: string }\n"),
    ]
    static let hooks: [String: String] = [
        "seed.yaml": """
            id: seed
            after: 2
            steps:
              - batchInsert:
                  entity: Item
                  objects:
                    - { name: Émile, price: "12.50", seen: "2024-05-01T10:00:00Z", count: 3 }
                    - { name: apple, price: "0.10", active: false, count: -7 }
                    - { name: Zebra, seen: "2023-12-31T23:59:59Z", count: 2147483647 }
                    - { name: ~, price: "99999999999999.99", count: 0 }
              - batchInsert:
                  entity: Special
                  objects:
                    - { name: special, level: 4, count: 1 }
              - batchUpdate:
                  entity: Item
                  predicate: "name BEGINSWITH[c] %@"
                  arguments: ["a"]
                  propertiesToUpdate: { tag: fruit }
            """,
    ]

    static func options(target: Int?) -> Store.OpenOptions {
        var options = Store.OpenOptions()
        options.target = target
        options.now = Date(timeIntervalSince1970: 1_716_249_600)
        return options
    }

    /// Runs `body` on the same store on both engines: created at v1, then migrated to v2 by a second open call
    /// (running the hook); the PostgreSQL store is closed and the SQLite file removed however `body` ends.
    static func withStores(_ body: (Store, PostgresStore) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-pglib-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("store.sqlite").path
        let url = try PostgresStoreURL(parsing: PostgresTestServer.url())
        let created = try await PostgresStore.open(url, models: .yaml(models), hooks: .yaml(hooks), options: options(target: 1))
        #expect(created.migration?.created == true && created.migration?.toVersion == 1)
        await created.close()
        _ = try await Store.open(at: path, models: .yaml(models), hooks: .yaml(hooks), options: options(target: 1))
        let postgres = try await PostgresStore.open(url, models: .yaml(models), hooks: .yaml(hooks), options: options(target: nil))
        let sqlite = try await Store.open(at: path, models: .yaml(models), hooks: .yaml(hooks), options: options(target: nil))
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            try await body(sqlite, postgres)
            await postgres.close()
        } catch {
            await postgres.close()
            throw error
        }
    }

    /// An object without its store's UUID, to compare across stores.
    static func plain(_ objects: [FetchedObject]) -> [String] {
        objects.map { object in
            "\(object.entity)/p\(object.id.primaryKey) " + object.values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                .joined(separator: " ")
        }
    }

    @Test func openMigratesOnceAndFetchesTheSameObjectsAsSQLite() async throws {
        try await Self.withStores { sqlite, postgres in
        #expect(postgres.migration?.fromVersion == 1 && postgres.migration?.toVersion == 2)
        #expect(postgres.migration?.hooks.map(\.id) == ["seed"])

        let all = try await postgres.fetchAll("Item", sortedBy: [PropertySort("name")])
        #expect(Self.plain(all) == Self.plain(try sqlite.fetchAll("Item", sortedBy: [PropertySort("name")])))
        #expect(Self.plain(all) == [
            #"Item/p4 active=1 count=0 name=nil price="99999999999999.99" seen=nil tag=nil"#,
            #"Item/p3 active=1 count=2147483647 name="Zebra" price=nil seen=1704067199.0 tag=nil"#,
            #"Item/p2 active=0 count=-7 name="apple" price="0.1" seen=nil tag="fruit""#,
            #"Special/p5 active=1 count=1 level=4 name="special" price=nil seen=nil tag=nil"#,
            #"Item/p1 active=1 count=3 name="Émile" price="12.5" seen=1714557600.0 tag=nil"#,
        ])
        let uuid = try await postgres.metadata().storeUUID
        #expect(all.last?.id.uri == "x-strata://\(uuid)/Item/p1")

        for (predicate, arguments, sort, limit, subentities) in [
            ("name BEGINSWITH[c] %@", [PredicateArgument.text("z")], [PropertySort("count", ascending: false)], nil as Int?, true),
            ("seen >= $NOW - 365 days OR price > 100", [], [PropertySort("seen")], nil, true),
            ("active == NO OR count > 1000", [], [PropertySort("name", ascending: false)], 1, true),
            (nil, [], [PropertySort("count", ascending: false)], 2, false),
        ] as [(String?, [PredicateArgument], [PropertySort], Int?, Bool)] {
            let onPostgres = try await postgres.fetchAll("Item", where: predicate, arguments: arguments, sortedBy: sort, limit: limit,
                                                         includesSubentities: subentities)
            let onSQLite = try sqlite.fetchAll("Item", where: predicate, arguments: arguments, sortedBy: sort, limit: limit,
                                               includesSubentities: subentities)
            #expect(Self.plain(onPostgres) == Self.plain(onSQLite), "\(predicate ?? "all")")
            #expect(!onPostgres.isEmpty, "\(predicate ?? "all")")
        }
        let specials = try await postgres.fetchAll("Special")
        #expect(Self.plain(specials) == [#"Special/p5 active=1 count=1 level=4 name="special" price=nil seen=nil tag=nil"#])

        #expect(try await postgres.table(for: "Special") == "Item")
        #expect(try await postgres.column(for: "Item", property: "seen") == "seen")

        let again = try await PostgresStore.open(postgres.url, models: .yaml(Self.models), hooks: .yaml(Self.hooks),
                                                 options: Self.options(target: nil))
        #expect(again.migration?.nothingToDo == true && again.migration?.hooks.isEmpty == true)
        let count = try? await again.fetchAll("Item").count
        await again.close()
        #expect(count == 5)
        }
    }

    @Test func badInputIsTheLibrarysErrorAndChangesNothing() async throws {
        try await Self.withStores { _, postgres in
        await #expect(throws: FetchError.unknownEntity("Iten", hint: "did you mean 'Item'?")) {
            _ = try await postgres.fetchAll("Iten")
        }
        await #expect(throws: FetchError.negativeLimit(-1)) { _ = try await postgres.fetchAll("Item", limit: -1) }
        await #expect(throws: FetchError.unknownProperty(entity: "Item", property: "tga", hint: "did you mean 'tag'?")) {
            _ = try await postgres.column(for: "Item", property: "tga")
        }
        }
        var missing = Self.options(target: nil)
        missing.createIfMissing = false
        let absent = try PostgresStoreURL(parsing: PostgresTestServer.url())
        await #expect(throws: PostgresStoreError.missingStore(store: absent.description)) {
            _ = try await PostgresStore.open(absent, models: .yaml(Self.models), options: missing)
        }
        #expect(try PostgresTestServer.psql("SELECT count(*) FROM pg_namespace WHERE nspname = '\(absent.schema)'") == "0")
    }

    @Test func aHookBreakingARuleStopsTheOpenWithItsReportAndChangesNothing() async throws {
        let models = [
            "1.yaml": Self.version1,
            "2.yaml": Self.version1.replacingOccurrences(of: "version: 1", with: "version: 2")
                .replacingOccurrences(of: "count:  { type: int32 }", with: "count:  { type: int32, max: 10 }"),
        ]
        let hooks = ["raise.yaml": """
            id: raise
            after: 2
            onViolation: rollback
            steps:
              - batchUpdate: { entity: Item, predicate: "name == 'b'", propertiesToUpdate: { count: 11 } }
            """]
        let url = try PostgresStoreURL(parsing: PostgresTestServer.url())
        let created = try await PostgresStore.open(url, models: .yaml(models), hooks: .yaml(hooks), options: Self.options(target: 1))
        await created.close()
        _ = try PostgresStoreTests.psql(#"INSERT INTO "\#(url.schema)"."Item" ("_entity", "name", "count", "active") VALUES ('Item', 'a', 1, true), ('Item', 'b', 2, true)"#)
        do {
            let store = try await PostgresStore.open(url, models: .yaml(models), hooks: .yaml(hooks), options: Self.options(target: nil))
            await store.close()
            Issue.record("the open should stop on the hook's violation")
        } catch let error as MigrationRunError {
            #expect(error.exitCode == .validationViolations)
            #expect(error.report.toVersion == 1)
            #expect(error.description.contains("raise"), "\(error)")
        }
        #expect(try PostgresStoreTests.psql(#"SELECT value FROM "\#(url.schema)".strata_metadata WHERE key = 'strata.version'"#) == ["1"])
        #expect(try PostgresStoreTests.psql(#"SELECT "name" || ' ' || "count" FROM "\#(url.schema)"."Item" ORDER BY "_pk""#) == ["a 1", "b 2"])

        var unaudited = Self.options(target: nil)
        unaudited.audit = .none
        let store = try await PostgresStore.open(url, models: .yaml(models), hooks: .yaml(hooks), options: unaudited)
        let objects = try? await store.fetchAll("Item", where: "count > 10")
        await store.close()
        #expect(store.migration?.toVersion == 2)
        #expect(objects?.map { $0.string("name") } == ["b"])
    }

    @Test func batchRequestsRunAuditedAndPublishTheSameChangeSetsAsSQLite() async throws {
        try await Self.withStores { sqlite, postgres in
            var raise = BatchUpdateRequest(entity: "Item", predicate: "count < %@", arguments: [.number(3)],
                                           propertiesToUpdate: ["tag": .literal("low")])
            raise.resultType = .updatedObjectIDs
            let delete = BatchDeleteRequest(entity: "Item", predicate: "name == nil")
            let onPostgres = postgres.changes()
            let onSQLite = sqlite.changes()
            let context = PredicateContext(now: 1_716_249_600)

            let updated = try await postgres.execute(raise, context: context)
            let sqliteUpdated = try await sqlite.execute(raise, context: context)
            #expect(updated.count == 3 && updated.count == sqliteUpdated.count)
            #expect(updated.objectIDs?.map { "\($0.entity)/p\($0.primaryKey)" } == ["Item/p2", "Item/p4", "Special/p5"])
            #expect(updated.objectIDs?.map(\.primaryKey) == sqliteUpdated.objectIDs?.map(\.primaryKey))
            #expect(updated.audit?.totalViolations == 0)
            let deleted = try await postgres.execute(delete, context: context)
            _ = try await sqlite.execute(delete, context: context)
            #expect(deleted.count == 1)

            var postgresSets: [ChangeSet] = [], sqliteSets: [ChangeSet] = []
            var iterator = onPostgres.makeAsyncIterator(), sqliteIterator = onSQLite.makeAsyncIterator()
            for _ in 0..<2 {
                postgresSets.append(await iterator.next()!)
                sqliteSets.append(await sqliteIterator.next()!)
            }
            #expect(postgresSets.map { $0.updated.mapValues { $0.map(\.primaryKey) } } == [["Item": [2, 4], "Special": [5]], [:]])
            #expect(postgresSets.map { $0.deleted.mapValues { $0.map(\.primaryKey) } } == [[:], ["Item": [4]]])
            #expect(postgresSets.map { $0.updated.mapValues { $0.map(\.primaryKey) } } == sqliteSets.map { $0.updated.mapValues { $0.map(\.primaryKey) } })
            #expect(postgresSets.map { $0.deleted.mapValues { $0.map(\.primaryKey) } } == sqliteSets.map { $0.deleted.mapValues { $0.map(\.primaryKey) } })
            #expect(Self.plain(try await postgres.fetchAll("Item")) == Self.plain(try sqlite.fetchAll("Item")))
        }
    }

    @Test func aBatchBreakingARuleWritesNothingAndPublishesNothing() async throws {
        let models = ["1.yaml": Self.version1.replacingOccurrences(of: "count:  { type: int32 }", with: "count:  { type: int32, max: 10 }")]
        let url = try PostgresStoreURL(parsing: PostgresTestServer.url())
        let store = try await PostgresStore.open(url, models: .yaml(models))
        _ = try PostgresStoreTests.psql(#"INSERT INTO "\#(url.schema)"."Item" ("_entity", "name", "count", "active") VALUES ('Item', 'a', 1, true)"#)
        let observed = store.changes()
        let request = BatchUpdateRequest(entity: "Item", propertiesToUpdate: ["count": .literal("11")])
        var caught: BatchViolationError?
        do { _ = try await store.execute(request) } catch let error as BatchViolationError { caught = error } catch {
            Issue.record("unexpected \(error)")
        }
        let warned = try? await store.execute(request, onViolation: .warn)
        let counts = try? await store.fetchAll("Item").map { $0.int("count") }
        var iterator = observed.makeAsyncIterator()
        let first = await iterator.next()
        await store.close()
        #expect(caught?.result.audit?.totalViolations == 1)
        #expect(warned?.audit?.totalViolations == 1 && warned?.count == 1)
        #expect(counts == [11])
        // The rolled-back request published nothing: the first change set is the warned one's.
        #expect(first?.updated.mapValues { $0.map(\.primaryKey) } == ["Item": [1]])
    }

    /// A change set as JSON with sorted keys and the store's UUID left out, to compare across stores.
    static func plain(_ changes: ChangeSet?, uuid: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: (try? encoder.encode(changes)) ?? Data(), as: UTF8.self).replacingOccurrences(of: uuid, with: "<uuid>")
    }

    @Test func migratingAnOpenStorePublishesTheHooksChangeSetsAsSQLite() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-pglib-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try PostgresStoreURL(parsing: PostgresTestServer.url())
        let postgres = try await PostgresStore.open(url, models: .yaml(Self.models), hooks: .yaml(Self.hooks), options: Self.options(target: 1))
        let sqlite = try await Store.open(at: directory.appendingPathComponent("store.sqlite").path, models: .yaml(Self.models),
                                          hooks: .yaml(Self.hooks), options: Self.options(target: 1))
        let onPostgres = postgres.changes(), onSQLite = sqlite.changes()
        do {
            let report = try await postgres.migrate(models: .yaml(Self.models), hooks: .yaml(Self.hooks), options: Self.options(target: nil))
            let sqliteReport = try await sqlite.migrate(models: .yaml(Self.models), hooks: .yaml(Self.hooks), options: Self.options(target: nil))
            #expect(report.fromVersion == 1 && report.toVersion == 2 && report.hooks.map(\.id) == ["seed"])
            // Nothing to do: nothing published; the next change set is the batch's.
            let again = try await postgres.migrate(models: .yaml(Self.models), hooks: .yaml(Self.hooks), options: Self.options(target: nil))
            #expect(again.nothingToDo)
            _ = try await postgres.execute(BatchDeleteRequest(entity: "Special"))
            _ = try await sqlite.execute(BatchDeleteRequest(entity: "Special"))

            var iterator = onPostgres.makeAsyncIterator(), sqliteIterator = onSQLite.makeAsyncIterator()
            let (first, second) = (await iterator.next(), await iterator.next())
            let (sqliteFirst, sqliteSecond) = (await sqliteIterator.next(), await sqliteIterator.next())
            let uuid = try await postgres.metadata().storeUUID, sqliteUUID = try sqlite.metadata().storeUUID
            #expect(first == report.changes)
            #expect(first?.inserted.mapValues { $0.map(\.primaryKey) } == ["Item": [1, 2, 3, 4], "Special": [5]])
            #expect(first?.updated.mapValues { $0.map(\.primaryKey) } == ["Item": [2]])
            #expect(Self.plain(first, uuid: uuid) == Self.plain(sqliteFirst, uuid: sqliteUUID))
            #expect(Self.plain(report.changes, uuid: uuid) == Self.plain(sqliteReport.changes, uuid: sqliteUUID))
            #expect(second?.deleted.mapValues { $0.map(\.primaryKey) } == ["Special": [5]])
            #expect(Self.plain(second, uuid: uuid) == Self.plain(sqliteSecond, uuid: sqliteUUID))
            await postgres.close()
        } catch {
            await postgres.close()
            throw error
        }
    }

    @Test func aFailingMigrationPublishesWhatItsCommittedStepsChanged() async throws {
        let v2 = Self.version1.replacingOccurrences(of: "version: 1", with: "version: 2")
        let models = [
            "1.yaml": Self.version1, "2.yaml": v2,
            "3.yaml": v2.replacingOccurrences(of: "version: 2", with: "version: 3")
                .replacingOccurrences(of: "count:  { type: int32 }", with: "count:  { type: int32, max: 10 }"),
        ]
        let hooks = [
            "add.yaml": "id: add\nafter: 2\nsteps:\n  - batchInsert: { entity: Item, objects: [ { name: a, count: 1 } ] }\n",
            "raise.yaml": """
                id: raise
                after: 3
                onViolation: rollback
                steps:
                  - batchUpdate: { entity: Item, propertiesToUpdate: { count: 11 } }
                """,
        ]
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-pglib-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try PostgresStoreURL(parsing: PostgresTestServer.url())
        let postgres = try await PostgresStore.open(url, models: .yaml(models), hooks: .yaml(hooks), options: Self.options(target: 1))
        let sqlite = try await Store.open(at: directory.appendingPathComponent("store.sqlite").path, models: .yaml(models),
                                          hooks: .yaml(hooks), options: Self.options(target: 1))
        let onPostgres = postgres.changes(), onSQLite = sqlite.changes()
        var errors: [MigrationRunError] = []
        for migrate in [{ try await postgres.migrate(models: .yaml(models), hooks: .yaml(hooks), options: Self.options(target: nil)) },
                        { try await sqlite.migrate(models: .yaml(models), hooks: .yaml(hooks), options: Self.options(target: nil)) }]
            as [() async throws -> MigrationRunReport] {
            do {
                _ = try await migrate()
                Issue.record("the migration should stop on the hook's violation")
            } catch let error as MigrationRunError {
                errors.append(error)
            }
        }
        var iterator = onPostgres.makeAsyncIterator(), sqliteIterator = onSQLite.makeAsyncIterator()
        let published = await iterator.next(), sqlitePublished = await sqliteIterator.next()
        let uuid = try await postgres.metadata().storeUUID, sqliteUUID = try sqlite.metadata().storeUUID
        await postgres.close()
        #expect(errors.map(\.report.toVersion) == [2, 2])
        #expect(published == errors.first?.report.changes)
        #expect(published?.inserted.mapValues { $0.map(\.primaryKey) } == ["Item": [1]])
        #expect(Self.plain(published, uuid: uuid) == Self.plain(sqlitePublished, uuid: sqliteUUID))
    }
}
