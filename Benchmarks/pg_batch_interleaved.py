#!/usr/bin/env python3
"""The PostgreSQL batch update against psql, interleaved, with the server's own timing of each statement.

Runs `strata batch update` and the same UPDATE through psql (bench.py's `pg-batch-update` commands)
alternately, each on a fresh copy of the same database, on one throwaway cluster (as bench.py starts it),
with `log_min_duration_statement = 0`. Prints each command's wall times and medians, the server-side
duration of each UPDATE, and the statements of the last run of each that took over 0.5 ms
(Docs/performance.md, "PostgreSQL: the batch update against psql").

    scripts/build-release.sh
    Benchmarks/pg_batch_interleaved.py [--strata PATH] [--rows 1000000] [--reps 8]
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import time
import types

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Benchmarks"))
from benchkit.postgres import WORK_DB, PostgresBatchUpdate, pristine, server  # noqa: E402

UPDATE = re.compile(r"duration: ([0-9.]+) ms\s+(?:execute <unnamed>|statement): UPDATE")
STATEMENT = re.compile(r"duration: ([0-9.]+) ms\s+(.*)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strata", default=os.path.join(ROOT, ".build-static", "release", "strata"))
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--reps", type=int, default=8)
    parser.add_argument("--seed", type=int, default=20250601)
    args = parser.parse_args()
    if args.rows < 1 or args.reps < 1:
        parser.error("--rows and --reps must be positive")
    env = types.SimpleNamespace(strata=os.path.abspath(args.strata), models=os.path.join(ROOT, "models"),
                                example_migrations=os.path.join(ROOT, "migrations"),
                                data_dir=os.path.join(ROOT, "bench-out", "data"), seed=args.seed)
    os.makedirs(env.data_dir, exist_ok=True)
    srv = server()
    if srv.failure:
        sys.exit(f"pg_batch_interleaved.py: no PostgreSQL server: {srv.failure}")
    source = pristine(env, 4, args.rows)
    srv.psql("postgres", "ALTER SYSTEM SET log_min_duration_statement = 0")
    srv.psql("postgres", "SELECT pg_reload_conf()")
    case = PostgresBatchUpdate(env)   # bench.py's commands, exactly
    commands = {
        "strata": [a.replace("{url}", srv.url(WORK_DB)) for a in case.argv()],
        "psql": srv.psql_argv(WORK_DB, case.update_sql()),
    }
    log = os.path.join(srv.directory, "server.log")
    wall = {name: [] for name in commands}
    server_ms = {name: [] for name in commands}
    last = {}
    for rep in range(args.reps):
        order = list(commands) if rep % 2 == 0 else list(reversed(commands))
        for name in order:
            srv.fresh(source)
            start = os.path.getsize(log)
            began = time.perf_counter()
            done = subprocess.run(commands[name], capture_output=True, text=True)
            wall[name].append(time.perf_counter() - began)
            if done.returncode != 0:
                sys.exit(f"pg_batch_interleaved.py: {name} failed ({done.returncode}): {done.stderr.strip()}")
            with open(log) as f:
                f.seek(start)
                text = f.read()
            server_ms[name] += [float(m.group(1)) for m in UPDATE.finditer(text)]
            last[name] = text
    for name in commands:
        print(f"{name}: wall {[round(x, 3) for x in wall[name]]}, median {statistics.median(wall[name]):.3f} s; "
              f"server UPDATE median {statistics.median(server_ms[name]):.1f} ms")
    print(f"strata / psql (wall medians): {statistics.median(wall['strata']) / statistics.median(wall['psql']):.2f}x")
    for name, text in last.items():
        print(f"statements over 0.5 ms, last {name} run:")
        for line in text.splitlines():
            match = STATEMENT.search(line)
            if match and float(match.group(1)) > 0.5:
                print(f"  {match.group(1)} ms  {match.group(2)[:200]}")


if __name__ == "__main__":
    main()
