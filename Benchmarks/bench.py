#!/usr/bin/env python3
"""Strata's benchmarks: every performance claim of SPEC §9 and issues 3, 4, 5, measured against
its anchors on the same data, in one run.

    Benchmarks/bench.py [--rows 10000,100000,1000000] [--reps N] [--smoke] [--strata PATH] [--write-docs]

Builds `strata` and `strata-bench-objects` in release (unless --strata is given), generates seeded
data, runs each case and its anchors --reps times on fresh copies of the same store, and prints a
Markdown table of medians, ratios and max RSS. Writes bench-out/results.json and
bench-out/performance.svg; --write-docs also writes Docs/performance.md and Docs/performance.svg.
Cases whose command this strata build lacks are skipped with the reason. Exits non-zero only when
a command crashes or fails, never because a ratio is slow.

Python 3 standard library only.
"""
import argparse
import datetime
import json
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchkit import bigmodel, cases, coredata, data, fleet, history, insertlink, mapping, measure, postgres, report  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "bench-out")
UNSUPPORTED = ("Unknown option", "Unexpected argument", "needs the migrator", "is not a valid subcommand")


def log(text):
    print(text, file=sys.stderr, flush=True)


class ProbeFailure(Exception):
    pass


class Environment:
    """Paths, the strata build, stores per (kind, rows), and what this build can do."""

    def __init__(self, strata, objects, seed):
        self.strata = strata
        self.objects = objects
        self.seed = seed
        self.root = ROOT
        self.models = os.path.join(ROOT, "models")
        self.data_dir = os.path.join(OUT, "data")
        self.work_dir = os.path.join(OUT, "work")
        self.stores_dir = os.path.join(OUT, "stores")
        self.empty_dir = os.path.join(OUT, "empty-migrations")
        self.example_migrations = os.path.join(ROOT, "migrations")
        if not os.path.isdir(self.example_migrations):
            self.example_migrations = self.empty_dir
        for d in (self.data_dir, self.work_dir, self.empty_dir):
            os.makedirs(d, exist_ok=True)
        shutil.rmtree(self.stores_dir, ignore_errors=True)
        os.makedirs(self.stores_dir)
        self.work_file = os.path.join(self.work_dir, "store.sqlite")
        self._help = {}
        self._stores = {}
        self._model_dirs = {}
        self._migrator = None
        self.notes = {}

    def help(self, *subcommand):
        """The --help text of a subcommand, None when this build has no such subcommand."""
        if subcommand not in self._help:
            done = subprocess.run([self.strata, *subcommand, "--help"], capture_output=True, text=True)
            # ArgumentParser answers an unknown subcommand's --help with the root's help: check the usage line.
            usage = "USAGE: strata " + " ".join(subcommand)
            known = done.returncode == 0 and any(line.strip().startswith(usage) for line in done.stdout.splitlines())
            self._help[subcommand] = done.stdout if known else None
        return self._help[subcommand]

    def note(self, case, text):
        self.notes.setdefault(case.id, [])
        if text not in self.notes[case.id]:
            self.notes[case.id].append(text)

    def shell(self, store, sql):
        return ["sqlite3", "-batch", "-bail", store, sql]

    def model_dir(self, key):
        """The example's models/, or a bench-only history: models/ plus Benchmarks/models-KEY/."""
        if key == "example":
            return self.models
        if key not in self._model_dirs:
            directory = os.path.join(OUT, f"models-{key}")
            shutil.rmtree(directory, ignore_errors=True)
            os.makedirs(directory)
            extra = os.path.join(ROOT, "Benchmarks", f"models-{key}")
            replaced = set(os.listdir(extra))
            for name in os.listdir(self.models):
                if name not in replaced:
                    shutil.copy(os.path.join(self.models, name), directory)
            for name in replaced:
                shutil.copy(os.path.join(extra, name), directory)
            self._model_dirs[key] = directory
        return self._model_dirs[key]

    def store(self, kind, rows):
        """A pristine store: "v3"/"v4" of the example, or "audit" (Benchmarks/models-audit), filled with `rows` recipes."""
        key = (kind, rows)
        if key not in self._stores:
            source = data.ensure_source(self.data_dir, rows, self.seed, log)
            path = os.path.join(self.stores_dir, f"{kind}-{rows}.sqlite")
            # The example stores are created with the example's hooks, so that the hooks up to their
            # version are recorded as not needed (a later migrate would otherwise call them late).
            models, migrations, version = {
                "v3": (self.models, self.example_migrations, 3), "v4": (self.models, self.example_migrations, 4),
                "audit": (os.path.join(ROOT, "Benchmarks", "models-audit"), self.empty_dir, 1)}[kind]
            done = subprocess.run([self.strata, "migrate", "--create", "--to", str(version), "--store", path,
                                   "--models", models, "--migrations", migrations, "--quiet"],
                                  capture_output=True, text=True)
            if done.returncode != 0:
                raise RuntimeError(f"strata migrate --create failed ({done.returncode}): {done.stderr.strip()}")
            data.fill_store(path, source, with_favorite=kind != "v3", clean=kind != "audit")
            self._stores[key] = path
        return self._stores[key]

    def big_model_dir(self):
        return bigmodel.write_history(os.path.join(OUT, "models-200x30"))

    def long_history_dir(self):
        directory = history.write_history(os.path.join(OUT, "models-117-versions"))
        os.makedirs(directory + "-hooks", exist_ok=True)
        return directory

    def coredata_bundle(self):
        return coredata.write_bundle(os.path.join(OUT, "coredata"))

    def migrator_unavailable(self):
        """Probes `strata migrate` on an existing 1,000-row v3 store once."""
        if self._migrator is None:
            measure.fresh_copy(self.store("v3", 1000), self.work_file)
            probe = measure.run([self.strata, "migrate", "--store", self.work_file, "--models", self.models,
                                 "--migrations", self.empty_dir, "--to", "4", "--no-progress"])
            if probe.exit_code == 0:
                self._migrator = ("ok", None)
            elif any(marker in probe.stderr for marker in UNSUPPORTED):
                first = next((l for l in probe.stderr.splitlines() if l.strip()), "").removeprefix("error: ")
                self._migrator = ("skipped", f"strata migrate of an existing store not available in this build ({first})")
            else:
                self._migrator = ("failed", measure.describe_failure("strata migrate on a 1,000-row v3 store", probe))
        state, reason = self._migrator
        if state == "failed":
            raise ProbeFailure(reason)
        return reason


