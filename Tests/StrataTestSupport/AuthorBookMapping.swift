/// A v1 → v2 step with a mapping file that runs on both engines: `Author` becomes `Writer` (only the
/// persons carried, `name` upper-cased), deleted books dropped, `Book.title` recomputed through a to-one key
/// path, `pages` int32 → int64 through an expression with a constant, a new `label` filled. Used by the
/// PostgreSQL step tests and by the CLI test that runs it on SQLite and PostgreSQL side by side.
public enum AuthorBookMapping {
    public static let v1 = """
        version: 1
        entities:
          Author:
            attributes:
              name: { type: string }
              kind: { type: string }
            relationships:
              books: { destination: Book, toMany: true, inverse: author, deleteRule: nullify }
          Book:
            attributes:
              title: { type: string }
              pages: { type: int32 }
              deleted: { type: bool, optional: false, default: false }
            relationships:
              author: { destination: Author, inverse: books, deleteRule: nullify }
        """
    public static let v2 = """
        version: 2
        entities:
          Writer:
            attributes:
              name: { type: string }
            relationships:
              books: { destination: Book, toMany: true, inverse: author, deleteRule: nullify }
          Book:
            attributes:
              title: { type: string }
              pages: { type: int64 }
              label: { type: string }
              deleted: { type: bool, optional: false, default: false }
            relationships:
              author: { destination: Writer, inverse: books, deleteRule: nullify }
        """
    public static let mapping = """
        mapping: { from: 1, to: 2 }
        entities:
          Writer:
            source: Author
            filter: "kind == 'person'"
            attributes: { name: "uppercase(name)" }
          Book:
            filter: "deleted == NO"
            attributes:
              title: "title + ' by ' + coalesce(author.name, '?')"
              pages: "coalesce(pages, 0) + 1"
              label: "title"
        """
    /// Authors 1 Ann (person), 2 Acme (company), 3 Bob (person); books 1…4 (`b3` deleted, `b2` by Acme).
    public static let rows = """
        INSERT INTO "Author" ("_pk", "name", "kind") VALUES (1, 'Ann', 'person'), (2, 'Acme', 'company'), (3, 'Bob', 'person');
        INSERT INTO "Book" ("_pk", "title", "pages", "deleted", "author") VALUES
          (1, 'b1', 10, 0, 1), (2, 'b2', NULL, 0, 2), (3, 'b3', 30, 1, 3), (4, 'b4', 40, 0, NULL);
        """
}
