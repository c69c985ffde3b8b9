"""The PostgreSQL cases (issue 18, SPEC §14.2): Strata on a PostgreSQL store against `psql` on the same server.

The run starts one throwaway cluster (initdb into a temporary directory, as the `postgres` user when the
bench runs as root since initdb refuses root; a free loopback port; server defaults; stopped and removed
when the run ends). Without PostgreSQL the cases are skipped with the reason.

The example's store is created by `strata migrate --create` in a database of its own (schema `app`),
filled from the same seeded source as the SQLite cases, vacuumed and checkpointed: that database is the
pristine store. Each repetition gets a fresh copy with `CREATE DATABASE … TEMPLATE pristine` (untimed),
the PostgreSQL counterpart of copying the SQLite file.
"""
import atexit
import os
import shutil
import socket
import sqlite3
import subprocess
import tempfile

from . import data
from .cases import Case, Command, NOW_ISO, RECENT, RECENT_SECONDS

SCHEMA = "app"
WORK_DB = "bench_work"


def _tool(name):
    found = shutil.which(name)
    if found:
        return found
    versions = sorted((int(v) for v in os.listdir("/usr/lib/postgresql") if v.isdigit()), reverse=True) \
        if os.path.isdir("/usr/lib/postgresql") else []
    return next((p for p in (f"/usr/lib/postgresql/{v}/bin/{name}" for v in versions) if os.access(p, os.X_OK)), None)


class Server:
    """One throwaway cluster for the whole run."""

    def __init__(self):
        self.failure = None
        self.port = None
        self.directory = None
        initdb, self.pg_ctl, self.psql_path = _tool("initdb"), _tool("pg_ctl"), _tool("psql")
        if not (initdb and self.pg_ctl and self.psql_path):
            self.failure = "PostgreSQL is not installed (initdb, pg_ctl or psql not found)"
            return
        self.as_postgres = os.geteuid() == 0
        self.directory = tempfile.mkdtemp(prefix="strata-bench-pg-")
        os.chmod(self.directory, 0o755)
        if self.as_postgres:
            shutil.chown(self.directory, "postgres")
        data_dir = os.path.join(self.directory, "data")
        done = self._run([initdb, "-D", data_dir, "-U", "strata", "-A", "trust", "-E", "UTF8", "--locale=C"])
        if done.returncode != 0:
            self.failure = f"initdb failed: {done.stdout.strip()[-300:]}"
            return
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        options = f"-p {self.port} -k {self.directory} -c listen_addresses=127.0.0.1"
        done = self._run([self.pg_ctl, "-D", data_dir, "-o", options, "-l", os.path.join(self.directory, "server.log"),
                          "-w", "-t", "60", "start"])
        if done.returncode != 0:
            self.failure = f"pg_ctl start failed: {done.stdout.strip()[-300:]}"
            return
        atexit.register(self.stop)

    def _run(self, argv):
        prefix = ["/usr/sbin/runuser", "-u", "postgres", "--"] if self.as_postgres else []
        # pg_ctl leaves the server holding inherited descriptors: output through a file, not a pipe.
        with tempfile.TemporaryFile() as out:
            code = subprocess.run(prefix + argv, cwd="/tmp", stdin=subprocess.DEVNULL, stdout=out, stderr=out).returncode
            out.seek(0)
            return subprocess.CompletedProcess(argv, code, out.read().decode("utf-8", "replace"))

    def stop(self):
        if self.directory and os.path.isdir(self.directory):
            self._run([self.pg_ctl, "-D", os.path.join(self.directory, "data"), "-m", "fast", "-w", "stop"])
            shutil.rmtree(self.directory, ignore_errors=True)

    def url(self, database):
        return f"postgres://strata@127.0.0.1:{self.port}/{database}?schema={SCHEMA}"

    def psql_argv(self, database, sql):
        return [self.psql_path, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", str(self.port),
                "-U", "strata", "-d", database, "-c", sql]

    def psql(self, database, sql):
        done = subprocess.run(self.psql_argv(database, sql), capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"psql failed: {done.stderr.strip()}")
        return done.stdout.strip()

    def fresh(self, pristine):
        """The work database as a fresh copy of `pristine`, checkpointed (untimed)."""
        self.psql("postgres", f"DROP DATABASE IF EXISTS {WORK_DB}")
        self.psql("postgres", f"CREATE DATABASE {WORK_DB} TEMPLATE {pristine}")
        self.psql("postgres", "CHECKPOINT")