def run_case(env, case, rows, reps):
    result = {"id": case.id, "title": case.title, "strataCommand": case.strata_command,
              "anchors": case.anchors_text, "status": "ran", "reason": None, "notes": [], "sizes": []}
    try:
        reason = case.unavailable()
    except ProbeFailure as failure:
        result.update(status="failed", reason=str(failure))
        log(f"[{case.id}] FAILED: {failure}")
        return result
    anchors_only = bool(reason) and case.id == report.CHART_CASE
    if reason:
        result.update(status="skipped", reason=reason)
        log(f"[{case.id}] skipped: {reason}" + ("; measuring its anchors alone for the chart" if anchors_only else ""))
        if not anchors_only:
            return result
    sizes = case.sizes(rows)
    for n in sizes:
        commands = [c for c in case.commands(n) if not (anchors_only and c.role == "strata")]
        samples = {c.label: {"seconds": [], "rss": []} for c in commands}
        fingerprints, problems = {}, []
        for rep in range(reps):
            shift = rep % len(commands)
            for command in commands[shift:] + commands[:shift]:
                if command.pristine:
                    measure.fresh_copy(command.pristine, env.work_file)
                if command.prepare:
                    command.prepare()
                argv = [env.work_file if a == "{work}" else a for a in command.argv]
                run = measure.run(argv)
                if run.exit_code not in command.ok:
                    why = measure.describe_failure(command.label, run)
                    unsupported = command.role == "strata" and any(m in run.stderr for m in UNSUPPORTED)
                    result.update(status="skipped" if unsupported else "failed",
                                  reason=why + ("" if unsupported else f" (command: {' '.join(argv)[:300]})"))
                    log(f"[{case.id}] {'skipped' if unsupported else 'FAILED'} at {n:,} rows: {why}")
                    return result
                samples[command.label]["seconds"].append(run.seconds)
                samples[command.label]["rss"].append(run.max_rss_kb)
                if command.fingerprint:
                    fingerprints.setdefault(command.label, set()).add(command.fingerprint(env.work_file))
                if command.verify:
                    problem = command.verify(env.work_file)
                    if problem and problem not in problems:
                        problems.append(problem)
                for path in command.cleanup:
                    if os.path.exists(path):
                        os.remove(path)
        if hasattr(case, "cross_check") and not anchors_only:
            problems += case.cross_check(n)
        result["sizes"].append(summarize(case, n, commands, samples, fingerprints, problems))
        log(f"[{case.id}] {n:,} rows: " + ", ".join(
            f"{label} {report._s(m['median'])}" for label, m in result["sizes"][-1]["measurements"].items()))
    if case.ratio_between_sizes and len(result["sizes"]) >= 2 and "strata" in result["sizes"][0]["measurements"]:
        small, large = result["sizes"][0], result["sizes"][-1]
        base = small["measurements"]["strata"]
        large["anchors"].append({"label": f"itself at {small['rows']:,} rows", "median": base["median"],
                                 "ratio": large["measurements"]["strata"]["median"] / base["median"],
                                 "maxRssKB": base["maxRssKB"]})
    result["notes"] = env.notes.get(case.id, [])
    for size in result["sizes"]:
        result["notes"] += [p for p in size["problems"] if p not in result["notes"]]
    return result


