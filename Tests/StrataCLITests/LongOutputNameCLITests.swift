import Foundation
import StrataCore
import Testing

/// Output and backup names near the file system's 255-byte limit (`NAME_MAX`): legal names whose temporary
/// (`.<name>.strata-<kind>-<pid>-<uuid>`) went past the limit, so the write failed, for `--changes-out` and
/// `--report` after the work they record had committed, and for a fleet's `--backup-dir` in the middle of a run.
/// The temporary now starts with at most ``PathText/temporaryStemBytes`` of the name.
@Suite struct LongOutputNameCLITests {
    static func name(_ bytes: Int, _ ending: String) -> String {
        String(repeating: "c", count: bytes - ending.utf8.count) + ending
    }

    @Test func aTemporaryStartsWithTheNameCutToItsStemAtAScalarBoundary() {
        #expect(PathText.temporaryStem("app.sqlite") == "app.sqlite")
        let long = String(repeating: "é", count: 100)   // 200 bytes, 2 a scalar
        #expect(PathText.temporaryStem(long) == String(repeating: "é", count: PathText.temporaryStemBytes / 2))
        #expect(PathText.temporaryStem(long).utf8.count <= PathText.temporaryStemBytes)
    }

    @Test func changesOutAndReportWithNamesNearTheLimitAreWritten() throws {
        let project = try FleetProject()
        try project.store("app.sqlite", version: 4, recipes: 0)
        try E2E.execute(project.dir + "/app.sqlite", #"INSERT INTO "Recipe" ("name", "portions", "rating", "favorite") VALUES ('x', 5, 0, 0)"#)
        let changes = Self.name(255, ".json"), report = Self.name(254, ".json")
        let batch = try project.run(["batch", "update", "--store", "app.sqlite", "--entity", "Recipe", "--set", "portions=1",
                                     "--result", "ids", "--changes-out", changes], now: false)
        #expect(batch.status == 0, "\(batch.stderr)")
        let data = try Data(contentsOf: URL(fileURLWithPath: project.dir + "/" + changes))
        let json = try JSONSerialization.jsonObject(with: data) as? [String: [String: [String]]]
        #expect(json?["updated"]?["Recipe"]?.map { $0.hasSuffix("/Recipe/p1") } == [true], "\(String(decoding: data, as: UTF8.self))")
        #expect(try E2E.rows(project.dir + "/app.sqlite", #"SELECT "portions" FROM "Recipe""#) == ["1"])
        let audit = try project.run(["audit", "--store", "app.sqlite", "--report", report], now: false)
        #expect(audit.status == 0, "\(audit.stderr)")
        let text = try String(contentsOfFile: project.dir + "/" + report, encoding: .utf8)
        #expect(text.contains("\"failingRules\" : 0"), "\(text)")
        let left = try FileManager.default.contentsOfDirectory(atPath: project.dir).filter { $0.contains(".strata-") }
        #expect(left == [])
    }

    @Test func aBackupWithANameNearTheLimitIsWritten() throws {
        let project = try FleetProject()
        try project.store("app.sqlite")
        let backup = "bk/" + Self.name(250, ".sqlite")
        try FileManager.default.createDirectory(atPath: project.dir + "/bk", withIntermediateDirectories: true)
        let r = try project.run(["migrate", "--store", "app.sqlite", "--backup", backup])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try E2E.rows(project.dir + "/" + backup, #"SELECT "value" FROM "strata_metadata" WHERE "key" = 'strata.version'"#) == ["1"])
        #expect(try project.version("app.sqlite") == "4")
    }

    /// A store path whose fleet backup name (`a%2F…%2Fx.sqlite`) is 200 bytes: every store is migrated and
    /// backed up, where the second store failed (exit 1) after the first had migrated.
    @Test func aFleetBackupWithALongNameIsWritten() throws {
        let project = try FleetProject()
        let deep = "t/" + String(repeating: "d", count: 90) + "/" + String(repeating: "e", count: 90)
        for store in ["t/a.sqlite", deep + "/x.sqlite", "t/z.sqlite"] { try project.store(store) }
        try FileManager.default.createDirectory(atPath: project.dir + "/bk", withIntermediateDirectories: true)
        try "t/a.sqlite\n\(deep)/x.sqlite\nt/z.sqlite\n".write(toFile: project.dir + "/list.txt", atomically: true, encoding: .utf8)
        let r = try project.run(["migrate", "--stores-from", "list.txt", "--backup-dir", "bk", "--format", "json", "--no-progress"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try FleetProject.codes(r.stdout) == ["t/a.sqlite: 0", "\(deep)/x.sqlite: 0", "t/z.sqlite: 0"])
        let backups = try FileManager.default.contentsOfDirectory(atPath: project.dir + "/bk").sorted()
        #expect(backups == ["t%2Fa.sqlite", deep.replacingOccurrences(of: "/", with: "%2F") + "%2Fx.sqlite", "t%2Fz.sqlite"])
    }
}
