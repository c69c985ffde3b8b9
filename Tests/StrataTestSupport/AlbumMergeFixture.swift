/// Version 1 has photos and videos, with albums that hold photos (a many-to-many). Version 2 merges both
/// into Media, mapped by `mapping`. The PostgreSQL planner's tests and the engine parity tests both use it.
public enum AlbumMergeFixture {
    public static let v1 = """
        version: 1
        entities:
          Album:
            attributes: { title: { type: string } }
            relationships: { photos: { destination: Photo, toMany: true, inverse: albums } }
          Photo:
            attributes: { name: { type: string } }
            relationships: { albums: { destination: Album, toMany: true, inverse: photos } }
          Video:
            attributes: { name: { type: string } }
        """

    public static let v2 = """
        version: 2
        entities:
          Album:
            attributes: { title: { type: string } }
            relationships: { photos: { destination: Media, toMany: true, inverse: albums } }
          Media:
            attributes: { name: { type: string } }
            relationships: { albums: { destination: Album, toMany: true, inverse: photos } }
        """

    /// The mapping file of version 2: Media from Video and Photo.
    public static let mapping = "mapping: { from: 1, to: 2 }\nentities:\n  Media: { source: [Video, Photo] }\n"
}