_server = None


def server():
    global _server
    if _server is None:
        _server = Server()
    return _server


def _copy_text(value):
    """One value in COPY's text format: \\N for NULL, backslash, tab and line breaks escaped."""
    if value is None:
        return "\\N"
    return str(value).replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


def _copy_rows(srv, database, source, with_favorite):
    """The source's chefs, recipes (cleaned as data.fill_store's `clean`) and ingredients, into the store."""
    rows = sqlite3.connect(source)
    staging = tempfile.mkdtemp(prefix="strata-bench-pg-csv-")
    os.chmod(staging, 0o755)
    try:
        queries = {
            "Chef": ('"_pk", "name", "email"', "SELECT _pk, name, email FROM Chef"),
            "Recipe": ('"_pk", "name", "lastUsed", "portions", "rating", "notes", "author"'
                       + (', "favorite"' if with_favorite else ""),
                       "SELECT _pk, CASE WHEN length(name) BETWEEN 1 AND 200 THEN name ELSE 'Recipe ' || _pk END, "
                       "strftime('%Y-%m-%dT%H:%M:%fZ', lastUsed, 'unixepoch'), "
                       "CASE WHEN portions = 0 THEN 1 ELSE portions END, rating, notes, author"
                       + (", CASE WHEN favorite = 1 THEN 't' ELSE 'f' END" if with_favorite else "") + " FROM Recipe"),
            "Ingredient": ('"_pk", "name", "quantity", "recipe"', "SELECT _pk, name, quantity, recipe FROM Ingredient"),
        }
        statements = ["BEGIN"]
        for table, (columns, select) in queries.items():
            path = os.path.join(staging, f"{table}.tsv")
            with open(path, "w") as f:
                for row in rows.execute(select):
                    f.write("\t".join(_copy_text(v) for v in row) + "\n")
            os.chmod(path, 0o644)
            statements += [f'CREATE TEMP TABLE "stage_{table}" AS SELECT {columns} FROM {SCHEMA}."{table}" WITH NO DATA',
                           f"COPY \"stage_{table}\" FROM '{path}'",
                           f'INSERT INTO {SCHEMA}."{table}" ({columns}) OVERRIDING SYSTEM VALUE '
                           f'SELECT {columns} FROM "stage_{table}"',
                           f"SELECT setval(pg_get_serial_sequence('{SCHEMA}.\"{table}\"', '_pk'), "
                           f'(SELECT coalesce(max("_pk"), 1) FROM {SCHEMA}."{table}"))']
        statements.append("COMMIT")
        # COPY FROM a file runs as the server: the superuser `strata` may read it.
        srv.psql(database, "; ".join(statements))
        srv.psql(database, "VACUUM ANALYZE")
    finally:
        rows.close()
        shutil.rmtree(staging, ignore_errors=True)


_pristine = {}


def pristine(env, version, rows):
    """A pristine database holding the example's store at `version` with `rows` recipes (made once per run)."""
    key = (version, rows)
    if key not in _pristine:
        srv = server()
        name = f"bench_v{version}_{rows}"
        srv.psql("postgres", f"DROP DATABASE IF EXISTS {name}")
        srv.psql("postgres", f"CREATE DATABASE {name}")
        done = subprocess.run([env.strata, "migrate", "--create", "--to", str(version), "--store", srv.url(name),
                               "--models", env.models, "--migrations", env.example_migrations, "--quiet"],
                              capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"strata migrate --create on PostgreSQL failed ({done.returncode}): {done.stderr.strip()}")
        source = data.ensure_source(env.data_dir, rows, env.seed, lambda text: None)
        _copy_rows(srv, name, source, with_favorite=version >= 4)
        _pristine[key] = name
    return _pristine[key]


