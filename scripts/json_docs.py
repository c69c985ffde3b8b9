"""Renders Docs/json.md from the JSON documents scripts/json-docs.sh collected (argv[1])."""
import json
import os
import sys

src = sys.argv[1]


def load(name):
    with open(os.path.join(src, name)) as f:
        return json.load(f)


def trim(o):
    if isinstance(o, list):
        return [trim(x) for x in o[:2]] + (["…"] if len(o) > 2 else [])
    if isinstance(o, dict):
        return {k: trim(v) for k, v in o.items()}
    if isinstance(o, str) and len(o) > 100:
        return o[:97] + "…"
    return o


SECTIONS = [
    ("migrate (create)", "create.json", "`strata migrate --create --to 3 --store a.sqlite --format json`",
     "A created store: `created` is true, `storeUUID` is set, `notNeededHooks` lists the hooks recorded as not needed "
     "(their version is at or below the creation version). The document is the report of `--report-format json`: "
     "`title`, `passed` (false when a hook was rolled back for violations) and `migration`."),
    ("migrate", "migrate.json", "`strata migrate --store a.sqlite --now 2024-06-01 --format json`",
     "`migration.steps[]`: one per version step, with `changes` (text), `tables` (kind create/alter/rebuild/drop, reasons), "
     "`rowsCopied` per rebuilt table, `destructive` (change, count of values/rows dropped, sample values), `sql`, `duration`, "
     "`committed`. `migration.hooks[]`: per hook `id`, `after`, `steps[]` (kind, entity, `count` matched, `objectIDs` when the "
     "result type asks, updated/deleted counts per entity), `rowsAffected`, the hook's `audit` (shape of `audit` below), "
     "`committed`, `late`, `outcome` (committed/warned/rolledBack), `violations`. `migration.changes`: `updated`/`deleted` "
     "object IDs per entity (when collected) and `updatedCounts`/`deletedCounts`. `nothingToDo` is true when the store was "
     "already at the target (a rerun, or another process migrated it while this one waited for the lock). A dry run has "
     "`dryRun: true` and the counts the real run then has (with the same `--now`)."),
    ("status", "status.json", "`strata status --format json`",
     "`drift[]` items have `kind` (entityHash, modelHash, missingModel, missingTable, missingColumn, extraColumn, columnType, "
     "columnConstraint, foreignKey, missingIndex, extraIndex, indexDefinition, editedHook), `table`, `column`, `expected`, "
     "`found`. Exit 0 consistent, 6 drift; with `--check`, 7 when `pendingVersions`, `pendingHooks` or `lateHooks` is non-empty."),
    ("diff", "diff.json", "`strata diff 3 4 --format json`",
     "One entry per version step between FROM and TO, no store needed. `destructive` lists the changes that lose data."),
    ("lint", "lint.json", "`strata lint --format json`",
     "`ok` is false when any error was found (exit 2); `hooks` counts the hook files checked; `diagnostics[]` have "
     "`severity`, `message`, `file`, `line`, `column`, `hint`."),
    ("audit", "audit.json", "`strata audit --store a.sqlite --format json`",
     "`audit.rules[]` lists every rule checked (clean ones with `count` 0): `entity`, `property` (null for entity rules), "
     "`rule`, `code` (1550–1700), `constraint`, `count` (exact), `failing` (per `--fail-on`), `samples[]` (at most "
     "`--max-samples`: `objectID`, `value`, `related` for duplicate groups). Exit 3 when a failing rule has violations."),
    ("batch", "batch.json", "`strata batch update --entity Recipe --set rating=5 --where \"name == 'Soup'\" --result ids --format json`",
     "`count` matched, `objectIDs` (with `--result ids`), `changes` (object IDs and counts per entity, cascades and nullified "
     "relationships included), `audit` (the audit before commit; absent with `--audit none`), `rolledBack` (true on exit 3)."),
    ("history", "history.json", "`strata history --format json`",
     "`migrations[]` (kind create/adopt/migrate, from/to, timestamps, duration in seconds, tool version) and `hooks[]` "
     "(status applied/notNeeded, checksum, rowsAffected, per-step `results`)."),
    ("meta", "meta.json", "`strata meta list --format json`",
     "`system` keys are Strata's (read-only), `user` keys are set with `strata meta set`."),
]

out = [
    "# JSON output", "",
    "With `--format json` every command prints exactly one JSON document on stdout, with a top-level",
    "`\"schemaVersion\": 1`; diagnostics and progress go to stderr. Keys are sorted. Object IDs are",
    "`x-strata://<store-uuid>/<Entity>/p<pk>` URIs; dates are ISO 8601 (UTC). The examples below are real",
    "outputs on the example project, written by `scripts/json-docs.sh` (arrays cut to two entries, long",
    "strings cut). Tests parse each document (`Tests/StrataCLITests`).", "",
    "## Errors", "",
    "Any command that fails prints an error document (and the diagnostics on stderr), exit code as SPEC §8:", "",
    "```json", json.dumps(load("error.json"), indent=2, sort_keys=True), "```", "",
]
for title, name, command, description in SECTIONS:
    out += [f"## {title}", "", command, "", description, "", "```json",
            json.dumps(trim(load(name)), indent=2, sort_keys=True, ensure_ascii=False), "```", ""]
out += [
    "## --changes-out FILE", "",
    "`migrate` and `batch` write the change set an application merges into its in-memory objects",
    "(Core Data's `mergeChanges(fromRemoteContextSave:into:)`): exactly `updated` and `deleted`, object IDs per entity.", "",
    "```json",
    '{\n  "deleted": { "Ingredient": ["x-strata://…/Ingredient/p2"], "Recipe": ["x-strata://…/Recipe/p2"] },\n'
    '  "updated": { "Recipe": ["x-strata://…/Recipe/p1", "x-strata://…/Recipe/p4"] }\n}',
    "```", "",
]
print("\n".join(out))
