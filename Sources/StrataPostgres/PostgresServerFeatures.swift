import StrataCore

/// What a PostgreSQL server offers beyond its core, checked against what the run's SQL needs before any step
/// runs (SPEC §14.2: `[c]` needs ICU, `[d]` needs the `unaccent` extension; Strata never creates extensions).
enum PostgresServerFeatures {
    /// A renderer for the run: `unaccent` qualified by the schema that holds the extension.
    /// - Throws: `PostgresRenderError` (exit 2) naming what the server lacks.
    static func renderer(for requirements: Set<PostgresRenderer.Requirement>,
                         session: PostgresSession) async throws -> PostgresRenderer {
        var renderer = PostgresRenderer()
        if requirements.contains(.icuCollation) {
            let count = try await session.value("SELECT count(*) FROM pg_collation WHERE collname = \("und-x-icu")", as: Int64.self)
            if count ?? 0 == 0 {
                throw PostgresRenderError("[c] needs the ICU collation \"und-x-icu\", which this server does not have (it was built without ICU)",
                                          hint: "use a server built with ICU (the default of most packages), or compare without [c]")
            }
        }
        if requirements.contains(.unaccent) {
            let schema = try await session.value("""
                SELECT n.nspname::text FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace \
                WHERE e.extname = \("unaccent")
                """, as: String.self)
            guard let schema else {
                throw PostgresRenderError("[d] needs the unaccent extension, which this database does not have",
                                          hint: "an administrator can add it with CREATE EXTENSION unaccent (Strata never creates extensions)")
            }
            renderer.unaccentSchema = schema
        }
        return renderer
    }
}
