"""The benchmark cases (issue 8's table) and their anchors.

A case says which row counts it runs at, whether this `strata` build can run it (else it is
skipped with the reason), and for each row count the commands to time: Strata's first, then
its anchors. A command names the pristine store copied before each repetition, the exit codes
that count as success, and optionally a fingerprint of the resulting data (all commands of a
case that have one must agree, so a faster wrong answer cannot pass unnoticed).
"""
import datetime
import os
import sqlite3
import subprocess

from . import data

NOW_ISO = data.NOW_ISO
RECENT = "lastUsed >= $NOW - 30 days"          # ~7.8% of the rows
OLD = "lastUsed < $NOW - 327 days"             # ~9.9% of the rows (the 10% delete)


def _iso(seconds):
    return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


LITERAL = {RECENT: f'lastUsed >= "{_iso(data.NOW - 30 * data.DAY)}"',
           OLD: f'lastUsed < "{_iso(data.NOW - 327 * data.DAY)}"'}
RECENT_SECONDS = data.NOW - 30 * data.DAY
OLD_SECONDS = data.NOW - 327 * data.DAY


class Command:
    def __init__(self, label, role, argv, pristine=None, ok=(0,), fingerprint=None, verify=None, cleanup=(), prepare=None):
        self.label = label            # "strata", "sqlite3 shell", ...
        self.role = role              # "strata" or "anchor"
        self.argv = argv              # list; "{work}" is replaced by the work file
        self.pristine = pristine      # copied to the work file before each repetition (None: run in place)
        self.ok = ok
        self.fingerprint = fingerprint  # callable(work) -> comparable value
        self.verify = verify          # callable(work) -> problem text or None
        self.cleanup = cleanup        # files removed after each repetition
        self.prepare = prepare        # callable() run before each repetition, untimed (a fleet's fresh copy)


def query(path, sql):
    db = sqlite3.connect(path)
    try:
        return tuple(db.execute(sql).fetchone())
    finally:
        db.close()


class Case:
    id = ""
    title = ""
    strata_command = ""
    anchors_text = ""
    budget_seconds = None             # absolute budget (model load + plan)
    ratio_between_sizes = False       # add-column: compare the largest size with the smallest
    sum_anchors = None                # (label, [labels]): an extra anchor, the sum of medians

    def __init__(self, env):
        self.env = env

    def sizes(self, rows):
        return rows

    def unavailable(self):
        """None when this build can run the case, else the reason."""
        return None

    def commands(self, n):
        raise NotImplementedError

    def strata(self, *args):
        return [self.env.strata, *args, "--no-progress"]


class BatchCase(Case):
    kind = "update"

    def unavailable(self):
        text = self.env.help("batch", self.kind)
        if text is None:
            return "strata batch not available in this build"
        for option in ("--entity", "--where"):
            if option not in text:
                return f"strata batch {self.kind} has no {option} in this build"
        return None

    def batch(self, predicate, *rest, audit="none"):
        text = self.env.help("batch", self.kind)
        if text is None:
            return None               # not in this build: the runner measures the anchors alone
        argv = self.strata("batch", self.kind, "--store", "{work}", "--models", self.env.models,
                           "--entity", "Recipe")
        if "--now" in text:
            argv += ["--where", predicate, "--now", NOW_ISO]
        else:
            argv += ["--where", LITERAL[predicate]]
            self.env.note(self, "this build's strata batch has no --now: the predicate uses the equivalent literal date")
        if "--audit" in text:
            argv += ["--audit", audit]
        else:
            self.env.note(self, "this build's strata batch has no --audit option (so no audit to switch off)")
        return argv + list(rest)


def _favorites(work):
    return query(work, 'SELECT count(*), total("_pk") FROM "Recipe" WHERE "favorite" = 1')


class BatchUpdateCount(BatchCase):
    id = "batch-update-count"
    title = "batch update, status/count"
    strata_command = "strata batch update --entity Recipe --where 'lastUsed >= $NOW - 30 days' --set favorite=true --audit none --now 2025-06-01T00:00:00Z --result count"
    anchors_text = "the same UPDATE in the sqlite3 shell; object by object in Swift (GRDB: fetch, change, save each)"

    def commands(self, n):
        store = self.env.store("v4", n)
        update = f'UPDATE "Recipe" SET "favorite" = 1 WHERE "lastUsed" >= {RECENT_SECONDS!r}; SELECT changes();'
        return [
            Command("strata", "strata", self.batch(RECENT, "--set", "favorite=true", "--result", "count"),
                    store, fingerprint=_favorites),
            Command("sqlite3 shell", "anchor", self.env.shell("{work}", update), store, fingerprint=_favorites),
            Command("object by object", "anchor", [self.env.objects, "{work}", repr(RECENT_SECONDS)], store,
                    fingerprint=_favorites),
        ]


