import Foundation
import Testing

/// Reports and change sets hold the store's data (samples, object IDs): like backups, they get no wider
/// permission bits than the store's (SPEC §9). A 0600 store gave a 0644 report (0666 with umask 000).
@Suite struct OutputPermissionsCLITests {
    static func mode(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? Int) ?? -1
    }

    static var umask: Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("Umask:") } ?? "Umask: 022"
        return Int(line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8) ?? 0o022
    }

    @Test(arguments: [0o600, 0o640, 0o644])
    func outputsAreNoWiderThanTheStore(_ storeMode: Int) throws {
        let (dir, path) = try StoreHardeningCLITests.hookProject(recipes: 30)
        try FileManager.default.setAttributes([.posixPermissions: storeMode], ofItemAtPath: path)
        // An existing report keeps its own bits, within the store's.
        try "old".write(toFile: dir + "/old.json", atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o664], ofItemAtPath: dir + "/old.json")
        let runs: [[String]] = [
            ["migrate", "--store", "app.sqlite", "--report", "migrate.md", "--changes-out", "changes.json"] + StoreHardeningCLITests.now,
            ["audit", "--store", "app.sqlite", "--report", "audit.html"],
            ["audit", "--store", "app.sqlite", "--report", "old.json"],
            ["batch", "update", "--store", "app.sqlite", "--entity", "Recipe", "--set", "rating=1", "--changes-out", "batch.json"] + StoreHardeningCLITests.now,
        ]
        for run in runs {
            let r = try CLI.run(run, in: dir)
            #expect(r.status == 0, "\(run): \(r.stderr)")
        }
        let fresh = 0o666 & ~Self.umask & storeMode
        for file in ["migrate.md", "changes.json", "audit.html", "batch.json"] {
            #expect(Self.mode(dir + "/" + file) == fresh, "\(file)")
        }
        #expect(Self.mode(dir + "/old.json") == 0o664 & storeMode)
        #expect(try String(contentsOfFile: dir + "/old.json", encoding: .utf8).hasPrefix("{"))
        // No temporary file is left beside them.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.contains(".strata-output-") } == [])
    }
}
