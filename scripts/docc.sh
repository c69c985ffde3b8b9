#!/usr/bin/env bash
# Builds the DocC documentation of the Strata and StrataCore modules from an existing debug build
# (`swift build` first) and fails on any warning in the catalogs (a broken symbol link, a missing topic).
#   scripts/docc.sh [OUTPUT_DIR]      # default: .build/docc; open OUTPUT_DIR/Strata.doccarchive with a DocC viewer
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-.build/docc}"
modules="$(swift build --show-bin-path)/Modules"
triple="$(swift -print-target-info | python3 -c 'import json,sys; print(json.load(sys.stdin)["target"]["triple"])')"
graphs="$(mktemp -d)"
trap 'rm -rf "$graphs"' EXIT
for module in StrataCore Strata; do
  swift symbolgraph-extract -module-name "$module" -I "$modules" \
    -I .build/checkouts/GRDB.swift/Sources/GRDBSQLite -I .build/checkouts/Yams/Sources/CYaml/include -I Sources/CSQLiteSettings/include \
    -target "$triple" -minimum-access-level public -output-dir "$graphs" 2>/dev/null
done
mkdir -p "$out"
status=0
for module in Strata StrataCore; do
  log="$(docc convert "Sources/$module/$module.docc" --additional-symbol-graph-dir "$graphs" \
    --output-path "$out/$module.doccarchive" --fallback-display-name "$module" \
    --fallback-bundle-identifier "strata.$module" 2>&1)"
  # Warnings about the catalogs themselves fail the check; doc-comment gaps elsewhere are reported by DocC only.
  if grep -A1 '^warning' <<<"$log" | grep -q "$module.md"; then
    grep -A3 '^warning' <<<"$log" | grep -B1 -A2 "$module.md" >&2
    status=1
  fi
done
echo "DocC archives in $out"
exit $status