class BatchUpdateAudited(BatchCase):
    id = "batch-update-audited"
    title = "batch update, count, with its audit"
    strata_command = "strata batch update … --result count --audit touched (the default: the touched rows are audited before commit)"
    anchors_text = "the same with --audit none (the ratio is the audit's cost); the same UPDATE in the sqlite3 shell"

    def unavailable(self):
        reason = super().unavailable()
        if reason is None and "--audit" not in self.env.help("batch", self.kind):
            reason = "strata batch update has no --audit in this build"
        return reason

    def commands(self, n):
        store = self.env.store("v4", n)
        update = f'UPDATE "Recipe" SET "favorite" = 1 WHERE "lastUsed" >= {RECENT_SECONDS!r}; SELECT changes();'
        return [
            Command("strata", "strata", self.batch(RECENT, "--set", "favorite=true", "--result", "count", audit="touched"),
                    store, fingerprint=_favorites),
            Command("strata --audit none", "anchor",
                    self.batch(RECENT, "--set", "favorite=true", "--result", "count"), store, fingerprint=_favorites),
            Command("sqlite3 shell", "anchor", self.env.shell("{work}", update), store, fingerprint=_favorites),
        ]


class BatchUpdateIDs(BatchCase):
    id = "batch-update-ids"
    title = "batch update, object IDs"
    strata_command = "strata batch update … --result ids (stdout to /dev/null)"
    anchors_text = "shell UPDATE … RETURNING _pk (stdout to /dev/null)"

    def commands(self, n):
        store = self.env.store("v4", n)
        update = f'UPDATE "Recipe" SET "favorite" = 1 WHERE "lastUsed" >= {RECENT_SECONDS!r} RETURNING "_pk";'
        return [
            Command("strata", "strata", self.batch(RECENT, "--set", "favorite=true", "--result", "ids"),
                    store, fingerprint=_favorites),
            Command("sqlite3 shell", "anchor", self.env.shell("{work}", update), store, fingerprint=_favorites),
        ]


def _remaining(work):
    return query(work, 'SELECT (SELECT count(*) FROM "Recipe"), (SELECT total("_pk") FROM "Recipe"), '
                       '(SELECT count(*) FROM "Ingredient")')


class BatchDelete(BatchCase):
    id = "batch-delete-cascade"
    title = "batch delete 10%, cascade"
    kind = "delete"
    strata_command = "strata batch delete --entity Recipe --where 'lastUsed < $NOW - 327 days' --audit none --now 2025-06-01T00:00:00Z"
    anchors_text = "shell PRAGMA foreign_keys=ON; DELETE … (Ingredient ON DELETE CASCADE)"

    def commands(self, n):
        store = self.env.store("v4", n)
        delete = f'PRAGMA foreign_keys = ON; DELETE FROM "Recipe" WHERE "lastUsed" < {OLD_SECONDS!r};'
        return [
            Command("strata", "strata", self.batch(OLD), store, fingerprint=_remaining),
            Command("sqlite3 shell", "anchor", self.env.shell("{work}", delete), store, fingerprint=_remaining),
        ]


class MigratorCase(Case):
    def unavailable(self):
        return self.env.migrator_unavailable()

    def migrate(self, models, target, *extra):
        argv = self.strata("migrate", "--store", "{work}", "--models", models,
                           "--migrations", self.env.empty_dir, "--to", str(target), *extra)
        if "--audit" in (self.env.help("migrate") or ""):
            argv += ["--audit", "none"]
        return argv


def _not_favorite(work):
    return query(work, 'SELECT count(*) FROM "Recipe" WHERE "favorite" = 0')


class AddColumn(MigratorCase):
    id = "add-column"
    title = "add-column migration step"
    strata_command = ("strata migrate --to 4 --skip-integrity-check from a v3 store (adds favorite; "
                      "Benchmarks/models-addcolumn)")
    anchors_text = ("itself at 1,000 rows (must be O(1)); the same DDL in the sqlite3 shell; "
                    "PRAGMA quick_check alone; strata migrate with its default quick_check preflight")
    ratio_between_sizes = True
    models_key = "addcolumn"
    ddl = 'ALTER TABLE "Recipe" ADD COLUMN "favorite" INTEGER DEFAULT 0;'

    def sizes(self, rows):
        return sorted({1000, max(rows)})

    def commands(self, n):
        store = self.env.store("v3", n)
        skip = ["--skip-integrity-check"] if "--skip-integrity-check" in (self.env.help("migrate") or "") else []
        commands = [Command("strata", "strata", self.migrate(self.env.model_dir(self.models_key), 4, *skip),
                            store, fingerprint=_not_favorite),
                    Command("sqlite3 shell (DDL)", "anchor", self.env.shell("{work}", f"BEGIN; {self.ddl} COMMIT;"), store,
                            fingerprint=_not_favorite),
                    Command("PRAGMA quick_check", "anchor", self.env.shell("{work}", "PRAGMA quick_check(20);"), store)]
        if skip:
            commands.append(Command("strata with quick_check", "anchor", self.migrate(self.env.model_dir(self.models_key), 4),
                                    store, fingerprint=_not_favorite))
        return commands