class PostgresCase(Case):
    def unavailable(self):
        srv = server()
        if srv.failure:
            return f"no PostgreSQL server: {srv.failure}"
        probe = self.probe()
        if probe is None:
            return None
        # A build that cannot do this on PostgreSQL yet says so and stops before writing (exit 2).
        srv.fresh(pristine(self.env, self.version, 1000))
        done = subprocess.run([a.replace("{url}", srv.url(WORK_DB)) for a in probe], capture_output=True, text=True)
        if done.returncode != 0:
            first = next((line for line in done.stderr.splitlines() if line.strip()), "(no message)")
            return f"this build cannot run it on PostgreSQL (exit {done.returncode}: {first.removeprefix('error: ')})"
        return None

    def probe(self):
        return None

    def fingerprint(self, sql):
        srv = server()
        return lambda _work: srv.psql(WORK_DB, sql)

    def command(self, label, role, argv, version, rows, **kwargs):
        srv = server()
        source = pristine(self.env, version, rows)
        argv = [a.replace("{url}", srv.url(WORK_DB)) for a in argv]
        return Command(label, role, argv, prepare=lambda: srv.fresh(source), **kwargs)


FAVORITES = f'SELECT count(*), sum("_pk") FROM {SCHEMA}."Recipe" WHERE "favorite"'


class PostgresBatchUpdate(PostgresCase):
    id = "pg-batch-update"
    title = "PostgreSQL: batch update, status/count"
    version = 4
    strata_command = ("strata batch update --store postgres://… --entity Recipe --where 'lastUsed >= $NOW - 30 days' "
                      "--set favorite=true --audit none --now 2025-06-01T00:00:00Z --result count")
    anchors_text = "the same UPDATE through psql on the same server"

    def argv(self):
        return self.strata("batch", "update", "--store", "{url}", "--models", self.env.models, "--entity", "Recipe",
                           "--where", RECENT, "--now", NOW_ISO, "--set", "favorite=true", "--audit", "none",
                           "--result", "count")

    def probe(self):
        return self.argv()

    @staticmethod
    def update_sql():
        """The anchor: the same UPDATE, as psql sends it."""
        since = data.NOW - 30 * data.DAY
        return f'UPDATE {SCHEMA}."Recipe" SET "favorite" = true WHERE "lastUsed" >= to_timestamp({since!r})'

    def commands(self, n):
        return [self.command("strata", "strata", self.argv(), 4, n, fingerprint=self.fingerprint(FAVORITES)),
                self.command("psql", "anchor", server().psql_argv(WORK_DB, self.update_sql()), 4, n,
                             fingerprint=self.fingerprint(FAVORITES))]


class PostgresDryRun(PostgresCase):
    id = "pg-dry-run"
    title = "PostgreSQL: dry run (example v3→v4)"
    version = 3
    strata_command = ("strata migrate --dry-run --to 4 --store postgres://… from a v3 store (the example's models "
                      "and hooks: one transaction, rolled back)")
    anchors_text = "the real run (strata migrate --to 4) on the same store: a dry run costs no copy"

    def argv(self, *extra):
        return self.strata("migrate", "--store", "{url}", "--models", self.env.models, "--migrations",
                           self.env.example_migrations, "--to", "4", "--now", NOW_ISO, *extra)

    def probe(self):
        return self.argv("--dry-run")

    def commands(self, n):
        version = f"SELECT value FROM {SCHEMA}.strata_metadata WHERE key = 'strata.version'"
        stays = lambda _work: None if server().psql(WORK_DB, version) == "3" else "the dry run changed the store's version"
        return [self.command("strata", "strata", self.argv("--dry-run"), 3, n, verify=stays),
                self.command("real run", "anchor", self.argv(), 3, n)]


ALL = [PostgresBatchUpdate, PostgresDryRun]
