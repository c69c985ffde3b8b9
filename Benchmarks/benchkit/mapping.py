"""Benchmark cases of issue 15's mapping files, against the same table rebuilds written by hand in the sqlite3 shell.

- mapping-type-change: `strata migrate --to 5` from a v4 store whose mapping file converts Recipe.rating from
  int16 to string (`string(rating)`), against the 12-step rebuild of Recipe with `CAST("rating" AS TEXT)` in its
  `INSERT … SELECT` (target: at most 1.30x).
- mapping-split: `strata migrate --to 5` whose mapping file splits Recipe into QuickDish (portions up to 4) and
  Recipe, two sub-entities of a new abstract Dish in one table: every dish gets a new ID through the translation
  table and every ingredient is re-linked to it. Anchor: the same translation table, copies and re-linking
  written by hand.

Both run with `--audit none` and `--skip-integrity-check` (the audit's and the preflight's costs are reported
by their own cases). Benchmarks/models-maptype and models-mapsplit hold the bench-only v5s, and
Benchmarks/migrations-maptype and migrations-mapsplit their mapping files.
"""
import os
import sqlite3
import subprocess

from .cases import Case, Command, query


class MappingCase(Case):
    models_key = ""

    def migrations(self):
        return os.path.join(self.env.root, "Benchmarks", "migrations-" + self.models_key)

    def unavailable(self):
        reason = self.env.migrator_unavailable()
        if reason:
            return reason
        lint = subprocess.run([self.env.strata, "lint", "--models", self.env.model_dir(self.models_key),
                               "--migrations", self.migrations()], capture_output=True, text=True)
        if lint.returncode != 0:
            first = next((l for l in lint.stderr.splitlines() if "error" in l), lint.stderr.strip()[:200])
            return f"mapping files not available in this build ({first})"
        return None

    def run_args(self):
        skip = ["--skip-integrity-check"] if "--skip-integrity-check" in (self.env.help("migrate") or "") else []
        return self.strata("migrate", "--store", "{work}", "--models", self.env.model_dir(self.models_key),
                           "--migrations", self.migrations(), "--to", "5", "--audit", "none", *skip)


def _schema(store, table):
    db = sqlite3.connect(store)
    try:
        table_sql, = db.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)).fetchone()
        indexes = [row[0] for row in db.execute(
            "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL", (table,))]
        columns = [row[1] for row in db.execute(f'PRAGMA table_info("{table}")')]
        return table_sql, indexes, columns
    finally:
        db.close()


def _transaction(statements):
    """A rebuild's statements as the shell runs them: foreign keys off, one transaction, checked before commit."""
    return "\n".join(["PRAGMA foreign_keys = OFF;", "BEGIN;", *statements, "PRAGMA foreign_key_check;", "COMMIT;",
                      "PRAGMA foreign_keys = ON;"])


def _ratings(work):
    return query(work, 'SELECT count(*), total("_pk"), sum(typeof("rating") = \'text\'), total(CAST("rating" AS INTEGER)) FROM "Recipe"')


class MappingTypeChange(MappingCase):
    id = "mapping-type-change"
    title = "mapped type change (int16 → string, one attribute)"
    strata_command = ("strata migrate --to 5 --audit none from a v4 store with a mapping file: "
                      "Recipe.rating: \"string(rating)\" (Benchmarks/models-maptype, migrations-maptype)")
    anchors_text = "the 12-step rebuild of Recipe written by hand in the sqlite3 shell, CAST(\"rating\" AS TEXT) in its INSERT … SELECT"
    models_key = "maptype"

    def rebuild_sql(self, store):
        table_sql, indexes, columns = _schema(store, "Recipe")
        new_table = table_sql.replace('"Recipe"', '"Recipe_new"', 1).replace('"rating" INTEGER', '"rating" TEXT')
        assert '"rating" TEXT' in new_table, f"unexpected Recipe schema: {table_sql}"
        names = ", ".join(f'"{c}"' for c in columns)
        values = ", ".join('CAST("rating" AS TEXT)' if c == "rating" else f'"{c}"' for c in columns)
        return _transaction([
            new_table + ";",
            f'INSERT INTO "Recipe_new" ({names}) SELECT {values} FROM "Recipe";',
            'DROP TABLE "Recipe";',
            'ALTER TABLE "Recipe_new" RENAME TO "Recipe";',
            *[sql + ";" for sql in indexes],
        ])

    def commands(self, n):
        store = self.env.store("v4", n)
        return [
            Command("strata", "strata", self.run_args(), store, fingerprint=_ratings),
            Command("sqlite3 shell", "anchor", self.env.shell("{work}", self.rebuild_sql(store)), store, fingerprint=_ratings),
        ]


