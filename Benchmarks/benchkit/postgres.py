"""PostgreSQL cases (SPEC §14.2): a throwaway cluster started for the run, Strata against `psql`.

The cluster is `initdb` + `pg_ctl start` into a temporary directory (as the `postgres` user when the
benchmarks run as root, since initdb refuses root), trust authentication, a free loopback port, fsync
off; it is stopped and removed when the run ends. Cases are skipped with the reason when PostgreSQL's
binaries are missing or this strata build has no PostgreSQL batch.
"""
import atexit
import glob
import os
import shutil
import socket
import subprocess
import tempfile

from . import cases, data

SCHEMA = "bench"


def _tool(name):
    found = shutil.which(name)
    if found:
        return found
    dirs = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda d: int(d.split("/")[-2]) if d.split("/")[-2].isdigit() else 0)
    for d in reversed(dirs):
        if os.path.exists(os.path.join(d, name)):
            return os.path.join(d, name)
    return None


class Cluster:
    """One throwaway PostgreSQL server for the whole run."""
    _shared = None

    @classmethod
    def shared(cls):
        if cls._shared is None:
            cls._shared = Cluster()
        return cls._shared

    def __init__(self):
        self.reason = None
        tools = {name: _tool(name) for name in ("initdb", "pg_ctl", "psql")}
        missing = [name for name, path in tools.items() if not path]
        if missing:
            self.reason = "PostgreSQL not installed (" + ", ".join(missing) + " not found)"
            return
        self.tools = tools
        self.dir = tempfile.mkdtemp(prefix="strata-bench-pg-")
        as_postgres = os.geteuid() == 0
        if as_postgres:
            shutil.chown(self.dir, "postgres")
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.user = "strata"
        prefix = ["runuser", "-u", "postgres", "--"] if as_postgres else []
        self.prefix = prefix
        run = subprocess.run(prefix + [tools["initdb"], "-D", self.dir + "/data", "-U", self.user, "--auth=trust", "-E", "UTF8"],
                             capture_output=True, text=True)
        if run.returncode != 0:
            self.reason = "initdb failed: " + run.stderr.strip()[-300:]
            return
        options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off"
        run = subprocess.run(prefix + [tools["pg_ctl"], "-D", self.dir + "/data", "-o", options, "-w", "-l", self.dir + "/log", "start"],
                             capture_output=True, text=True)
        if run.returncode != 0:
            self.reason = "pg_ctl start failed: " + run.stderr.strip()[-300:]
            return
        atexit.register(self.stop)

    def stop(self):
        subprocess.run(self.prefix + [self.tools["pg_ctl"], "-D", self.dir + "/data", "-m", "immediate", "stop"], capture_output=True)
        shutil.rmtree(self.dir, ignore_errors=True)

    def url(self, schema=SCHEMA):
        return f"postgres://{self.user}@127.0.0.1:{self.port}/postgres?schema={schema}"

    def psql_argv(self, sql):
        return [self.tools["psql"], "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", str(self.port),
                "-U", self.user, "-d", "postgres", "-c", sql]

    def psql(self, sql):
        return subprocess.run(self.psql_argv(sql), capture_output=True, text=True, check=True).stdout.strip()


class PostgresBatchUpdate(cases.Case):
    id = "postgres-batch-update"
    title = "batch update on PostgreSQL, count"
    strata_command = "strata batch update --store postgres://…?schema=bench --entity Recipe --where 'lastUsed >= $NOW - 30 days' --set favorite=true --audit none --result count"
    anchors_text = "the same UPDATE through psql, on the same table (VACUUM between repetitions, untimed)"

    def unavailable(self):
        cluster = Cluster.shared()
        if cluster.reason:
            return cluster.reason
        probe = subprocess.run([self.env.strata, "batch", "update", "--store", cluster.url("probe"), "--models", self.env.models,
                                "--entity", "Recipe", "--set", "favorite=true"], capture_output=True, text=True)
        if "not yet supported on PostgreSQL" in probe.stderr or "Unknown option" in probe.stderr:
            return "this strata build has no batch on PostgreSQL stores"
        return None

    def load(self, n):
        """A v4 store in schema `bench` with n recipes, lastUsed spread over the year before NOW (~8% recent)."""
        cluster = Cluster.shared()
        cluster.psql(f'DROP SCHEMA IF EXISTS "{SCHEMA}" CASCADE')
        subprocess.run([self.env.strata, "migrate", "--create", "--store", cluster.url(), "--models", self.env.models,
                        "--migrations", self.env.empty_dir, "--no-progress"], capture_output=True, text=True, check=True)
        cluster.psql(f'''INSERT INTO "{SCHEMA}"."Recipe" ("name", "rating", "portions", "lastUsed", "favorite")
            SELECT 'Dish ' || i, i % 6, 1 + i % 12,
                   CASE WHEN i % 20 = 0 THEN NULL ELSE to_timestamp({data.NOW} - (i::bigint * 7919 % 365) * {data.DAY} - (i % 86400)) END,
                   i % 50 = 0
            FROM generate_series(1, {n}) AS i''')
        cluster.psql(f'VACUUM ANALYZE "{SCHEMA}"."Recipe"')

    def commands(self, n):
        cluster = Cluster.shared()
        self.load(n)
        favorites = f'SELECT count(*) FROM "{SCHEMA}"."Recipe" WHERE "favorite"'
        update = (f'UPDATE "{SCHEMA}"."Recipe" SET "favorite" = true '
                  f'WHERE "lastUsed" >= to_timestamp({cases.RECENT_SECONDS!r})')

        def vacuum():
            cluster.psql(f'VACUUM "{SCHEMA}"."Recipe"')

        def fingerprint(_work):
            return cluster.psql(favorites)

        strata = self.strata("batch", "update", "--store", cluster.url(), "--models", self.env.models, "--entity", "Recipe",
                             "--where", cases.RECENT, "--now", cases.NOW_ISO, "--set", "favorite=true", "--audit", "none",
                             "--result", "count")
        return [
            cases.Command("strata", "strata", strata, prepare=vacuum, fingerprint=fingerprint),
            cases.Command("psql", "anchor", cluster.psql_argv(update), prepare=vacuum, fingerprint=fingerprint),
        ]


ALL = [PostgresBatchUpdate]