def summarize(case, n, commands, samples, fingerprints, problems):
    measurements = {}
    for c in commands:
        s = samples[c.label]
        measurements[c.label] = {"role": c.role, "seconds": s["seconds"], "median": measure.median(s["seconds"]),
                                 "maxRssKB": max(s["rss"]) if s["rss"] else None, "maxRssKBPerRep": s["rss"]}
    strata = measurements.get("strata")
    anchors = []
    for c in commands:
        if c.role == "anchor":
            m = measurements[c.label]
            anchors.append({"label": c.label, "median": m["median"], "maxRssKB": m["maxRssKB"],
                            "ratio": strata["median"] / m["median"] if strata and m["median"] else None})
    if case.sum_anchors:
        label, parts = case.sum_anchors
        total = sum(measurements[p]["median"] for p in parts if p in measurements)
        anchors.append({"label": label, "median": total, "maxRssKB": None,
                        "ratio": strata["median"] / total if strata and total else None})
    distinct = {label: sorted(map(repr, values)) for label, values in fingerprints.items()}
    mismatch = len({tuple(v) for v in distinct.values()}) > 1 or any(len(v) > 1 for v in distinct.values())
    if mismatch:
        problems = problems + [f"results differ at {n:,} rows: {distinct}"]
    size = {"rows": n, "measurements": measurements, "anchors": anchors, "mismatch": mismatch,
            "fingerprints": distinct, "problems": problems}
    if case.budget_seconds is not None and strata:
        size["budgetSeconds"] = case.budget_seconds
        size["withinBudget"] = strata["median"] <= case.budget_seconds
    if getattr(case, "budget_rss_kb", None) is not None and strata and strata["maxRssKB"] is not None:
        size["budgetRssKB"] = case.budget_rss_kb
        size["withinBudget"] = size.get("withinBudget", True) and strata["maxRssKB"] <= case.budget_rss_kb
    return size


# `strata` is measured as it is deployed: scripts/build-release.sh, a self-contained release binary with the
# Swift runtime linked in (README, "Install the CLI"); the object-by-object anchor is an ordinary release build.
STATIC_SCRATCH = ".build-static"


def build(products):
    bin_dirs = {}
    for product in products:
        flags = ["--static-swift-stdlib", "--scratch-path", STATIC_SCRATCH] if product == "strata" else []
        command = (["scripts/build-release.sh"] if product == "strata"
                   else ["swift", "build", "-c", "release", "--product", product])
        log(f"building {product} ({' '.join(command)}) ...")
        done = subprocess.run(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if done.returncode != 0:
            log(done.stderr)
            sys.exit(f"bench.py: swift build of {product} failed")
        bin_dirs[product] = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"] + flags, cwd=ROOT,
                                           capture_output=True, text=True).stdout.strip()
    return bin_dirs