class ExampleStep(AddColumn):
    id = "example-v3-v4"
    title = "example v3→v4 step (column + index)"
    strata_command = ("strata migrate --to 4 --skip-integrity-check from a v3 store (the example: adds favorite and an "
                      "index on favorite, lastUsed)")
    anchors_text = "itself at 1,000 rows (the index makes it O(n)); the same DDL in the sqlite3 shell; PRAGMA quick_check alone"
    models_key = "example"
    ddl = (AddColumn.ddl + ' CREATE INDEX "strata_idx_Recipe_favorite_lastUsed" ON "Recipe" ("favorite", "lastUsed");')


def _rebuilt(work):
    return query(work, 'SELECT (SELECT count(*) FROM "Recipe"), (SELECT total("_pk") FROM "Recipe"), '
                       '(SELECT count(*) FROM "Ingredient"), '
                       '(SELECT sql LIKE \'%RESTRICT%\' FROM sqlite_master WHERE name = \'Recipe\')')


class Rebuild(MigratorCase):
    id = "table-rebuild"
    title = "table-rebuild migration step"
    strata_command = "strata migrate --to 5 from a v4 store (Benchmarks/models-rebuild: Recipe.author becomes ON DELETE RESTRICT)"
    anchors_text = "the 12-step rebuild written by hand in the sqlite3 shell"

    def commands(self, n):
        store = self.env.store("v4", n)
        return [
            Command("strata", "strata", self.migrate(self.env.model_dir("rebuild"), 5), store, fingerprint=_rebuilt),
            Command("sqlite3 shell", "anchor", self.env.shell("{work}", twelve_step_sql(store)), store,
                    fingerprint=_rebuilt),
        ]


def twelve_step_sql(store):
    """SQLite's documented 12-step table rebuild of Recipe, from the store's own schema text."""
    db = sqlite3.connect(store)
    table_sql, = db.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'Recipe'").fetchone()
    indexes = [row[0] for row in db.execute(
        "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'Recipe' AND sql IS NOT NULL")]
    columns = ", ".join(f'"{row[1]}"' for row in db.execute('PRAGMA table_info("Recipe")'))
    db.close()
    new_table = table_sql.replace('"Recipe"', '"Recipe_new"', 1)
    new_table = new_table.replace('REFERENCES "Chef"("_pk") ON DELETE SET NULL', 'REFERENCES "Chef"("_pk") ON DELETE RESTRICT')
    assert "RESTRICT" in new_table, f"unexpected Recipe schema: {table_sql}"
    return "\n".join([
        "PRAGMA foreign_keys = OFF;",
        "BEGIN;",
        new_table + ";",
        f'INSERT INTO "Recipe_new" ({columns}) SELECT {columns} FROM "Recipe";',
        'DROP TABLE "Recipe";',
        'ALTER TABLE "Recipe_new" RENAME TO "Recipe";',
        *[sql + ";" for sql in indexes],
        "PRAGMA foreign_key_check;",
        "COMMIT;",
        "PRAGMA foreign_keys = ON;",
    ])


AUDIT_RULES = [  # the 8 rules of Benchmarks/models-audit/1.yaml as violation conditions
    ("name", '"name" IS NULL'),
    ("name", 'length("name") < 1'),
    ("name", 'length("name") > 200'),
    ("portions", '"portions" < 1'),
    ("portions", '"portions" > 100'),
    ("rating", '"rating" < 0'),
    ("rating", '"rating" > 5'),
    ("rating", 'NOT (coalesce("favorite" = 0, 0) OR coalesce("rating" >= 3, 0))'),
]


def audit_scan_sql():
    """One scan of Recipe returning each violating row with a flag per rule (counts and samples follow)."""
    flags = ", ".join(f"({condition}) AS rule{i + 1}" for i, (_, condition) in enumerate(AUDIT_RULES))
    where = " OR ".join(f"({condition})" for _, condition in AUDIT_RULES)
    return f'SELECT "_pk", "name", "portions", "rating", "favorite", {flags} FROM "Recipe" WHERE {where};'


