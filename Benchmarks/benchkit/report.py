"""Renderers over one results value: the Markdown tables, the SVG chart, Docs/performance.md."""
import math
import os
import platform
import subprocess

CHART_CASE = "batch-update-count"
CHART_SERIES = [("strata", "Strata (strata batch update)", "#d9480f"),
                ("sqlite3 shell", "sqlite3 shell (same UPDATE)", "#1c7ed6"),
                ("object by object", "object by object (GRDB, save each)", "#5f3dc4")]


def machine():
    """What the figures were measured on."""
    def first_line(argv):
        try:
            return subprocess.run(argv, capture_output=True, text=True, timeout=30).stdout.strip().splitlines()[0]
        except (OSError, IndexError, subprocess.SubprocessError):
            return None
    model = None
    for line in (subprocess.run(["lscpu"], capture_output=True, text=True).stdout or "").splitlines():
        if line.startswith("Model name:"):
            model = line.split(":", 1)[1].strip()
    memory = None
    if os.path.exists("/proc/meminfo"):
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    memory = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    import sqlite3
    return {
        "nproc": first_line(["nproc"]),
        "cpu": model,
        "memory": memory,
        "os": platform.platform(),
        "sqlite3Shell": first_line(["sqlite3", "--version"]),
        "pythonSqlite": sqlite3.sqlite_version,
        "swift": first_line(["swift", "--version"]),
        "loadAverage": " ".join(f"{x:.2f}" for x in os.getloadavg()),
    }


def _s(seconds):
    if seconds is None:
        return "—"
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.3f} s"


def _tick(seconds):
    return f"{seconds * 1000:g} ms" if seconds < 1 else f"{seconds:g} s"


def _mb(kb):
    return "—" if kb is None else f"{kb / 1024:.0f}"


def _rows(n):
    return "—" if not n else f"{n:,}"


def _ratio(value):
    return "—" if value is None else f"{value:.2f}×"


def markdown(results):
    lines = ["| case | rows | Strata | anchor | anchor time | Strata / anchor | Strata max RSS (MB) | anchor max RSS (MB) |",
             "|---|---:|---:|---|---:|---:|---:|---:|"]
    skipped = []
    for case in results["cases"]:
        if case["status"] != "ran" and not case["sizes"]:
            skipped.append(case)
            continue
        title = case["title"] + ("" if case["status"] == "ran" else f" ({case['status']})")
        for size in case["sizes"]:
            m = size["measurements"]
            strata = m.get("strata")
            anchors = size["anchors"] or [{"label": "—", "median": None, "ratio": None, "maxRssKB": None}]
            for i, anchor in enumerate(anchors):
                first = i == 0
                extra = ""
                if first and size.get("withinBudget") is not None:
                    extra = " ✅ under budget" if size["withinBudget"] else " ❌ over budget"
                if first and size.get("mismatch"):
                    extra += " ⚠️ results differ"
                lines.append("| " + " | ".join([
                    title if first else "",
                    _rows(size["rows"]) if first else "",
                    (_s(strata["median"]) + extra) if first and strata else ("not run" if first else ""),
                    anchor["label"],
                    _s(anchor["median"]),
                    _ratio(anchor["ratio"]),
                    _mb(strata["maxRssKB"]) if first and strata else "",
                    _mb(anchor.get("maxRssKB")),
                ]) + " |")
            title = ""
    out = ["\n".join(lines)]
    targets = targets_table(results)
    if targets:
        out.append(targets)
    memory = memory_table(results)
    if memory:
        out.append(memory)
    if skipped or any(c["status"] != "ran" for c in results["cases"]):
        out.append("\n".join(["Not measured:", ""] + [f"- **{c['title']}**: {c['status']}: {c['reason']}"
                                                      for c in results["cases"] if c["status"] != "ran"]))
    notes = [f"- **{c['title']}**: {note}" for c in results["cases"] for note in c["notes"]]
    if notes:
        out.append("\n".join(["Notes:", ""] + notes))
    return "\n\n".join(out) + "\n"