def git_commit():
    done = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=ROOT, capture_output=True, text=True)
    return done.stdout.strip() or "unknown"


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", default="10000,100000,1000000", help="comma-separated row counts")
    parser.add_argument("--reps", type=int, default=5, help="repetitions per command (median reported)")
    parser.add_argument("--smoke", action="store_true", help="10,000 rows, 1 repetition, every case (CI)")
    parser.add_argument("--strata", help="use this strata binary instead of building one")
    parser.add_argument("--objects", help="use this strata-bench-objects binary instead of building one")
    parser.add_argument("--seed", type=int, default=20250601)
    parser.add_argument("--cases", help="comma-separated case ids (default: all)")
    parser.add_argument("--write-docs", action="store_true", help="also write Docs/performance.md and .svg")
    args = parser.parse_args()
    if args.smoke:
        args.rows, args.reps = "10000", 1
    args.rows = sorted({int(x.replace("_", "")) for x in args.rows.split(",") if x.strip()})
    if args.reps < 1 or not args.rows or min(args.rows) < 1:
        parser.error("--reps and --rows must be positive")
    return args


def main():
    args = parse_arguments()
    started = time.time()
    products = [p for p, given in (("strata", args.strata), ("strata-bench-objects", args.objects)) if not given]
    bin_dirs = build(products) if products else {}
    strata = os.path.abspath(args.strata) if args.strata else os.path.join(bin_dirs["strata"], "strata")
    objects = os.path.abspath(args.objects) if args.objects else os.path.join(bin_dirs["strata-bench-objects"], "strata-bench-objects")
    os.makedirs(OUT, exist_ok=True)
    env = Environment(strata, objects, args.seed)
    selected = [c for c in cases.ALL + insertlink.ALL + fleet.ALL + mapping.ALL + postgres.ALL if not args.cases or c.id in args.cases.split(",")]
    results = {
        "schemaVersion": 1,
        "started": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "config": {"rows": args.rows, "reps": args.reps, "seed": args.seed, "now": cases.NOW_ISO, "smoke": args.smoke},
        "strata": {"path": strata, "version": subprocess.run([strata, "--version"], capture_output=True,
                                                              text=True).stdout.strip(), "commit": git_commit(),
                   "given": bool(args.strata)},
        "rssMethod": measure.RSS_METHOD,
        "loadAverageAtStart": " ".join(f"{x:.2f}" for x in os.getloadavg()),
        "cases": [],
    }
    for case_type in selected:
        results["cases"].append(run_case(env, case_type(env), args.rows, args.reps))
    results["elapsedSeconds"] = time.time() - started
    results["machine"] = report.machine()
    table = report.markdown(results)
    print(table)
    with open(os.path.join(OUT, "results.json"), "w") as f:
        json.dump(results, f, indent=2)
    chart = report.svg_chart(results)
    with open(os.path.join(OUT, "performance.svg"), "w") as f:
        f.write(chart)
    log(f"wrote bench-out/results.json and bench-out/performance.svg ({results['elapsedSeconds']:.0f} s)")
    if args.write_docs:
        command = "Benchmarks/bench.py --write-docs" + ("" if args.rows == [10_000, 100_000, 1_000_000] else
                                                       " --rows " + ",".join(map(str, args.rows))) + f" --reps {args.reps}"
        page = os.path.join(ROOT, "Docs", "performance.md")
        kept = report.kept_sections(open(page).read() if os.path.exists(page) else "")
        with open(page, "w") as f:
            f.write(report.performance_doc(results, table, command) + kept)
        with open(os.path.join(ROOT, "Docs", "performance.svg"), "w") as f:
            f.write(chart)
        log("wrote Docs/performance.md and Docs/performance.svg")
    failed = [c for c in results["cases"] if c["status"] == "failed"]
    for c in failed:
        log(f"FAILED: {c['id']}: {c['reason']}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
