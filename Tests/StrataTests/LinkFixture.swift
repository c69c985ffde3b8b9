import Foundation
import GRDB
@testable import Strata

/// A small store for batch inserts and relationship links: a hierarchy (abstract Content, Article, Note), users
/// with a sub-entity, posts (to-one author with an ordered to-many inverse), groups (ordered many-to-many).
enum LinkFixture {
    static let model = """
        version: 1
        entities:
          Content:
            abstract: true
            attributes:
              title: { type: string }
              code:  { type: int32 }
            uniqueness: [[code]]
          Article:
            parent: Content
            attributes:
              words: { type: int32, default: 100, optional: false }
            relationships:
              author: { destination: User }
          Note:
            parent: Content
          User:
            attributes:
              userID: { type: int64, indexed: true }
              name:   { type: string, optional: false, default: Anonymous }
              kind:   { type: string }
              born:   { type: date }
            relationships:
              posts:  { destination: Post, toMany: true, ordered: true, inverse: author }
              groups: { destination: Group, toMany: true, inverse: members }
          Admin:
            parent: User
          Post:
            attributes:
              authorID: { type: int32 }
              title:    { type: string, optional: false, minLength: 1 }
            relationships:
              author: { destination: User, inverse: posts }
          Group:
            attributes:
              kind: { type: string }
            relationships:
              members: { destination: User, toMany: true, ordered: true, inverse: groups }
        """

    struct Fixture {
        var store: Store
        var model: Model
        var layout: StoreLayout

        func rows(_ sql: String) throws -> [String] {
            try store.queue.read { db in
                try Row.fetchAll(db, sql: sql).map { row in
                    row.databaseValues.map { value -> String in
                        switch value.storage {
                        case .null: return "nil"
                        case .int64(let i): return String(i)
                        case .double(let d): return String(d)
                        case .string(let s): return s
                        case .blob: return "blob"
                        }
                    }.joined(separator: "|")
                }
            }
        }

        func execute(_ sql: String) throws { try store.queue.write { try $0.execute(sql: sql) } }
    }

    /// Users 1 ann (userID 10), 2 bob (20), 3 cy (30, an Admin), 4 dee (nil); posts by authorID 10, 20, 20, nil, 99.
    static func make() throws -> Fixture {
        let (store, model, layout) = try TestStore.make(yaml: model)
        let f = Fixture(store: store, model: model, layout: layout)
        try f.execute("""
            INSERT INTO "User" ("_pk", "_entity", "userID", "name", "kind") VALUES
              (1, 'User', 10, 'ann', 'a'), (2, 'User', 20, 'bob', 'b'), (3, 'Admin', 30, 'cy', 'a'), (4, 'User', NULL, 'dee', NULL);
            INSERT INTO "Post" ("_pk", "authorID", "title") VALUES (1, 10, 'p1'), (2, 20, 'p2'), (3, 20, 'p3'), (4, NULL, 'p4'), (5, 99, 'p5');
            INSERT INTO "Group" ("_pk", "kind") VALUES (1, 'a'), (2, 'b'), (3, NULL);
            """)
        return f
    }

    static let now = PredicateContext(now: 1_717_200_000)
}