class Audit(Case):
    id = "audit-8-rules"
    title = "full audit, 8 rules"
    strata_command = "strata audit (store of Benchmarks/models-audit: 8 rules on Recipe)"
    anchors_text = "the same 8 rules as one hand-written scan in the sqlite3 shell (violating rows, a flag per rule)"

    def unavailable(self):
        return None if self.env.help("audit") is not None else "strata audit not available in this build"

    def models(self):
        return os.path.join(self.env.root, "Benchmarks", "models-audit")

    def commands(self, n):
        store = self.env.store("audit", n)
        return [
            Command("strata", "strata", self.strata("audit", "--store", store, "--models", self.models()), None, ok=(0, 3)),
            Command("sqlite3 shell", "anchor", self.env.shell(store, audit_scan_sql()), None),
        ]

    def cross_check(self, n):
        """Strata's rules and counts (one unmeasured JSON run) against the scan SQL's counts."""
        import json
        import subprocess
        store = self.env.store("audit", n)
        done = subprocess.run(self.strata("audit", "--store", store, "--models", self.models(), "--format", "json"),
                              capture_output=True, text=True)
        try:
            audit = json.loads(done.stdout)["audit"]
        except (ValueError, KeyError):
            return [f"strata audit --format json gave no audit document (exit {done.returncode})"]
        expected = sum(query(store, f'SELECT count(*) FROM "Recipe" WHERE {c}')[0] for _, c in AUDIT_RULES)
        problems = []
        if audit["rulesChecked"] != len(AUDIT_RULES):
            rules = ", ".join(f"{r['entity']}.{r['property']} {r['rule']}" for r in audit["rules"])
            problems.append(f"strata checked {audit['rulesChecked']} rules, the scan SQL {len(AUDIT_RULES)} ({rules})")
        if audit["totalViolations"] != expected:
            problems.append(f"strata found {audit['totalViolations']} violations at {n:,} rows, the scan SQL {expected}")
        return problems


class DryRun(MigratorCase):
    id = "dry-run"
    title = "dry run (example v3→v4)"
    strata_command = "strata migrate --dry-run --to 4 from a v3 store (the example's models and hooks)"
    anchors_text = "snapshot copy alone (sqlite3 .backup); the real run; their sum"
    sum_anchors = ("snapshot + real run", ["snapshot copy", "real run"])

    def unavailable(self):
        reason = self.env.migrator_unavailable()
        if reason:
            return reason
        if "--dry-run" not in (self.env.help("migrate") or ""):
            return "strata migrate has no --dry-run in this build"
        return None

    def run_args(self, *extra):
        argv = self.strata("migrate", "--store", "{work}", "--models", self.env.models,
                           "--migrations", self.env.example_migrations, "--to", "4", *extra)
        if "--now" in (self.env.help("migrate") or ""):
            argv += ["--now", NOW_ISO]
        return argv

    def commands(self, n):
        store = self.env.store("v3", n)
        snapshot = os.path.join(self.env.work_dir, "snapshot.sqlite")
        unchanged = _file_digest(store)

        def untouched(work):
            return None if _file_digest(work) == unchanged else "the dry run changed the store file"
        return [
            Command("strata", "strata", self.run_args("--dry-run"), store, verify=untouched),
            Command("snapshot copy", "anchor", self.env.shell("{work}", f".backup '{snapshot}'"), store,
                    cleanup=(snapshot,)),
            Command("real run", "anchor", self.run_args(), store),
        ]


def _file_digest(path):
    import hashlib
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


class ModelPlan(Case):
    id = "model-plan"
    title = "model load + plan, 200 entities × 30 attributes"
    strata_command = "strata diff 1 2 --format json (generated models, 200 entities × 30 attributes)"
    anchors_text = "absolute: must stay under 100 ms; process start (strata --version) shown beside it"
    budget_seconds = 0.100

    def sizes(self, rows):
        return [0]

    def unavailable(self):
        return None if self.env.help("diff") is not None else "strata diff not available in this build"

    def commands(self, n):
        directory = self.env.big_model_dir()
        return [
            Command("strata", "strata", self.strata("diff", "1", "2", "--models", directory, "--format", "json")),
            Command("process start", "anchor", [self.env.strata, "--version"]),
        ]


