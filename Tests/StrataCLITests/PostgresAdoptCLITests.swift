import Foundation
import StrataTestSupport
import Testing

/// `strata adopt --version N` on a PostgreSQL schema, through the real `strata` binary: the live catalog is
/// checked against version N's layout as Strata creates it on PostgreSQL (exit 6 naming every difference,
/// nothing written), then the `strata_` tables are recorded and the store migrates like any other.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresAdoptCLITests {
    /// AuthorBookMapping's version 1, written by hand with six differences from Strata's layout.
    static let nearlyV1 = """
        CREATE TABLE "Author" ("_pk" bigserial PRIMARY KEY, "name" text, "kind" text, "born" date);
        CREATE TABLE "Book" ("_pk" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, "title" text, "pages" bigint,
          "deleted" boolean NOT NULL DEFAULT false, "author" bigint);
        ALTER TABLE "Book" ADD CONSTRAINT "strata_fkey_Book_author" FOREIGN KEY ("author") REFERENCES "Author" ("_pk") ON DELETE SET NULL;
        INSERT INTO "Author" ("name", "kind") VALUES ('Ann', 'person'), ('Acme', 'company');
        INSERT INTO "Book" ("title", "pages", "author") VALUES ('b1', 10, 1), ('b2', 20, 2);
        """
    /// What turns `nearlyV1` into version 1's layout.
    static let fixes = """
        ALTER TABLE "Author" DROP COLUMN "born";
        ALTER TABLE "Author" ALTER COLUMN "_pk" DROP DEFAULT;
        DROP SEQUENCE "Author__pk_seq";
        ALTER TABLE "Author" ALTER COLUMN "_pk" ADD GENERATED ALWAYS AS IDENTITY (START WITH 3);
        ALTER TABLE "Book" ALTER COLUMN "pages" TYPE integer;
        ALTER TABLE "Book" ALTER COLUMN "deleted" DROP NOT NULL;
        ALTER TABLE "Book" DROP CONSTRAINT "strata_fkey_Book_author";
        ALTER TABLE "Book" ADD CONSTRAINT "strata_fkey_Book_author" FOREIGN KEY ("author") REFERENCES "Author" ("_pk")
          ON DELETE SET NULL DEFERRABLE INITIALLY IMMEDIATE;
        CREATE INDEX "strata_fk_Book_author" ON "Book" ("author");
        """

    static func project() throws -> (dir: String, url: String, schema: String) {
        let (dir, _) = try MappingProject.project(v1: AuthorBookMapping.v1, v2: AuthorBookMapping.v2,
                                                  files: ["v2.yaml": AuthorBookMapping.mapping], name: "pgadopt")
        let url = PostgresTestServer.url()
        return (dir, url, String(url.split(separator: "=").last!))
    }

    static func sql(_ schema: String, _ text: String) throws -> String {
        try PostgresTestServer.psql("SET search_path TO \"\(schema)\";\n" + text)
    }

    static func strataTables(_ schema: String) throws -> String {
        try PostgresTestServer.psql("SELECT count(*) FROM pg_tables WHERE schemaname = '\(schema)' AND tablename LIKE 'strata%'")
    }

    @Test func aSchemaThatDiffersIsExit6NamingEveryDifferenceThenAdoptsOnceFixed() throws {
        let (dir, url, schema) = try Self.project()
        _ = try PostgresTestServer.psql("CREATE SCHEMA \"\(schema)\"")
        _ = try Self.sql(schema, Self.nearlyV1)
        let refused = try CLI.run(["adopt", "--version", "1", "--store", url], in: dir)
        #expect(refused.status == 6)
        #expect(refused.stderr.hasPrefix("error: the store is in drift from version 1 (6 differences):\n"), "\(refused.stderr)")
        for line in [
            "  Author._pk: columnConstraint: expected GENERATED ALWAYS AS IDENTITY, found no identity\n",
            "  Author.born: extraColumn: expected no column, found date\n",
            "  Book.pages: columnType: expected integer, found bigint\n",
            "  Book.deleted: columnConstraint: expected nullable, found NOT NULL\n",
            #"  Book.author: foreignKey: expected strata_fkey_Book_author: REFERENCES "Author" ("_pk") ON DELETE SET NULL DEFERRABLE INITIALLY IMMEDIATE, found strata_fkey_Book_author: REFERENCES "Author" ("_pk") ON DELETE SET NULL NOT DEFERRABLE"# + "\n",
            #"  Book.strata_fk_Book_author: missingIndex: expected ("author"), found no index"# + "\n",
        ] {
            #expect(refused.stderr.contains(line), "\(line) in \(refused.stderr)")
        }
        #expect(try Self.strataTables(schema) == "0")

        _ = try Self.sql(schema, Self.fixes)
        let adopted = try CLI.run(["adopt", "--version", "1", "--store", url], in: dir)
        #expect(adopted.status == 0, "\(adopted.stderr)")
        let uuid = try Self.sql(schema, #"SELECT "value" FROM "strata_metadata" WHERE "key" = 'strata.uuid'"#).split(separator: "\n").last.map(String.init)
        #expect(adopted.stdout == "adopted \(url) at version 1 (store \(uuid ?? "?"))\n")
        #expect(try Self.sql(schema, #"SELECT "kind" || ' ' || "toVersion" FROM "strata_history""#).hasSuffix("adopt 1"))

        let status = try CLI.run(["status", "--check", "--store", url], in: dir)
        #expect(status.status == 7)
        #expect(status.stdout.contains("version:  1 (latest model: 2; created at 1)"))
        #expect(status.stdout.contains("drift:    none\n"))
        let migrated = try CLI.run(["migrate", "--store", url], in: dir)
        #expect(migrated.status == 0, "\(migrated.stderr)")
        #expect(try Self.sql(schema, #"SELECT string_agg("_pk" || ' ' || "name", ', ' ORDER BY "_pk") FROM "Writer""#).hasSuffix("1 ANN"))
        #expect(try CLI.run(["status", "--store", url], in: dir).status == 0)

        let again = try CLI.run(["adopt", "--version", "2", "--store", url], in: dir)
        #expect(again.status == 1)
        #expect(again.stderr.contains("error: '\(url)' already has Strata metadata (version 2)"), "\(again.stderr)")
    }

    @Test func aStoreStrataCreatedAdoptsAtItsVersionOnceItsStrataTablesAreGone() throws {
        let project = try CLI.exampleProject()
        let url = PostgresTestServer.url()
        let schema = String(url.split(separator: "=").last!)
        #expect(try CLI.run(["migrate", "--create", "--store", url], in: project).status == 0)
        _ = try Self.sql(schema, #"DROP TABLE "strata_metadata", "strata_history", "strata_hooks""#)
        let wrongVersion = try CLI.run(["adopt", "--version", "3", "--store", url], in: project)
        #expect(wrongVersion.status == 6)
        #expect(wrongVersion.stderr.contains("  Recipe.favorite: extraColumn: expected no column, found boolean\n"), "\(wrongVersion.stderr)")
        #expect(try Self.strataTables(schema) == "0")

        let adopted = try CLI.run(["adopt", "--version", "4", "--store", url, "--format", "json"], in: project)
        #expect(adopted.status == 0, "\(adopted.stderr)")
        #expect(try CLI.json(adopted.stdout)["version"] as? Int == 4)
        #expect(try Self.sql(schema, #"SELECT string_agg("id" || ':' || "status", ',' ORDER BY "id") FROM "strata_hooks""#)
                    .hasSuffix("favorite-recent-recipes:notNeeded,purge-abandoned-drafts:notNeeded"))
        #expect(try CLI.run(["status", "--check", "--store", url], in: project).status == 0)
        #expect(try CLI.run(["migrate", "--store", url], in: project).stdout == "Migration: store \(url) is at v4, nothing to do\n")
    }
}
