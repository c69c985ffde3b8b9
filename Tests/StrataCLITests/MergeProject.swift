import Foundation
import GRDB
import StrataTestSupport

/// A project whose v1 → v2 step merges `Photo` and `Video` into `Media` (issue 15, SPEC §11.3): per-source
/// expressions for `duration`, `name` and `album` carried by name from both, `width` from Photo only; `Tag.photo`
/// and `Comment.video` become links to `Media` (renamedFrom), re-linked to the new IDs; `Album` keeps its IDs.
enum MergeProject {
    static let v1 = """
        version: 1
        entities:
          Album:
            attributes:
              title: { type: string }
            relationships:
              photos: { destination: Photo, toMany: true, inverse: album, deleteRule: cascade }
              videos: { destination: Video, toMany: true, inverse: album, deleteRule: cascade }
          Photo:
            attributes:
              name:  { type: string }
              width: { type: int64 }
            relationships:
              album: { destination: Album, inverse: photos, deleteRule: nullify }
              tags:  { destination: Tag, toMany: true, inverse: photo, deleteRule: nullify }
          Video:
            attributes:
              name:    { type: string }
              seconds: { type: string }
            relationships:
              album:    { destination: Album, inverse: videos, deleteRule: nullify }
              comments: { destination: Comment, toMany: true, inverse: video, deleteRule: cascade }
          Tag:
            attributes:
              label: { type: string }
            relationships:
              photo: { destination: Photo, inverse: tags, deleteRule: nullify }
          Comment:
            attributes:
              text: { type: string }
            relationships:
              video: { destination: Video, inverse: comments, deleteRule: nullify }
        """
    static let v2 = """
        version: 2
        entities:
          Album:
            attributes:
              title: { type: string }
            relationships:
              media: { destination: Media, toMany: true, inverse: album, deleteRule: cascade }
          Media:
            attributes:
              name:     { type: string }
              width:    { type: int64 }
              duration: { type: int64, optional: false }
            relationships:
              album:    { destination: Album, inverse: media, deleteRule: nullify }
              tags:     { destination: Tag, toMany: true, inverse: media, deleteRule: nullify }
              comments: { destination: Comment, toMany: true, inverse: media, deleteRule: cascade }
          Tag:
            attributes:
              label: { type: string }
            relationships:
              media: { destination: Media, inverse: tags, deleteRule: nullify, renamedFrom: photo }
          Comment:
            attributes:
              text: { type: string }
            relationships:
              media: { destination: Media, inverse: comments, deleteRule: nullify, renamedFrom: video }
        """
    static let mapping = """
        mapping: { from: 1, to: 2 }
        entities:
          Media:
            source: [Photo, Video]
            attributes:
              duration: { Photo: "0", Video: "int64(seconds)" }
        """

    /// The project with `files` in `migrations/` and a v1 store: albums 1, 2; photos 1…3; videos 1, 2, 7 (9 was
    /// deleted: `sqlite_sequence` says 9); tags on photos 1 and 3 and one without; comments on videos 7 and 1
    /// and one without. `seconds` of video 2 is `badSeconds` when given.
    static func make(_ files: [String: String], badSeconds: String? = nil) throws -> (dir: String, store: String) {
        let (dir, store) = try MappingProject.project(v1: v1, v2: v2, files: files, name: "merge")
        let queue = try DatabaseQueue(path: store)
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO "Album" ("_pk", "title") VALUES (1, 'a1'), (2, 'a2');
                INSERT INTO "Photo" ("_pk", "name", "width", "album") VALUES (1, 'p1', 100, 1), (2, 'p2', 200, NULL), (3, 'p3', 300, 2);
                INSERT INTO "Video" ("_pk", "name", "seconds", "album") VALUES (1, 'v1', '10', 1), (2, 'v2', ?, 2), (7, 'v7', '70', NULL), (9, 'v9', '90', NULL);
                DELETE FROM "Video" WHERE "_pk" = 9;
                INSERT INTO "Tag" ("_pk", "label", "photo") VALUES (1, 't1', 1), (2, 't2', 3), (3, 't3', NULL);
                INSERT INTO "Comment" ("_pk", "text", "video") VALUES (1, 'c1', 7), (2, 'c2', 1), (3, 'c3', NULL);
                """, arguments: [badSeconds ?? "20"])
        }
        try queue.close()
        return (dir, store)
    }

    static func uuid(_ store: String) throws -> String {
        try ExampleData.query(store, #"SELECT "value" FROM "strata_metadata" WHERE "key" = 'strata.uuid'"#) ?? ""
    }
}
