#!/usr/bin/env bash
# Builds this application's own `strata` (its own build folder) and runs it on a temporary store:
# the Swift stage runs once in the step to v2; the stock `strata` (first argument, optional) refuses with 7.
set -euo pipefail
cd "$(dirname "$0")"
build() { swift build --scratch-path .build-example --product own-strata 2>&1 | tail -1; }
# A kept build folder can miss that a file of the Strata package (a path dependency) was deleted: start clean then.
build || { rm -rf .build-example; build; }
own="$PWD/.build-example/debug/own-strata"
stock="${1:-}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r models migrations "$work/"
cd "$work"
"$own" lint
"$own" migrate --create --to 1 --store app.sqlite >/dev/null
sqlite3 app.sqlite "INSERT INTO Contact(name) VALUES ('  Ada Lovelace '), ('Grace Hopper'), ('Plato')"
if [ -n "$stock" ]; then
  set +e; "$stock" migrate --store app.sqlite 2>stock.err; code=$?; set -e
  [ "$code" -eq 7 ] || { echo "stock strata: expected exit 7, got $code"; cat stock.err; exit 1; }
  grep -q "Swift stage 'tidy-names'" stock.err || { echo "stock strata did not name the stage"; cat stock.err; exit 1; }
fi
"$own" migrate --store app.sqlite
got=$(sqlite3 app.sqlite "SELECT group_concat(name || '/' || firstName, ',') FROM (SELECT * FROM Contact ORDER BY _pk)")
[ "$got" = "Ada Lovelace/Ada,Grace Hopper/Grace,Plato/Plato" ] || { echo "unexpected rows: $got"; exit 1; }
"$own" migrate --store app.sqlite | grep -q "nothing to do" || { echo "rerun was not a no-op"; exit 1; }
[ "$(sqlite3 app.sqlite "SELECT status FROM strata_hooks WHERE id = 'tidy-names'")" = applied ]
echo "Examples/OwnStrata: ok"
