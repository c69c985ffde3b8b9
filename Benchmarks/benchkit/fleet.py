"""The fleet case (issue 18, SPEC §14.1): many small stores migrated by one `strata migrate --stores`.

Each size is a number of stores (not rows): 250 and 1,000 stores of 1,000 recipes each, all at v1 of the
bundled example, migrated to v4 with its hooks (purge drafts after v3, mark recent favorites after v4).
The fleet is copied afresh from a pristine folder before each repetition (untimed). Strata with
`--jobs 2` is timed against itself with `--jobs 1` (the issue's target: at least 1.7× faster on 2 cores);
the max RSS at 250 and 1,000 stores shows whether memory stays flat in the number of stores.
"""
import os
import shutil
import sqlite3
import subprocess

from . import data
from .cases import Case, Command, NOW_ISO

ROWS_PER_STORE = 1000


def fill_v1(store, source):
    """Copies the source's first rows into a v1 store of the example (servings, no chef, no notes)."""
    db = sqlite3.connect(store, isolation_level=None)
    db.execute("ATTACH DATABASE ? AS src", (source,))
    db.execute("BEGIN")
    db.execute('INSERT INTO main."Recipe" ("_pk", "name", "lastUsed", "servings", "rating") '
               'SELECT _pk, CASE WHEN length(name) BETWEEN 1 AND 200 THEN name ELSE \'Recipe \' || _pk END, lastUsed, '
               'CASE WHEN portions = 0 THEN 1 ELSE portions END, rating FROM src.Recipe')
    db.execute('INSERT INTO main."Ingredient" ("_pk", "name", "quantity", "recipe") '
               'SELECT _pk, name, quantity, recipe FROM src.Ingredient')
    db.execute("COMMIT")
    db.execute("DETACH DATABASE src")
    db.close()


def _fleet_state(folder):
    """(stores at v4, favorites in all stores): the same for every command of the case."""
    at_v4 = favorites = 0
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".sqlite"):
            continue
        db = sqlite3.connect(os.path.join(folder, name))
        try:
            version = db.execute("SELECT value FROM strata_metadata WHERE key = 'strata.version'").fetchone()
            at_v4 += version is not None and str(version[0]) == "4"
            favorites += db.execute('SELECT count(*) FROM "Recipe" WHERE "favorite" = 1').fetchone()[0]
        except sqlite3.Error:
            pass
        finally:
            db.close()
    return (at_v4, favorites)


class FleetMigrate(Case):
    id = "fleet-migrate"
    title = "fleet: stores of 1,000 rows, v1→v4 with hooks (size = stores)"
    strata_command = ("strata migrate --stores 'fleet/*.sqlite' --jobs 2 --to 4 (the example's models and hooks; "
                      "each store 1,000 recipes)")
    anchors_text = "the same fleet with --jobs 1; itself at 250 stores (max RSS flat in the number of stores)"
    ratio_between_sizes = True

    def sizes(self, rows):
        return [250, 1000]

    def unavailable(self):
        return None if "--stores" in (self.env.help("migrate") or "") else "strata migrate has no --stores in this build"

    def pristine(self, stores):
        """A folder of `stores` v1 stores (cached for the run), made from one filled store."""
        folder = os.path.join(self.env.stores_dir, f"fleet-{stores}")
        if os.path.isdir(folder):
            return folder
        one = os.path.join(self.env.stores_dir, "fleet-one.sqlite")
        if not os.path.exists(one):
            source = data.ensure_source(self.env.data_dir, ROWS_PER_STORE, self.env.seed, lambda text: None)
            done = subprocess.run([self.env.strata, "migrate", "--create", "--to", "1", "--store", one, "--models",
                                   self.env.models, "--migrations", self.env.example_migrations, "--quiet"],
                                  capture_output=True, text=True)
            if done.returncode != 0:
                raise RuntimeError(f"strata migrate --create failed ({done.returncode}): {done.stderr.strip()}")
            fill_v1(one, source)
        os.makedirs(folder)
        for i in range(stores):
            shutil.copyfile(one, os.path.join(folder, f"tenant-{i:05d}.sqlite"))
        return folder

    def commands(self, n):
        pristine = self.pristine(n)
        work = os.path.join(self.env.work_dir, "fleet")

        def fresh():
            shutil.rmtree(work, ignore_errors=True)
            shutil.copytree(pristine, work)
            os.sync()

        def argv(jobs):
            return self.strata("migrate", "--stores", os.path.join(work, "*.sqlite"), "--jobs", str(jobs), "--to", "4",
                               "--models", self.env.models, "--migrations", self.env.example_migrations,
                               "--now", NOW_ISO, "--quiet")

        def state(_):
            return _fleet_state(work)
        return [Command("strata", "strata", argv(2), prepare=fresh, fingerprint=state),
                Command("strata --jobs 1", "anchor", argv(1), prepare=fresh, fingerprint=state)]


ALL = [FleetMigrate]
