import Foundation
import GRDB
import StrataTestSupport
import Testing

/// Splits whose parts are pointed at by several relationships (SPEC §11.3 "Carried destinations"; issue 15):
/// `Author` becomes `Person` and `Company`; `Order.author` points at Person, `Invoice.author` at Company,
/// `Book.authors` (many-to-many) at Person. Every link to a carried object is kept; links to objects the part's
/// filter leaves out are dropped. Into separate tables the IDs are kept; as two sub-entities of one table they
/// are new, and every link is re-linked.
@Suite struct MappingSplitCLITests {
    static let v1 = """
        version: 1
        entities:
          Author:
            attributes:
              kind: { type: string }
              name: { type: string }
            relationships:
              orders:   { destination: Order, toMany: true, inverse: author, deleteRule: nullify }
              invoices: { destination: Invoice, toMany: true, inverse: author, deleteRule: nullify }
              books:    { destination: Book, toMany: true, inverse: authors, deleteRule: nullify }
          Order:
            attributes: { ref: { type: string } }
            relationships:
              author: { destination: Author, inverse: orders, deleteRule: nullify }
          Invoice:
            attributes: { ref: { type: string } }
            relationships:
              author: { destination: Author, inverse: invoices, deleteRule: nullify }
          Book:
            attributes: { ref: { type: string } }
            relationships:
              authors: { destination: Author, toMany: true, inverse: books, deleteRule: nullify }
        """
    /// Person and Company in tables of their own, or as sub-entities of an abstract `Party` (one table).
    static func v2(sharedTable: Bool) -> String {
        let parties = sharedTable ? """
              Party:
                abstract: true
                attributes:
                  name: { type: string }
              Person:
                parent: Party
                relationships:
                  orders: { destination: Order, toMany: true, inverse: author, deleteRule: nullify }
                  books:  { destination: Book, toMany: true, inverse: authors, deleteRule: nullify }
              Company:
                parent: Party
            """ : """
              Person:
                attributes:
                  name: { type: string }
                relationships:
                  orders: { destination: Order, toMany: true, inverse: author, deleteRule: nullify }
                  books:  { destination: Book, toMany: true, inverse: authors, deleteRule: nullify }
              Company:
                attributes:
                  name: { type: string }
            """
        return """
            version: 2
            entities:
            \(parties)
                relationships:
                  invoices: { destination: Invoice, toMany: true, inverse: author, deleteRule: nullify }
              Order:
                attributes: { ref: { type: string } }
                relationships:
                  author: { destination: Person, inverse: orders, deleteRule: nullify }
              Invoice:
                attributes: { ref: { type: string } }
                relationships:
                  author: { destination: Company, inverse: invoices, deleteRule: nullify }
              Book:
                attributes: { ref: { type: string } }
                relationships:
                  authors: { destination: Person, toMany: true, inverse: books, deleteRule: nullify }
            """
    }
    static let mapping = """
        mapping: { from: 1, to: 2 }
        entities:
          Person:  { source: Author, filter: "kind == 'person'" }
          Company: { source: Author, filter: "kind == 'company'" }
        """

    /// Authors 1 Ann, 3 Bob (persons), 2 Acme, 4 Zed (companies); orders to 1, 2, 3; invoices to 2, 1, 4; books
    /// 1 (Ann, Acme) and 2 (Bob, Zed).
    static func make(sharedTable: Bool) throws -> (dir: String, store: String) {
        let (dir, store) = try MappingProject.project(v1: v1, v2: v2(sharedTable: sharedTable), files: ["v2.yaml": mapping], name: "split")
        try E2E.execute(store, """
            INSERT INTO "Author" ("_pk", "kind", "name") VALUES (1, 'person', 'Ann'), (2, 'company', 'Acme'), (3, 'person', 'Bob'), (4, 'company', 'Zed');
            INSERT INTO "Order" ("_pk", "ref", "author") VALUES (1, 'o1', 1), (2, 'o2', 2), (3, 'o3', 3);
            INSERT INTO "Invoice" ("_pk", "ref", "author") VALUES (1, 'i1', 2), (2, 'i2', 1), (3, 'i3', 4);
            INSERT INTO "Book" ("_pk", "ref") VALUES (1, 'b1'), (2, 'b2');
            INSERT INTO "_Author_books" ("source", "target") VALUES (1, 1), (2, 1), (3, 2), (4, 2);
            """)
        return (dir, store)
    }

