import Foundation
import StrataCore
@testable import StrataPostgres
import StrataTestSupport
import Testing

/// PostgreSQL stores against the throwaway server: creation at a version, the catalog it leaves, the
/// metadata rows, and the missing-store rule. Skipped (and said so on stderr) without PostgreSQL.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresStoreTests {
    static func example() throws -> ModelHistory { try PostgresStepPlannerTests.example() }

    /// A new schema's URL and its name.
    static func newStore() throws -> (url: PostgresStoreURL, schema: String) {
        let url = try PostgresStoreURL(parsing: PostgresTestServer.url(), environment: [:])
        return (url, url.schema)
    }

    static func psql(_ sql: String) throws -> [String] {
        try PostgresTestServer.psql(sql).split(separator: "\n").map(String.init)
    }

    @Test func createsNativeTypesIdentityAndDeferrableForeignKeys() async throws {
        let (url, schema) = try Self.newStore()
        let (store, created) = try await PostgresStore.create(url, model: Self.example().models[0], hooks: HookSet(hooks: []))
        await store.close()
        #expect(created)
        let columns = try Self.psql("""
            SELECT table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(identity_generation, '-')
            FROM information_schema.columns WHERE table_schema = '\(schema)' AND table_name IN ('Recipe', 'Ingredient')
            ORDER BY table_name, ordinal_position
            """)
        #expect(columns == [
                "Ingredient._pk bigint NO ALWAYS", "Ingredient.name text YES -", "Ingredient.quantity text YES -",
                "Ingredient.recipe bigint YES -",
                "Recipe._pk bigint NO ALWAYS", "Recipe.name text YES -", "Recipe.lastUsed timestamp with time zone YES -",
                "Recipe.servings smallint YES -", "Recipe.rating smallint YES -",
            ])
        #expect(try Self.psql("""
            SELECT conname || ' ' || condeferrable::text || ' ' || condeferred::text || ' ' || confdeltype::text || ' ' || confrelid::regclass::text
            FROM pg_constraint WHERE contype = 'f' AND connamespace = '\(schema)'::regnamespace ORDER BY conname
            """) == ["strata_fkey_Ingredient_recipe true false c \(schema).\"Recipe\""])
        #expect(try Self.psql("""
            SELECT indexname FROM pg_indexes WHERE schemaname = '\(schema)' AND indexname LIKE 'strata_%' AND indexname NOT LIKE '%pkey' ORDER BY indexname
            """) == ["strata_fk_Ingredient_recipe"])
    }

    @Test func recordsTheSameMetadataAsSQLiteStores() async throws {
        let (url, schema) = try Self.newStore()
        let model = try Self.example().models[0]
        let (store, _) = try await PostgresStore.create(url, model: model, hooks: HookSet(hooks: []))
        let metadata = try await store.metadata()
        await store.close()
        #expect(metadata.version == 1)
        #expect(metadata.createdAtVersion == 1)
        #expect(metadata.modelHash == VersionHash.modelHash(of: model))
        #expect(metadata.modelYAML == model.source)
        #expect(metadata.layout == (try PostgresLayout.adapted(LayoutBuilder.layout(for: model))))
        #expect(try Self.psql("SELECT \"key\" FROM \"\(schema)\".strata_metadata ORDER BY 1") == [
            "strata.createdAtVersion", "strata.entityHashes", "strata.layout", "strata.modelHash", "strata.modelYAML",
            "strata.uuid", "strata.version",
        ])
        #expect(try Self.psql("SELECT kind || ' ' || coalesce(\"fromVersion\"::text, '-') || ' ' || \"toVersion\" FROM \"\(schema)\".strata_history")
                    == ["create - 1"])
    }

    @Test func aSchemaWithoutStrataTablesIsAMissingStore() async throws {
        let (url, schema) = try Self.newStore()
        _ = try Self.psql("CREATE SCHEMA \"\(schema)\"; CREATE TABLE \"\(schema)\".other (x int)")
        await #expect(throws: PostgresStoreError.missingStore(store: url.description)) { try await PostgresStore.open(url) }
        let options = PostgresMigration.Options()
        await #expect(throws: PostgresStoreError.missingStore(store: url.description)) {
            try await PostgresMigration.run(url, models: Self.example(), hooks: HookSet(hooks: []), options: options)
        }
        #expect(try Self.psql("SELECT count(*) FROM information_schema.tables WHERE table_schema = '\(schema)'") == ["1"])
    }

    @Test func createRefusesTablesInTheWay() async throws {
        let (url, schema) = try Self.newStore()
        _ = try Self.psql("CREATE SCHEMA \"\(schema)\"; CREATE TABLE \"\(schema)\".\"Recipe\" (x int)")
        await #expect(throws: PostgresStoreError.exists(store: url.description, detail: "the schema already has table(s) Recipe")) {
            try await PostgresStore.create(url, model: Self.example().models[0], hooks: HookSet(hooks: []))
        }
        #expect(try Self.psql("SELECT count(*) FROM information_schema.tables WHERE table_schema = '\(schema)'") == ["1"])
    }
}