# The issues' targets, checked at the largest row count of the run: (case, what, anchor label or
# "memory", the limit, the issue).
TARGETS = [
    ("batch-update-count", "time", "sqlite3 shell", 1.10, "issue 4"),
    ("batch-update-count", "memory", None, 1.10, "issue 4"),
    ("batch-update-ids", "time", "sqlite3 shell", 1.25, "issue 4"),
    ("batch-delete-cascade", "time", "sqlite3 shell", 1.10, "issue 4"),
    ("batch-update-audited", "time", "sqlite3 shell", 1.15, "issue 13"),
    ("dry-run", "time", "snapshot + real run", 1.00, "issue 13 (≤ its parts)"),
    ("add-column", "time", "itself at 1,000 rows", 1.25, "issue 3 (O(1))"),
    ("table-rebuild", "time", "sqlite3 shell", 1.25, "issue 3"),
    ("audit-8-rules", "time", "sqlite3 shell", 1.50, "issue 5"),
    ("audit-8-rules", "memory", None, 1.10, "issue 5"),
    ("model-plan", "budget", None, None, "issue 8 (< 100 ms)"),
    ("coredata-import", "budget", None, None, "issue 16 (< 3 s)"),
    ("coredata-import", "rss", None, 200, "issue 16 (< 200 MB)"),
    ("sql-step", "time", "sqlite3 shell", 1.05, "issue 14"),
    ("batch-insert-from", "time", "sqlite3 shell", 1.20, "issue 14"),
    ("set-relationship", "time", "sqlite3 shell", 1.20, "issue 14"),
    ("set-relationship", "memory", None, 1.10, "issue 14 (memory flat)"),
    ("fleet-migrate", "time", "strata --jobs 1", 1 / 1.7, "issue 18 (--jobs 2 ≥ 1.7× faster)"),
    ("fleet-migrate", "memory-sizes", None, 1.10, "issue 18 (flat in stores)"),
    ("pg-batch-update", "time", "psql", 1.10, "issue 18"),
    ("pg-dry-run", "time", "real run", 1.10, "issue 18 (no copy)"),
]


def targets_table(results):
    """Each target of the issues, measured at the run's largest row count: met or not."""
    lines = ["| target | source | measured | met |", "|---|---|---:|:---:|"]
    by_id = {c["id"]: c for c in results["cases"]}
    for case_id, kind, anchor, limit, source in TARGETS:
        case = by_id.get(case_id)
        if not case:
            continue
        if case["status"] != "ran" or not case["sizes"]:
            lines.append(f"| {case['title']}: {kind} | {source} | {case['status']} | — |")
            continue
        largest = case["sizes"][-1]
        if kind == "time":
            found = next((a for a in largest["anchors"] if a["label"] == anchor), None)
            value = found and found["ratio"]
            text = f"{case['title']}: time ≤ {limit:.2f}× {anchor} at {largest['rows']:,} rows"
            measured, met = _ratio(value), value is not None and value <= limit
        elif kind == "memory":
            sizes = {s["rows"]: s["measurements"].get("strata") for s in case["sizes"]}
            big = sorted(n for n in sizes if n >= 100_000)
            if len(big) < 2:
                continue
            a, b = sizes[big[0]]["maxRssKB"], sizes[big[-1]]["maxRssKB"]
            text = f"{case['title']}: max RSS at {big[-1]:,} rows within {round((limit - 1) * 100)}% of {big[0]:,}"
            measured, met = f"{(b / a - 1) * 100:+.0f}%", b <= a * limit
        elif kind == "memory-sizes":
            # Max RSS at the largest size against the smallest (a fleet's sizes are store counts).
            first, last = case["sizes"][0], largest
            a, b = first["measurements"]["strata"]["maxRssKB"], last["measurements"]["strata"]["maxRssKB"]
            if len(case["sizes"]) < 2 or a is None or b is None:
                continue
            text = f"{case['title']}: max RSS at {last['rows']:,} within {round((limit - 1) * 100)}% of {first['rows']:,}"
            measured, met = f"{(b / a - 1) * 100:+.0f}%", b <= a * limit
        elif kind == "rss":
            rss = largest["measurements"]["strata"]["maxRssKB"]
            text = f"{case['title']}: max RSS under {limit} MB"
            measured, met = _mb(rss), rss is not None and rss <= limit * 1024
        else:
            text = f"{case['title']}: under {largest['budgetSeconds'] * 1000:.0f} ms"
            measured = _s(largest["measurements"]["strata"]["median"])
            met = largest["measurements"]["strata"]["median"] <= largest["budgetSeconds"]
        lines.append(f"| {text} | {source} | {measured} | {'✅' if met else '❌'} |")
    return "\n".join(lines) if len(lines) > 2 else None


