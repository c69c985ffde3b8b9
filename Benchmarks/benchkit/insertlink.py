"""Benchmark cases of issue 14's insert and link steps, against the same SQL typed into the sqlite3 shell.

- batch-insert-from: `strata migrate --to 5` whose hook inserts one Note per Recipe (`batchInsert … from:`),
  against the step's DDL plus the hand-written `INSERT … SELECT` in the shell.
- set-relationship: `strata migrate --to 6` whose hook links every Recipe to the one of 50,000 Chefs whose
  indexed `code` equals its `chefCode` (`setRelationship`), against the step's DDL plus the hand-written
  `UPDATE … SET "author" = (SELECT "_pk" …)` in the shell.

Both run with `--audit none` (the audit's cost is reported by the audited cases); Benchmarks/models-insert
holds the bench-only v5 and v6. A version step runs with foreign keys off, as the shell has them by default
(the first anchor, the target's): the step checks only references that can dangle, and neither `$source` nor
a link's keys can (Docs/hooks.md, "Foreign keys inside a step"). The second anchor is the same SQL with
`PRAGMA foreign_keys = ON`, which checks every written reference row by row.
"""
import os
import sqlite3
import subprocess

from .cases import Case, Command, query

DESTINATIONS = 50_000


class InsertLinkCase(Case):
    models_key = "insert"

    def unavailable(self):
        return self.env.migrator_unavailable()

    def migrations(self, name):
        return os.path.join(self.env.root, "Benchmarks", name)

    def migrate(self, target, migrations):
        return self.strata("migrate", "--store", "{work}", "--models", self.env.model_dir(self.models_key),
                           "--migrations", migrations, "--to", str(target), "--audit", "none", "--skip-integrity-check")

    def stepped(self, source, target, name):
        """A copy of `source` migrated to `target` with no hooks (the bench's pristine stores)."""
        path = os.path.join(self.env.stores_dir, name)
        if not os.path.exists(path):
            subprocess.run(["cp", source, path], check=True)
            done = subprocess.run([self.env.strata, "migrate", "--store", path, "--models", self.env.model_dir(self.models_key),
                                   "--migrations", self.env.empty_dir, "--to", str(target), "--quiet", "--no-progress"],
                                  capture_output=True, text=True)
            if done.returncode != 0:
                raise RuntimeError(f"strata migrate --to {target} failed ({done.returncode}): {done.stderr.strip()}")
        return path

    def step_ddl(self, before, after):
        """The DDL the step before → after ran: new tables and indexes (from sqlite_master), added columns."""
        def schema(path):
            db = sqlite3.connect(path)
            try:
                objects = {name: sql for name, sql in db.execute(
                    "SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'strata_%' OR name LIKE 'strata_idx%' OR name LIKE 'strata_fk%'")}
                columns = {}
                for (table,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"):
                    columns[table] = [(row[1], row[2]) for row in db.execute(f'PRAGMA table_info("{table}")')]
                return objects, columns
            finally:
                db.close()
        old_objects, old_columns = schema(before)
        new_objects, new_columns = schema(after)
        ddl = []
        for table, columns in new_columns.items():
            if table in old_columns:
                for name, kind in columns[len(old_columns[table]):]:
                    ddl.append(f'ALTER TABLE "{table}" ADD COLUMN "{name}" {kind};')
        tables = [sql for name, sql in new_objects.items() if name not in old_objects and sql.startswith("CREATE TABLE")]
        indexes = [sql for name, sql in new_objects.items() if name not in old_objects and sql.startswith("CREATE INDEX")]
        return " ".join(ddl + [t + ";" for t in tables] + [i + ";" for i in indexes])


def _notes(work):
    return query(work, 'SELECT count(*), total("recipe"), sum(length("text")) FROM "Note"')


class BatchInsertFrom(InsertLinkCase):
    id = "batch-insert-from"
    title = "batchInsert from: (one row per source row)"
    strata_command = ("strata migrate --to 5 --audit none from a v4 store, hook `batchInsert: { entity: Note, from: { entity: Recipe }, "
                      "values: { text: \"$source.name\", recipe: \"$source\" } }` (Benchmarks/models-insert)")
    anchors_text = "the step's DDL and the hand-written INSERT … SELECT in the sqlite3 shell"

    def commands(self, n):
        store = self.env.store("v4", n)
        probe = self.stepped(self.env.store("v4", 1000), 5, "insert-probe-v5.sqlite")
        ddl = self.step_ddl(self.env.store("v4", 1000), probe)
        sql = (f'BEGIN; {ddl} INSERT INTO "Note" ("text", "recipe") SELECT "name", "_pk" FROM "Recipe" ORDER BY "_pk"; '
               'UPDATE "strata_metadata" SET "value" = \'5\' WHERE "key" = \'strata.version\'; COMMIT;')
        return [
            Command("strata", "strata", self.migrate(5, self.migrations("migrations-insert-from")), store, fingerprint=_notes),
            Command("sqlite3 shell", "anchor", self.env.shell("{work}", sql), store, fingerprint=_notes),
            Command("sqlite3 shell, foreign keys on", "anchor", self.env.shell("{work}", "PRAGMA foreign_keys = ON; " + sql), store,
                    fingerprint=_notes),
        ]


def _authors(work):
    return query(work, 'SELECT count("author"), total("author") FROM "Recipe"')


class SetRelationship(InsertLinkCase):
    id = "set-relationship"
    title = f"setRelationship over an indexed key ({DESTINATIONS:,} destinations)"
    strata_command = ("strata migrate --to 6 --audit none from a v5 store, hook `setRelationship: { entity: Recipe, relationship: author, "
                      "match: { chefCode: code } }` (Benchmarks/models-insert; Chef.code indexed)")
    anchors_text = "the step's DDL and the hand-written UPDATE … SET \"author\" = (SELECT \"_pk\" …) in the sqlite3 shell"

    def linked_store(self, n):
        """A v5 store with 50,000 more Chefs (code 1…50,000) and every Recipe's chefCode = 1 + _pk % 50,000."""
        path = os.path.join(self.env.stores_dir, f"link-v5-{n}.sqlite")
        if not os.path.exists(path):
            v5 = self.stepped(self.env.store("v4", n), 5, f"plain-v5-{n}.sqlite")
            subprocess.run(["cp", v5, path], check=True)
            db = sqlite3.connect(path, isolation_level=None)
            db.execute("BEGIN")
            db.execute(f'WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < {DESTINATIONS}) '
                       'INSERT INTO "Chef" ("name", "code") SELECT \'Chef \' || i, i FROM k')
            db.execute(f'UPDATE "Recipe" SET "chefCode" = 1 + "_pk" % {DESTINATIONS}, "author" = NULL')
            db.execute("COMMIT")
            db.close()
        return path

    def commands(self, n):
        store = self.linked_store(n)
        probe = self.stepped(self.linked_store(1000), 6, "link-probe-v6.sqlite")
        ddl = self.step_ddl(self.linked_store(1000), probe)
        sql = (f'BEGIN; {ddl} UPDATE "Recipe" SET "author" = (SELECT "_pk" FROM "Chef" WHERE "code" = "Recipe"."chefCode"); '
               'UPDATE "strata_metadata" SET "value" = \'6\' WHERE "key" = \'strata.version\'; COMMIT;')
        return [
            Command("strata", "strata", self.migrate(6, self.migrations("migrations-set-relationship")), store, fingerprint=_authors),
            Command("sqlite3 shell", "anchor", self.env.shell("{work}", sql), store, fingerprint=_authors),
            Command("sqlite3 shell, foreign keys on", "anchor", self.env.shell("{work}", "PRAGMA foreign_keys = ON; " + sql), store,
                    fingerprint=_authors),
        ]


ALL = [BatchInsertFrom, SetRelationship]
