#if canImport(CryptoKit)
import CryptoKit
#endif
import Foundation
import GRDB
import Strata
import Testing

/// Strata as an application uses it: `import GRDB` and `import Strata` side by side, without
/// `@testable`, GRDB's `SQL` literal written unqualified next to Strata's public API and its GRDB escape
/// hatch (`Store.read`, `Store.write`). This file stops compiling if Strata exports a type named like one
/// of GRDB's (`'SQL' is ambiguous for type lookup`), or if the public API falls short of these tasks.
@Suite struct ConsumerTests {
    /// The repository's recipes example (models/ v1–v4, migrations/).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    /// 2024-06-01T00:00:00Z.
    static let now = 1_717_200_000.0

    /// A fresh directory, removed when `body` returns.
    static func withDirectory<T>(_ body: (String) async throws -> T) async throws -> T {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-consumer-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        return try await body(dir)
    }

    /// A v1 store of the example with three recipes, inserted through ``Store/write(_:)`` with `SQL` literals.
    static func v1Store(at path: String, models: ModelHistory) throws -> Store {
        let store = try StoreCreator.create(at: path, model: models.model(version: 1)!)
        let recipes: [(pk: Int64, name: String, lastUsed: Double?)] = [
            (1, "Soup", now - 2 * 86_400), (2, "Stew", now - 90 * 86_400), (3, "Untitled", nil),
        ]
        try store.write { db in
            for recipe in recipes {
                let insert: SQL = """
                    INSERT INTO "Recipe" ("_pk", "name", "lastUsed", "rating") VALUES (\(recipe.pk), \(recipe.name), \(recipe.lastUsed), 3)
                    """
                try db.execute(literal: insert)
            }
        }
        return store
    }

    /// `name:favorite:rating` of every recipe, by name, read through ``Store/read(_:)``.
    static func recipes(_ store: Store) throws -> [String] {
        try store.read { db in
            let query: SQL = #"SELECT "name", "favorite", "rating" FROM "Recipe" ORDER BY "name""#
            return try Row.fetchAll(db, SQLRequest(literal: query)).map { row in
                "\(row["name"] as String):\(row["favorite"] as Bool):\(row["rating"] as Int)"
            }
        }
    }

    @Test func migratesThenBatchesAndQueriesWithGRDBsSQLLiteral() async throws {
        try await Self.withDirectory { dir in
            let path = dir + "/app.sqlite"
            let models = try ModelHistory.load(directory: Self.root + "/models")
            let hooks = try HookSet.load(directory: Self.root + "/migrations", models: models)
            let store = try Self.v1Store(at: path, models: models)
            let uuid = try store.metadata().storeUUID
            func id(_ pk: Int64) -> ObjectID { ObjectID(storeUUID: uuid, entity: "Recipe", primaryKey: pk) }

            // v1 → v4: the untitled, never-used draft is purged after v3; the recipe used two days ago
            // becomes a favorite after v4.
            var options = MigrationRun.Options(now: Date(timeIntervalSince1970: Self.now))
            options.collectObjectIDs = true
            let report = try MigrationRun.run(storePath: path, models: models, hooks: hooks, options: options)
            #expect(report.fromVersion == 1)
            #expect(report.toVersion == 4)
            #expect(report.changes.deleted == ["Recipe": [id(3)]])
            #expect(report.changes.updated == ["Recipe": [id(1)]])
            #expect(try Self.recipes(store) == ["Soup:true:3", "Stew:false:3"])

            // A batch update through the public API, with the objects it changed.
            var request = BatchUpdateRequest(entity: "Recipe", predicate: "favorite == false",
                                             propertiesToUpdate: ["rating": .literal("5")])
            request.resultType = .updatedObjectIDs
            let result = try await store.execute(request)
            #expect(result.count == 1)
            #expect(result.objectIDs == [id(2)])
            #expect(try Self.recipes(store) == ["Soup:true:3", "Stew:false:5"])

            // A query with a bound value, GRDB-style.
            let minimum = 4
            let names = try store.read { db in
                let query: SQL = #"SELECT "name" FROM "Recipe" WHERE "rating" >= \#(minimum)"#
                return try String.fetchAll(db, SQLRequest(literal: query))
            }
            #expect(names == ["Stew"])

            let (migrations, hookRecords) = try store.history()
            #expect(migrations.map(\.kind) == ["create", "migrate", "migrate", "migrate"])
            #expect(migrations.map(\.toVersion) == [1, 2, 3, 4])
            #expect(hookRecords.map(\.id).sorted() == ["favorite-recent-recipes", "purge-abandoned-drafts"])
            #expect(hookRecords.map(\.status) == ["applied", "applied"])
        }
    }

