"""Seeded, reproducible data for the benchmarks: the example recipes app at any row count.

Rows are generated once per (row count, seed, generator version) into a plain SQLite "source"
file under bench-out/data/ (cached across runs), then copied into real Strata stores with
`INSERT ... SELECT` from an attached database, one transaction per store.

Value spreads (NOW is fixed, see NOW_ISO):
- Recipe.lastUsed: 5% NULL, else uniform over the 365 days before NOW (so ~7.8% are within
  30 days of NOW and ~9.9% older than 327 days).
- Recipe.rating: 0-5, weighted towards 3-4. Recipe.portions: 1-12, 3% NULL, 0.1% zero (breaks min 1).
- Recipe.name: dish names with unicode (é, ß, ø, Cyrillic, Japanese) plus a number; 0.05% empty,
  0.02% longer than 200 characters. These findings stay in the audit store only (fill_store's `clean`).
- Recipe.notes: 60% NULL. Recipe.favorite: 2% true. Recipe.author: one of the chefs, 10% NULL.
- Ingredient: 1-3 per recipe (2 on average), Chef: 50.
"""
import datetime
import os
import random
import sqlite3

GENERATOR_VERSION = 1
NOW_ISO = "2025-06-01T00:00:00Z"
NOW = datetime.datetime(2025, 6, 1, tzinfo=datetime.timezone.utc).timestamp()
DAY = 86400.0
CHEFS = 50

DISHES = [
    "Crème brûlée", "Smørrebrød", "Käsespätzle", "Phở bò", "Paella valenciana", "Ratatouille",
    "Tarte Tatin", "Şakşuka", "Gâteau basque", "Straßenbrot", "お好み焼き", "Борщ", "Pão de queijo",
    "Bœuf bourguignon", "Jollof rice", "Ćevapi", "Kimchi jjigae", "Moussaka", "Pierogi ruskie", "Açaí bowl",
]
INGREDIENTS = [
    "Farine", "Œufs", "Crème fraîche", "Zucker", "Smør", "Lait", "Riz", "Tomates", "Knoblauch",
    "Gochugaru", "Kurkuma", "Sel", "Poivre", "Huile d'olive", "Thym", "Açúcar", "Мука", "醤油",
]
UNITS = ["g", "kg", "ml", "cl", "pcs", "tbsp", "tsp", "pinch", "½ cup"]
NOTES = [
    "Family favourite", "Less salt next time", "Double the garlic", "Serve with crème fraîche",
    "Kids loved it 👍", "Too spicy for Grandma", "Use the cast-iron pan", "Freeze half",
]


def source_path(directory, rows, seed):
    """The cached source file for `rows` recipes with `seed`."""
    return os.path.join(directory, f"source-{rows}-s{seed}-g{GENERATOR_VERSION}.sqlite")


def ensure_source(directory, rows, seed, log):
    """Generates the source file unless it is cached; returns its path."""
    os.makedirs(directory, exist_ok=True)
    path = source_path(directory, rows, seed)
    if os.path.exists(path):
        return path
    log(f"generating {rows:,} recipes (seed {seed}) ...")
    partial = path + ".partial"
    if os.path.exists(partial):
        os.remove(partial)
    db = sqlite3.connect(partial)
    db.executescript("""
        PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;
        CREATE TABLE Chef (_pk INTEGER PRIMARY KEY, name TEXT, email TEXT);
        CREATE TABLE Recipe (_pk INTEGER PRIMARY KEY, name TEXT, lastUsed REAL, portions INTEGER,
                             rating INTEGER, notes TEXT, favorite INTEGER, author INTEGER);
        CREATE TABLE Ingredient (_pk INTEGER PRIMARY KEY, name TEXT, quantity TEXT, recipe INTEGER);
    """)
    rng = random.Random(seed)
    db.execute("BEGIN")
    db.executemany("INSERT INTO Chef VALUES (?, ?, ?)",
                   ((i, f"Chef {name} {i}", f"chef{i}@example.org") for i, name in
                    ((i, rng.choice(["Zoë", "Jürgen", "Ana", "Søren", "Mei", "Олег"])) for i in range(1, CHEFS + 1))))
    db.executemany("INSERT INTO Recipe VALUES (?, ?, ?, ?, ?, ?, ?, ?)", _recipes(rng, rows))
    db.executemany("INSERT INTO Ingredient (name, quantity, recipe) VALUES (?, ?, ?)", _ingredients(rng, rows))
    db.commit()
    db.close()
    os.replace(partial, path)
    return path


def _recipes(rng, rows):
    r = rng.random
    for pk in range(1, rows + 1):
        x = r()
        if x < 0.0005:
            name = ""
        elif x < 0.0007:
            name = "Très long " * 25
        else:
            name = f"{DISHES[int(r() * len(DISHES))]} #{pk}"
        last_used = None if r() < 0.05 else NOW - r() * 365 * DAY
        y = r()
        portions = None if y < 0.03 else (0 if y < 0.031 else 1 + int(r() * 12))
        rating = rng.choices((0, 1, 2, 3, 4, 5), weights=(5, 8, 15, 30, 27, 15))[0]
        notes = NOTES[int(r() * len(NOTES))] if r() < 0.4 else None
        favorite = 1 if r() < 0.02 else 0
        author = None if r() < 0.1 else 1 + int(r() * CHEFS)
        yield (pk, name, last_used, portions, rating, notes, favorite, author)


def _ingredients(rng, rows):
    r = rng.random
    for recipe in range(1, rows + 1):
        for _ in range(1 + int(r() * 3)):
            yield (INGREDIENTS[int(r() * len(INGREDIENTS))], f"{1 + int(r() * 500)} {UNITS[int(r() * len(UNITS))]}", recipe)


def fill_store(store, source, with_favorite=True, clean=False):
    """Copies the source rows into a freshly created Strata store, in one transaction.

    `clean` replaces the values that break the example's rules (empty or over-long names, zero
    portions), so that hooks audited before commit pass; the audit store keeps them as findings.
    """
    db = sqlite3.connect(store, isolation_level=None)
    db.execute("ATTACH DATABASE ? AS src", (source,))
    columns = ["_pk", "name", "lastUsed", "portions", "rating", "notes", "author"] + (["favorite"] if with_favorite else [])
    values = {c: f'"{c}"' for c in columns}
    if clean:
        values["name"] = """CASE WHEN length("name") BETWEEN 1 AND 200 THEN "name" ELSE 'Recipe ' || "_pk" END"""
        values["portions"] = 'CASE WHEN "portions" = 0 THEN 1 ELSE "portions" END'
    db.execute("BEGIN")
    db.execute('INSERT INTO main."Chef" ("_pk", "name", "email") SELECT _pk, name, email FROM src.Chef')
    db.execute(f'INSERT INTO main."Recipe" ({", ".join(values)}) SELECT {", ".join(values.values())} FROM src.Recipe')
    db.execute('INSERT INTO main."Ingredient" ("_pk", "name", "quantity", "recipe") '
               'SELECT _pk, name, quantity, recipe FROM src.Ingredient')
    db.execute("COMMIT")
    db.execute("DETACH DATABASE src")
    db.close()
