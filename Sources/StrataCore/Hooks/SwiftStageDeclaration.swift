/// The file that declares a Swift stage (SPEC §11.2): `swift: true`, `revision:`, optional `writes:` and
/// `engines:`. The code is registered by the application (`Stages.register`); the file is what lets every
/// binary, the stock `strata` included, know the stage exists.
public struct SwiftStageDeclaration: Sendable, Hashable {
    /// Changing it after the stage ran is drift: the marker's checksum is SHA-256 of `id + "\n" + revision`.
    public var revision: String
    /// Where `revision:` is, for located errors.
    public var revisionLocation: SourceLocation?
    /// Entities the stage writes: audited in full after it runs.
    public var writes: [String]
    /// Where each `writes:` entry is, for located errors.
    public var writeLocations: [SourceLocation]
    /// `sqlite`, `postgresql`; nil when every engine.
    public var engines: [String]?

    public init(revision: String, writes: [String] = [], writeLocations: [SourceLocation] = [], engines: [String]? = nil) {
        self.revision = revision
        self.writes = writes
        self.writeLocations = writeLocations
        self.engines = engines
    }

    /// The marker checksum of stage `id` at `revision`.
    public static func checksum(id: String, revision: String) -> String { SHA256.hex(id + "\n" + revision) }
}
