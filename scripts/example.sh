#!/usr/bin/env bash
# Runs the main job on the bundled recipes example, end to end, in a temporary directory.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! { [ -f /usr/include/sqlite3.h ] && command -v sqlite3 >/dev/null; }; then
  apt-get update -q && apt-get install -y -q libsqlite3-dev sqlite3
fi
swift build -c release --product strata >/dev/null
strata="$PWD/.build/release/strata"
work=$(mktemp -d)
store="$work/recipes.sqlite"
echo "== strata lint"
"$strata" lint --models models --migrations migrations
echo "== strata migrate --create (store at the newest version)"
"$strata" migrate --models models --migrations migrations --store "$store" --create
echo "== strata status"
"$strata" status --models models --migrations migrations --store "$store"
echo "== strata history"
"$strata" history --store "$store"
echo "(store left at $store)"
