#!/usr/bin/env bash
# The main job on the bundled recipes example, end to end, in a temporary directory:
# a v1 store with realistic rows is checked, previewed (dry run), migrated to v4 with its hooks,
# audited, and its status and history are shown.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! { [ -f /usr/include/sqlite3.h ] && command -v sqlite3 >/dev/null; }; then
  apt-get update -q && apt-get install -y -q libsqlite3-dev sqlite3
fi
echo "== building strata (release)"
swift build -c release --product strata 2>&1 | tail -1
strata="$PWD/.build/release/strata"
work=$(mktemp -d)
store="$work/recipes.sqlite"
run() { echo; echo "\$ strata $*"; "$strata" "$@" --models models --migrations migrations; }

run lint
run migrate --store "$store" --create --to 1
echo; echo "(filling the v1 store with sample recipes: some used this month, some drafts)"
sqlite3 "$store" <<'SQL'
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200)
INSERT INTO "Recipe" ("name", "lastUsed", "servings", "rating")
SELECT CASE WHEN i % 25 = 0 THEN 'Untitled' ELSE 'Recipe ' || i END,
       CASE WHEN i % 25 = 0 THEN NULL ELSE strftime('%s', 'now') - (i * 2 % 365) * 86400 END,
       1 + i % 6, i % 6
FROM n;
INSERT INTO "Ingredient" ("name", "quantity", "recipe")
SELECT 'salt', '1 tsp', "_pk" FROM "Recipe" UNION ALL SELECT 'flour', '200 g', "_pk" FROM "Recipe";
SQL
now=$(date -u +%Y-%m-%dT%H:%M:%SZ)
run migrate --store "$store" --dry-run --now "$now"
run migrate --store "$store" --now "$now" --backup "$work/recipes-before-v4.sqlite"
run audit --store "$store"
run status --store "$store"
run history --store "$store"
echo; echo "(store left at $store)"