    @Test func writeCommitsOrRollsBackAsAWhole() async throws {
        try await Self.withDirectory { dir in
            let models = try ModelHistory.load(directory: Self.root + "/models")
            let store = try Self.v1Store(at: dir + "/app.sqlite", models: models)
            struct Cancelled: Error {}
            #expect(throws: Cancelled.self) {
                try store.write { db in
                    try db.execute(literal: #"DELETE FROM "Recipe""#)
                    throw Cancelled()
                }
            }
            #expect(try store.read { db in try Int.fetchOne(db, sql: #"SELECT count(*) FROM "Recipe""#) } == 3)

            let renamed = try store.write { db -> Int in
                try db.execute(literal: #"UPDATE "Recipe" SET "name" = 'Broth' WHERE "_pk" = \#(1)"#)
                return db.changesCount
            }
            #expect(renamed == 1)
            #expect(try store.read { db in try String.fetchAll(db, sql: #"SELECT "name" FROM "Recipe" ORDER BY "_pk""#) }
                    == ["Broth", "Stew", "Untitled"])

            // `read` is read-only: SQLite refuses the write, as a StoreError naming the store.
            let refused = #expect(throws: StoreError.self) {
                try store.read { db in try db.execute(literal: #"DELETE FROM "Recipe""#) }
            }
            #expect(refused.map { "\($0)" } == StoreError.readOnly(path: dir + "/app.sqlite").description)
            #expect(try store.read { db in try Int.fetchOne(db, sql: #"SELECT count(*) FROM "Recipe""#) } == 3)
        }
    }

    @Test func metadataAndAuditThroughTheStore() async throws {
        try await Self.withDirectory { dir in
            let models = try ModelHistory.load(directory: Self.root + "/models")
            let store = try Self.v1Store(at: dir + "/app.sqlite", models: models)

            try store.setUserMetadata("eu-west", forKey: "region")
            #expect(try store.metadataValue(forKey: "region") == "eu-west")
            #expect(try store.metadataValue(forKey: "strata.version") == "1")
            #expect(try store.metadataValue(forKey: "missing") == nil)
            #expect(try store.userMetadata().map { "\($0.key)=\($0.value)" } == ["region=eu-west"])
            let refused = #expect(throws: Diagnostic.self) { try store.setUserMetadata("9", forKey: "strata.version") }
            #expect(refused?.message == "'strata.version' is not a user key")
            #expect(try store.metadataValue(forKey: "strata.version") == "1")

            let metadata = try store.metadata()
            let auditor = Auditor(model: models.model(version: 1)!, layout: metadata.layout, storeUUID: metadata.storeUUID)
            #expect(try auditor.run(on: store, scope: .full).totalViolations == 0)
            try store.write { db in
                try db.execute(literal: #"UPDATE "Recipe" SET "rating" = \#(9) WHERE "name" = \#("Stew")"#)
            }
            let audit = try auditor.run(on: store, scope: .full)
            #expect(audit.violated.map { "\($0.subject) \($0.code.rawValue) \($0.samples.map(\.objectID))" }
                    == ["Recipe.rating 1610 [\"x-strata://\(metadata.storeUUID)/Recipe/p2\"]"])
        }
    }

    /// Foundation's `PredicateError` stays unqualified next to Strata, whose own is `PredicateCompileError`.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func foundationsPredicateErrorNextToStrataPredicates() throws {
        let unwrap = #Predicate<Int?> { $0! > 3 }
        #expect(throws: PredicateError.forceUnwrapFailure) { try unwrap.evaluate(nil) }

        let model = try ModelHistory.load(directory: Self.root + "/models").model(version: 4)!
        let compiler = PredicateCompiler(model: model, layout: LayoutBuilder.layout(for: model))
        let compiled = try compiler.compile("rating >= %@", entity: "Recipe",
                                            context: PredicateContext(arguments: [.number(4)], now: Self.now))
        #expect(compiled.sql == #"t."rating" >= ?"#)
        #expect(compiled.arguments == [.integer(4)])
        let error = #expect(throws: PredicateCompileError.self) {
            try compiler.compile("rating >> 3", entity: "Recipe", context: PredicateContext(now: Self.now))
        }
        #expect(error?.description == """
            predicate:1:9: error: expected a value but found '>'
                rating >> 3
                        ^
            """)
    }

    #if canImport(CryptoKit)
    /// CryptoKit's `SHA256` stays unqualified next to Strata (Apple platforms; Strata's own SHA-256 is internal).
    @Test func cryptoKitsSHA256NextToStrata() {
        let digest = SHA256.hash(data: Data("abc".utf8))
        #expect(digest.map { String(format: "%02x", $0) }.joined() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
    #endif
}
