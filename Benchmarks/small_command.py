#!/usr/bin/env python3
"""Where a small command's time goes: `strata migrate` of the add-column case on a 1,000-row v3 store.

Prints medians of the whole process (strata --version, the migrate, the same DDL in the sqlite3 shell)
and, for a binary that prints `PHASE <name> <CLOCK_MONOTONIC seconds>` lines on stderr when STRATA_PHASES is set
(a local timing build; the patch of the first one is `git show e86688c:Benchmarks/small-command-timing.patch`,
which no longer applies), the median of each interval between its timing points (Docs/performance.md,
"Where a small command's time goes").

    scripts/build-release.sh
    Benchmarks/small_command.py [--strata PATH [--strata PATH2]] [--reps 31]
"""
import argparse, collections, os, shutil, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Benchmarks"))
from benchkit import data  # noqa: E402

DDL = 'BEGIN; ALTER TABLE "Recipe" ADD COLUMN "favorite" INTEGER DEFAULT 0; COMMIT;'


def fresh(pristine, work):
    shutil.copy(pristine, work)
    fd = os.open(work, os.O_RDONLY)
    os.fsync(fd)
    os.close(fd)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strata", action="append",
                        help="a binary to time (repeat to compare binaries: they alternate within each repetition)")
    parser.add_argument("--reps", type=int, default=31)
    args = parser.parse_args()
    binaries = args.strata or [os.path.join(ROOT, ".build-static", "release", "strata")]
    tmp = tempfile.mkdtemp(prefix="strata-small-")
    try:
        models, empty = os.path.join(tmp, "models"), os.path.join(tmp, "empty")
        os.makedirs(models)
        os.makedirs(empty)
        for name in ("1.yaml", "2.yaml", "3.yaml"):
            shutil.copy(os.path.join(ROOT, "models", name), models)
        shutil.copy(os.path.join(ROOT, "Benchmarks", "models-addcolumn", "4.yaml"), models)
        pristine, work = os.path.join(tmp, "v3.sqlite"), os.path.join(tmp, "work.sqlite")
        subprocess.run([binaries[0], "migrate", "--create", "--to", "3", "--store", pristine, "--models", models,
                        "--migrations", os.path.join(ROOT, "migrations"), "--quiet"], check=True)
        data.fill_store(pristine, data.ensure_source(os.path.join(tmp, "data"), 1000, 20250601, lambda *_: None),
                        with_favorite=False)
        migrate = ["migrate", "--store", work, "--models", models, "--migrations", empty, "--to", "4",
                   "--skip-integrity-check", "--audit", "none"]
        env = dict(os.environ, STRATA_PHASES="1")
        totals, version, shell = collections.defaultdict(list), collections.defaultdict(list), []
        intervals, order = collections.defaultdict(list), []
        for rep in range(args.reps):
            for binary in (binaries if rep % 2 == 0 else binaries[::-1]):
                fresh(pristine, work)
                start = time.monotonic()
                done = subprocess.run([binary] + migrate, capture_output=True, text=True, env=env)
                end = time.monotonic()
                if done.returncode != 0:
                    sys.exit(f"strata migrate failed ({done.returncode}): {done.stderr.strip()}")
                totals[binary].append(end - start)
                points = [("spawn", start)] + [(line.split()[1], float(line.split()[2]))
                                               for line in done.stderr.splitlines() if line.startswith("PHASE ")] + [("exit", end)]
                for (a, ta), (b, tb) in zip(points, points[1:]):
                    key = f"{a} → {b}"
                    if key not in order:
                        order.append(key)
                    intervals[key].append(tb - ta)
                start = time.monotonic()
                subprocess.run([binary, "--version"], capture_output=True)
                version[binary].append(time.monotonic() - start)
            fresh(pristine, work)
            start = time.monotonic()
            subprocess.run(["sqlite3", work, DDL], check=True)
            shell.append(time.monotonic() - start)
        median = lambda values: statistics.median(values) * 1000
        print(f"load average {os.getloadavg()[0]:.2f}; medians of {args.reps} runs")
        if len(order) > 1:
            for key in order:
                print(f"  {key:34} {median(intervals[key]):.2f} ms")
        for binary in binaries:
            if len(binaries) > 1:
                print(binary)
            print(f"strata migrate (add-column, 1,000 rows)  {median(totals[binary]):.2f} ms")
            print(f"strata --version                         {median(version[binary]):.2f} ms")
            print(f"over process start                       {median(totals[binary]) - median(version[binary]):.2f} ms")
        print(f"sqlite3 shell, the same DDL              {median(shell):.2f} ms")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
