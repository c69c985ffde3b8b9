#!/usr/bin/env bash
# Regenerates Docs/json.md from real `--format json` outputs of the example project.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product strata >/dev/null
S="$PWD/.build/debug/strata"
work=$(mktemp -d)
cp -r models migrations "$work/"
cd "$work"
"$S" migrate --create --to 3 --store a.sqlite --format json > create.json
sqlite3 a.sqlite "INSERT INTO Recipe(name,lastUsed,portions,rating) VALUES ('Soup', 1717200000-86400, 4, 4), ('Untitled', NULL, 2, 0)"
"$S" migrate --store a.sqlite --now 2024-06-01 --format json > migrate.json
"$S" status --store a.sqlite --format json > status.json
"$S" diff 3 4 --format json > diff.json
"$S" lint --format json > lint.json
"$S" audit --store a.sqlite --format json > audit.json
"$S" batch update --store a.sqlite --entity Recipe --set rating=5 --where "name == 'Soup'" --result ids --format json > batch.json
"$S" history --store a.sqlite --format json > history.json
"$S" meta list --store a.sqlite --format json > meta.json
"$S" migrate --store nope.sqlite --format json > error.json 2>/dev/null || true
cd - >/dev/null
python3 scripts/json_docs.py "$work" > Docs/json.md
echo "wrote Docs/json.md"