def _dishes(work):
    return query(work, 'SELECT (SELECT count(*) FROM "Dish"), (SELECT total("_pk") FROM "Dish"), '
                       '(SELECT count(*) FROM "Dish" WHERE "_entity" = \'QuickDish\'), '
                       '(SELECT total("_pk" * coalesce("portions", 7)) FROM "Dish"), '
                       '(SELECT total("recipe") FROM "Ingredient"), (SELECT count(*) FROM "Ingredient" WHERE "recipe" IS NULL), '
                       '(SELECT count(*) FROM "Ingredient" AS i JOIN "Dish" AS d ON d."_pk" = i."recipe")')


class MappingSplit(MappingCase):
    id = "mapping-split"
    title = "mapped split of one entity into two, links re-linked"
    strata_command = ("strata migrate --to 5 --audit none from a v4 store with a mapping file splitting Recipe into "
                      "QuickDish and Recipe under a new Dish (new IDs, ingredients re-linked; Benchmarks/models-mapsplit)")
    anchors_text = ("the same translation table (old → new ID), copies of Dish and Ingredient with re-linked "
                    "ingredients, drops and renames, written by hand in the sqlite3 shell")
    models_key = "mapsplit"

    def split_sql(self, store):
        _, recipe_indexes, _ = _schema(store, "Recipe")
        ingredient_sql, ingredient_indexes, ingredient_columns = _schema(store, "Ingredient")
        attributes = '"name", "lastUsed", "portions", "rating", "notes", "favorite", "author"'
        new_ingredient = ingredient_sql.replace('"Ingredient"', '"Ingredient_new"', 1).replace('REFERENCES "Recipe"', 'REFERENCES "Dish"')
        names = ", ".join(f'"{c}"' for c in ingredient_columns)
        values = ", ".join('m."new"' if c == "recipe" else f'i."{c}"' for c in ingredient_columns)
        indexes = [sql.replace('"Recipe"', '"Dish"').replace("_Recipe_", "_Dish_") for sql in recipe_indexes]
        return _transaction([
            'CREATE TEMP TABLE "map" ("old" INTEGER PRIMARY KEY, "kind" TEXT NOT NULL, "new" INTEGER NOT NULL);',
            'INSERT INTO "map" SELECT "_pk", "kind", (SELECT max("_pk") FROM "Recipe") + row_number() OVER (ORDER BY "kind", "_pk") '
            'FROM (SELECT "_pk", CASE WHEN "portions" <= 4 THEN \'QuickDish\' ELSE \'Recipe\' END AS "kind" FROM "Recipe");',
            'CREATE TABLE "Dish" ("_pk" INTEGER PRIMARY KEY AUTOINCREMENT, "_entity" TEXT NOT NULL, "name" TEXT, "lastUsed" REAL, '
            '"portions" INTEGER, "rating" INTEGER, "notes" TEXT, "favorite" INTEGER, '
            '"author" INTEGER REFERENCES "Chef"("_pk") ON DELETE SET NULL);',
            f'INSERT INTO "Dish" ("_pk", "_entity", {attributes}) SELECT m."new", m."kind", {attributes} '
            'FROM "Recipe" AS r JOIN "map" AS m ON m."old" = r."_pk";',
            new_ingredient + ";",
            f'INSERT INTO "Ingredient_new" ({names}) SELECT {values} FROM "Ingredient" AS i LEFT JOIN "map" AS m ON m."old" = i."recipe";',
            'DROP TABLE "Ingredient";',
            'DROP TABLE "Recipe";',
            'ALTER TABLE "Ingredient_new" RENAME TO "Ingredient";',
            'CREATE INDEX "strata_idx_Dish__entity" ON "Dish" ("_entity");',
            *[sql + ";" for sql in indexes + ingredient_indexes],
        ])

    def commands(self, n):
        store = self.env.store("v4", n)
        return [
            Command("strata", "strata", self.run_args(), store, fingerprint=_dishes),
            Command("sqlite3 shell", "anchor", self.env.shell("{work}", self.split_sql(store)), store, fingerprint=_dishes),
        ]


ALL = [MappingTypeChange, MappingSplit]
