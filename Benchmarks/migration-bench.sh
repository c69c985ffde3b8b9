#!/usr/bin/env bash
# Migration benchmark (not a test): prints figures.
#  1. planning v1 → v117 of an 80-entity / 720-attribute history (`strata diff 1 117`, YAML loading included)
#  2. an add-column step on 1,000 vs 1,000,000 rows (should be O(1): ALTER TABLE … ADD COLUMN … DEFAULT)
#  3. a rebuild step (12-step procedure) on 1,000,000 rows vs the same SQL typed into the sqlite3 shell
# Usage: Benchmarks/migration-bench.sh [ROWS]   (default 1000000)
set -euo pipefail
cd "$(dirname "$0")/.."
ROWS=${1:-1000000}
swift build -c release --product strata >/dev/null
STRATA="$(swift build -c release --show-bin-path)/strata"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
now() { python3 -c 'import time; print(time.perf_counter())'; }
elapsed() { python3 -c "print(f'{$2 - $1:.3f}')"; }

# 1. Planning a long history.
mkdir -p "$WORK/long"
python3 - "$WORK/long" <<'PY'
import sys
out = sys.argv[1]
types = ["string", "int16", "double", "date", "bool", "int64", "decimal", "uuid", "binary"]
ents = {}
order = []
for i in range(80):
    parent = f"E{i-1}" if i % 10 == 2 else None
    attrs = [[("s" if i % 10 == 2 else "a") + str(j), types[(i + j) % 9], None, None] for j in range(9)]
    rels = [] if i == 0 or i % 10 == 2 else [("prev", f"E{i-1}")]
    ents[f"E{i}"] = {"parent": parent, "attrs": attrs, "rels": rels, "indexes": []}
    order.append(f"E{i}")
def write(v):
    lines = [f"version: {v}", "entities:"]
    for name in sorted(ents):
        e = ents[name]
        lines.append(f"  {name}:")
        if e["parent"]: lines.append(f"    parent: {e['parent']}")
        lines.append("    attributes:")
        for a, t, ren, minlen in e["attrs"]:
            extra = (f", renamedFrom: {ren}" if ren else "") + (f", versionHashModifier: \"{minlen}\"" if minlen else "")
            lines.append(f"      {a}: {{ type: {t}{extra} }}")
        if e["rels"]:
            lines.append("    relationships:")
            for r, d in e["rels"]: lines.append(f"      {r}: {{ destination: {d} }}")
        if e["indexes"]: lines.append("    indexes: [" + ", ".join("[" + c + "]" for c in e["indexes"]) + "]")
    open(f"{out}/{v}.yaml", "w").write("\n".join(lines) + "\n")
write(1)
for v in range(2, 118):
    t = f"E{(v * 7) % 80}"
    for e in ents.values():
        for a in e["attrs"]: a[2] = None
    k = v % 6
    e = ents[t]
    if k == 0: e["attrs"].append([f"n{v}", "string", None, None])
    elif k == 1: old = e["attrs"][1][0]; e["attrs"][1][0] = f"r{v}"; e["attrs"][1][2] = old
    elif k == 2: e["indexes"].append(e["attrs"][2][0])
    elif k == 3: e["attrs"][0][3] = v
    elif k == 4: e["attrs"].pop()
    else: ents[f"N{v}"] = {"parent": None, "attrs": [["x", "string", None, None]], "rels": [], "indexes": []}
    write(v)
PY
# Both runs load the 117 files; the difference is the planning of 115 more steps.
t0=$(now); "$STRATA" diff 1 2 --models "$WORK/long" --format json >/dev/null 2>&1; t1=$(now)
t2=$(now); "$STRATA" diff 1 117 --models "$WORK/long" --format json >/dev/null 2>&1; t3=$(now)
echo "strata diff 1 2:   $(elapsed $t0 $t1) s (loading 117 model files of 80 entities / 720 attributes + 1 step)"
echo "strata diff 1 117: $(elapsed $t2 $t3) s (same loading + 116 steps) → planning v1 → v117 ≈ $(python3 -c "print(f'{($t3 - $t2) - ($t1 - $t0):.3f}')") s"

# 2. Add-column step, 1k vs ROWS rows.
mkdir -p "$WORK/add"
cat > "$WORK/add/1.yaml" <<'Y'
version: 1
entities:
  Recipe:
    attributes:
      name: { type: string }
      rating: { type: int64 }
      gone: { type: string }
Y
cat > "$WORK/add/2.yaml" <<'Y'
version: 2
entities:
  Recipe:
    attributes:
      name: { type: string }
      rating: { type: int64 }
      gone: { type: string }
      favorite: { type: bool, default: false, optional: false }
Y
mkdir -p "$WORK/rebuild"
cp "$WORK/add/1.yaml" "$WORK/rebuild/1.yaml"
cat > "$WORK/rebuild/2.yaml" <<'Y'
version: 2
entities:
  Recipe:
    attributes:
      name: { type: string, indexed: true }
      rating: { type: int64 }
Y
fill() { # store rows
  "$STRATA" migrate --create --to 1 --store "$1" --models "$WORK/add" >/dev/null
  sqlite3 "$1" "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < $2)
                INSERT INTO Recipe (name, rating, gone) SELECT 'recipe ' || i, i, 'x' FROM c;"
}
addcol() { # rows → seconds of `strata migrate`
  fill "$WORK/add-$1.sqlite" "$1"
  local a b; a=$(now); "$STRATA" migrate --store "$WORK/add-$1.sqlite" --models "$WORK/add" >/dev/null; b=$(now)
  elapsed "$a" "$b"
}
small=$(addcol 1000); large=$(addcol "$ROWS")
echo "add-column step: 1,000 rows $small s, $ROWS rows $large s (ratio $(python3 -c "print(f'{$large / $small:.2f}')"))"

# 3. Rebuild step vs the same 12-step SQL in the sqlite3 shell.
fill "$WORK/rb.sqlite" "$ROWS"
cp "$WORK/rb.sqlite" "$WORK/shell.sqlite"
a=$(now); "$STRATA" migrate --store "$WORK/rb.sqlite" --models "$WORK/rebuild" >/dev/null; b=$(now)
c=$(now)
sqlite3 "$WORK/shell.sqlite" <<'SQL'
PRAGMA foreign_keys = OFF;
BEGIN IMMEDIATE;
CREATE TABLE "strata_new_Recipe" ("_pk" INTEGER PRIMARY KEY AUTOINCREMENT, "name" TEXT, "rating" INTEGER);
INSERT INTO "strata_new_Recipe" ("_pk", "name", "rating") SELECT "_pk", "name", "rating" FROM "Recipe";
DROP TABLE "Recipe";
ALTER TABLE "strata_new_Recipe" RENAME TO "Recipe";
CREATE INDEX "strata_idx_Recipe_name" ON "Recipe" ("name");
PRAGMA foreign_key_check;
COMMIT;
PRAGMA foreign_keys = ON;
SQL
d=$(now)
strata_s=$(elapsed "$a" "$b"); shell_s=$(elapsed "$c" "$d")
echo "rebuild step, $ROWS rows: strata $strata_s s, sqlite3 shell $shell_s s (ratio $(python3 -c "print(f'{$strata_s / $shell_s:.2f}')"))"
sqlite3 "$WORK/rb.sqlite" "SELECT count(*), sum(rating) FROM Recipe" | sed 's/^/  check strata store: /'
sqlite3 "$WORK/shell.sqlite" "SELECT count(*), sum(rating) FROM Recipe" | sed 's/^/  check shell store:  /'