    static let orders = #"SELECT "_pk", "ref", "author" FROM "Order" ORDER BY "_pk""#
    static let invoices = #"SELECT "_pk", "ref", "author" FROM "Invoice" ORDER BY "_pk""#
    static let books = #"SELECT "source", "target" FROM "_Book_authors" ORDER BY 1, 2"#

    @Test func intoSeparateTablesEveryPartKeepsItsLinksAndIDs() throws {
        let (dir, store) = try Self.make(sharedTable: false)
        let r = try CLI.run(["migrate", "--store", "app.sqlite", "--changes-out", "changes.json"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("  mapped Company from Author: 2 carried, 2 dropped by filter, 1 link to them dropped (Invoice.author 1)\n"), "\(r.stdout)")
        #expect(r.stdout.contains("  mapped Person from Author: 2 carried, 2 dropped by filter, 3 links to them dropped (Order.author 1, _Book_authors.target 2)\n"), "\(r.stdout)")
        #expect(try E2E.rows(store, #"SELECT "_pk", "name" FROM "Person" ORDER BY "_pk""#) == ["1|Ann", "3|Bob"])
        #expect(try E2E.rows(store, #"SELECT "_pk", "name" FROM "Company" ORDER BY "_pk""#) == ["2|Acme", "4|Zed"])
        #expect(try E2E.rows(store, Self.orders) == ["1|o1|1", "2|o2|NULL", "3|o3|3"])
        #expect(try E2E.rows(store, Self.invoices) == ["1|i1|2", "2|i2|NULL", "3|i3|4"])
        #expect(try E2E.rows(store, Self.books) == ["1|1", "2|3"])
        #expect(try E2E.rows(store, "PRAGMA foreign_key_check").isEmpty)
        // IDs kept: nothing remapped.
        #expect(try CLI.json(String(contentsOfFile: dir + "/changes.json", encoding: .utf8))["remapped"] == nil)
    }

    @Test func intoOneTableThePartsGetNewIDsAndEveryLinkFollows() throws {
        let (dir, store) = try Self.make(sharedTable: true)
        let uuid = try MergeProject.uuid(store)
        let r = try CLI.run(["migrate", "--store", "app.sqlite", "--changes-out", "changes.json"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("  mapped Company from Author: 2 carried, 2 dropped by filter, 2 with new IDs, 1 link to them dropped (Invoice.author 1)\n"
                                  + "  mapped Person from Author: 2 carried, 2 dropped by filter, 2 with new IDs, 3 links to them dropped (Order.author 1, _Book_authors.target 2)\n"),
                "\(r.stdout)")
        // Company's part first (the hierarchy's order), each in old ID order, above 4.
        #expect(try E2E.rows(store, #"SELECT "_pk", "_entity", "name" FROM "Party" ORDER BY "_pk""#) == ["5|Company|Acme", "6|Company|Zed", "7|Person|Ann", "8|Person|Bob"])
        #expect(try E2E.rows(store, Self.orders) == ["1|o1|7", "2|o2|NULL", "3|o3|8"])
        #expect(try E2E.rows(store, Self.invoices) == ["1|i1|5", "2|i2|NULL", "3|i3|6"])
        #expect(try E2E.rows(store, Self.books) == ["1|7", "2|8"])
        #expect(try E2E.rows(store, "PRAGMA foreign_key_check").isEmpty)
        let remapped = try #require(try CLI.json(String(contentsOfFile: dir + "/changes.json", encoding: .utf8))["remapped"] as? [String: [String: String]])
        let id = { (entity: String, pk: Int) in "x-strata://\(uuid)/\(entity)/p\(pk)" }
        #expect(remapped == ["Company": [id("Author", 2): id("Company", 5), id("Author", 4): id("Company", 6)],
                             "Person": [id("Author", 1): id("Person", 7), id("Author", 3): id("Person", 8)]])
    }
}