class LintHistory(Case):
    id = "lint-history"
    title = "lint a history: 117 versions growing to 80 entities"
    strata_command = "strata lint (generated history: 117 versions, 60 → 80 entities, renames, indexes, hierarchies)"
    anchors_text = "absolute, no target: what a long Core Data-shaped history costs to load, check and plan"

    def sizes(self, rows):
        return [0]

    def commands(self, n):
        directory = self.env.long_history_dir()
        return [
            Command("strata", "strata", self.strata("lint", "--models", directory, "--migrations", directory + "-hooks")),
            Command("process start", "anchor", [self.env.strata, "--version"]),
        ]


class CoreDataImport(Case):
    id = "coredata-import"
    title = "import coredata, 117 versions × 80 entities"
    strata_command = ("strata import coredata Big.xcdatamodeld --force (generated bundle, 117 versions × 80 entities; "
                      "writes 117 model files, then lints the history)")
    anchors_text = "absolute: must stay under 3 s and 200 MB max RSS (issue 16); process start (strata --version) shown beside it"
    budget_seconds = 3.0
    budget_rss_kb = 200 * 1024

    def sizes(self, rows):
        return [0]

    def unavailable(self):
        return None if self.env.help("import", "coredata") is not None else "strata import coredata not available in this build"

    def commands(self, n):
        bundle = self.env.coredata_bundle()
        models = os.path.join(self.env.work_dir, "coredata-models")
        os.makedirs(models, exist_ok=True)
        return [
            Command("strata", "strata", self.strata("import", "coredata", bundle, "--models", models,
                                                    "--migrations", self.env.empty_dir, "--force", "--quiet"),
                    verify=lambda work: None if len(os.listdir(models)) == 117 else f"{len(os.listdir(models))} model files, not 117"),
            Command("process start", "anchor", [self.env.strata, "--version"]),
        ]


def _ratings(work):
    return query(work, 'SELECT count(*), total("rating"), total("_pk" * "rating") FROM "Recipe"')


class SQLStep(MigratorCase):
    id = "sql-step"
    title = "sql: hook step (UPDATE of every recipe)"
    strata_command = ("strata migrate --to 4 --skip-integrity-check --audit none from a v3 store (Benchmarks/models-addcolumn) "
                      "with one hook after 4: sql: UPDATE {{Recipe}} SET {{Recipe.rating}} = ({{Recipe.rating}} + 1) % 6")
    anchors_text = ("the same ALTER TABLE and UPDATE in one transaction in the sqlite3 shell; "
                    "strata migrate --to 4 without the hook (the step's own cost)")
    hook = ("id: rotate-ratings\nafter: 4\nsteps:\n  - sql: |\n"
            "      UPDATE {{Recipe}} SET {{Recipe.rating}} = ({{Recipe.rating}} + 1) % 6;\n")
    sql = ('BEGIN; ALTER TABLE "Recipe" ADD COLUMN "favorite" INTEGER DEFAULT 0; '
           'UPDATE "Recipe" SET "rating" = ("rating" + 1) % 6; COMMIT;')

    def migrations(self):
        directory = os.path.join(os.path.dirname(self.env.work_dir), "migrations-sql-step")
        os.makedirs(directory, exist_ok=True)
        with open(os.path.join(directory, "rotate-ratings.yaml"), "w") as f:
            f.write(self.hook)
        return directory

    def unavailable(self):
        reason = self.env.migrator_unavailable()
        if reason:
            return reason
        lint = subprocess.run([self.env.strata, "lint", "--models", self.env.model_dir("addcolumn"),
                               "--migrations", self.migrations()], capture_output=True, text=True)
        if lint.returncode != 0:
            first = next((l for l in lint.stderr.splitlines() if l.strip()), "")
            return f"sql: hook steps not available in this build ({first})"
        return None

    def run_args(self, migrations):
        skip = ["--skip-integrity-check"] if "--skip-integrity-check" in (self.env.help("migrate") or "") else []
        return self.strata("migrate", "--store", "{work}", "--models", self.env.model_dir("addcolumn"),
                           "--migrations", migrations, "--to", "4", "--audit", "none", *skip)

    def commands(self, n):
        store = self.env.store("v3", n)
        return [
            Command("strata", "strata", self.run_args(self.migrations()), store, fingerprint=_ratings),
            Command("sqlite3 shell", "anchor", self.env.shell("{work}", self.sql), store, fingerprint=_ratings),
            Command("strata without the hook", "anchor", self.run_args(self.env.empty_dir), store),
        ]


ALL = [BatchUpdateCount, BatchUpdateAudited, BatchUpdateIDs, BatchDelete, AddColumn, ExampleStep, Rebuild, Audit, DryRun, ModelPlan,
       LintHistory, CoreDataImport, SQLStep]