def memory_table(results):
    """Max RSS of the strata process per row count, for the cases measured at 100k rows and more."""
    big = sorted(n for n in results["config"]["rows"] if n >= 100_000)
    if not big:
        return None
    head = "| case (strata max RSS, MB) | " + " | ".join(f"{n:,} rows" for n in big) + " | growth |"
    lines = [head, "|---|" + "---:|" * (len(big) + 1)]
    for case in results["cases"]:
        by_rows = {s["rows"]: s["measurements"].get("strata") for s in case["sizes"]}
        values = [by_rows.get(n)["maxRssKB"] if by_rows.get(n) else None for n in big]
        if sum(v is not None for v in values) < 2:
            continue
        growth = f"{(values[-1] / values[0] - 1) * 100:+.0f}%" if values[0] and values[-1] else "—"
        lines.append(f"| {case['title']} | " + " | ".join(_mb(v) for v in values) + f" | {growth} |")
    return "\n".join(lines) if len(lines) > 2 else None


def svg_chart(results):
    """Time against row count (log-log) for Strata, the sqlite3 shell and object by object."""
    case = next((c for c in results["cases"] if c["id"] == CHART_CASE), None)
    series = []
    for label, name, color in CHART_SERIES:
        points = [(s["rows"], s["measurements"][label]["median"]) for s in (case["sizes"] if case else [])
                  if label in s["measurements"]]
        if points:
            series.append((name, color, points))
    width, height, left, right, top, bottom = 720, 420, 80, 250, 50, 60
    all_x = [x for _, _, pts in series for x, _ in pts] or [10_000, 1_000_000]
    all_y = [y for _, _, pts in series for _, y in pts] or [0.01, 1]
    x0, x1 = math.floor(math.log10(min(all_x))), math.ceil(math.log10(max(all_x)))
    y0, y1 = math.floor(math.log10(min(all_y))), math.ceil(math.log10(max(all_y)))
    x1, y1 = max(x1, x0 + 1), max(y1, y0 + 1)
    plot_w, plot_h = width - left - right, height - top - bottom

    pad = 0.12 * (x1 - x0)

    def px(x):
        return left + (math.log10(x) - x0 + pad) / (x1 - x0 + 2 * pad) * plot_w

    def py(y):
        return top + plot_h - (math.log10(y) - y0) / (y1 - y0) * plot_h
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
           'font-family="Helvetica, Arial, sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
           f'<text x="{left}" y="28" font-size="15" font-weight="bold">Batch update of ~8% of Recipe rows: median time vs rows</text>']
    for e in range(x0, x1 + 1):
        x = px(10 ** e)
        out.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{top + plot_h}" stroke="#e9ecef"/>')
        out.append(f'<text x="{x:.1f}" y="{top + plot_h + 18}" text-anchor="middle">{10 ** e:,}</text>')
    for e in range(y0, y1 + 1):
        y = py(10 ** e)
        out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + plot_w}" y2="{y:.1f}" stroke="#e9ecef"/>')
        out.append(f'<text x="{left - 8}" y="{y + 4:.1f}" text-anchor="end">{_tick(10 ** e)}</text>')
    out.append(f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#868e96"/>')
    out.append(f'<text x="{left + plot_w / 2:.1f}" y="{height - 18}" text-anchor="middle">rows (log scale)</text>')
    out.append(f'<text x="18" y="{top + plot_h / 2:.1f}" text-anchor="middle" '
               f'transform="rotate(-90 18 {top + plot_h / 2:.1f})">median wall time (log scale)</text>')
    for i, (name, color, points) in enumerate(series):
        path = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in points)
        out.append(f'<polyline points="{path}" fill="none" stroke="{color}" stroke-width="2.5"/>')
        for x, y in points:
            out.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="4" fill="{color}"><title>{name}: {x:,} rows, {_s(y)}</title></circle>')
        ly = top + 10 + i * 22
        out.append(f'<line x1="{left + plot_w + 16}" y1="{ly}" x2="{left + plot_w + 40}" y2="{ly}" stroke="{color}" stroke-width="2.5"/>')
        out.append(f'<text x="{left + plot_w + 46}" y="{ly + 4}">{name}</text>')
    if not series:
        out.append(f'<text x="{left + 20}" y="{top + 40}">no measurements</text>')
    elif case and case["status"] != "ran":
        out.append(f'<text x="{left + plot_w + 16}" y="{top + 10 + len(series) * 22 + 10}" font-size="11" fill="#c92a2a">'
                   f'Strata not measured: {case["reason"][:40]}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def cases_table(results):
    lines = ["| case | Strata command | anchors in the same run |", "|---|---|---|"]
    for c in results["cases"]:
        lines.append(f"| {c['title']} | {c['strataCommand'].replace('|', '/')} | {c['anchors']} |")
    return "\n".join(lines)


def built(results):
    strata = results["strata"]
    if strata.get("given"):
        return f"the binary given with `--strata` (built with `swift build -c release` from commit `{strata['commit']}` of this tree)"
    return (f"commit `{strata['commit']}`, built by the script as it is deployed: "
            "`scripts/build-release.sh` (release, the Swift runtime linked in; README, \"Install the CLI\")")


def performance_doc(results, table, command):
    m = results["machine"]
    c = results["config"]
    return f"""# Performance

Written by `{command}`: every figure below is a measurement of that run, never typed by hand
(except the sections after the chart, which say how they were measured and are kept across runs).
Rerun the command to refresh this page and [`performance.svg`](performance.svg).

## The run

- Strata: `{results['strata']['version']}`, {built(results)}.
- Rows: {", ".join(f"{n:,}" for n in c['rows'])}; {c['reps']} repetitions per command; seed {c['seed']}; `$NOW` pinned to {c['now']}.
- Machine: {m['nproc']} CPUs ({m['cpu']}), {m['memory']} memory, {m['os']}; load average {results.get('loadAverageAtStart', '?')} at the start of the run and {m['loadAverage']} at the end (the machine is shared, so ratios are more telling than absolute times).
- SQLite: shell {m['sqlite3Shell']}; Strata links the system libsqlite3 through GRDB.
- Started {results['started']}, took {results['elapsedSeconds']:.0f} s.

## How it measures

- The data is generated by the script (seeded, reproducible): the example's Recipe entity with realistic
  spreads (`lastUsed` over the year before `$NOW`, ~5% NULL; ratings 0–5; portions; unicode names; ~2
  Ingredients per Recipe, cascading; 50 Chefs). See `Benchmarks/benchkit/data.py`.
- Each command of a case runs on a fresh copy of the same pristine store, once per repetition; the order of
  the commands rotates between repetitions. Times are medians of wall time of the whole process (start-up
  included); ratios are Strata's median over the anchor's.
- Max RSS is the child's own peak resident set ({results['rssMethod']}), the largest over the repetitions.
- Each fresh copy is fsynced before the clock starts, so no command pays for flushing the copy.
- The PostgreSQL cases start one throwaway cluster for the run (initdb into a temporary directory, a
  loopback port, server defaults). The store is a schema `app` in a database of its own, filled from the
  same seeded rows; each repetition gets a fresh copy (`CREATE DATABASE … TEMPLATE`, then `CHECKPOINT`,
  untimed). The anchor is `psql` on the same server. Without PostgreSQL these cases are skipped.
- Every command that changes data has a fingerprint of the result (counts and key sums); the run reports
  when Strata and an anchor disagree.

## Cases

{cases_table(results)}

## Figures

{table}
Reading the memory column: a count or status result keeps memory flat. A result that lists object IDs
holds them until it is printed (`--result ids`; the dry run, because the example's favorite hook asks for
`updatedObjectIDs`), so its peak grows with the number of IDs, not with the table. A batch delete keeps the
keys of the doomed rows in a temporary table (its page cache is bounded, the rest spills to a temporary
file), and SQLite's `DELETE` collects the rowids it removes, as the shell's does.

## Chart

![Batch update: time against rows for Strata, the sqlite3 shell and object by object](performance.svg)
"""


KEPT_SECTIONS = ("## Where a small command's time goes", "## Where the touched audit of a batch update goes",
                 "## Fleets on two cores", "## PostgreSQL: the batch update against psql")


def kept_sections(page):
    """The sections of the current page that bench.py does not measure (each says how it was measured)."""
    kept = ""
    for heading in KEPT_SECTIONS:
        start = page.find("\n" + heading + "\n")
        if start < 0:
            continue
        end = page.find("\n## ", start + 1)
        kept += "\n" + page[start + 1:end if end >= 0 else len(page)].rstrip("\n") + "\n"
    return kept
