import Foundation
import Testing

/// The test harness itself: `CLI.run` must return whatever the binary writes, however much.
@Suite struct CLIRunnerTests {
    /// 1,200 hook files with one unknown attribute each make `lint` write about 150 KB of diagnostics:
    /// more than a pipe holds, so a runner that drains stdout before stderr would hang here.
    @Test func drainsMoreThanAPipeOfStderr() throws {
        let dir = try CLI.exampleProject()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let hooks = dir + "/migrations"
        try? FileManager.default.removeItem(atPath: hooks)
        try FileManager.default.createDirectory(atPath: hooks, withIntermediateDirectories: true)
        let count = 1200
        for i in 0..<count {
            let yaml = """
            id: broken-\(i)
            after: 2
            steps:
              - batchUpdate:
                  entity: Recipe
                  predicate: "nosuch\(i) == 1"
                  propertiesToUpdate: { rating: 1 }

            """
            try yaml.write(toFile: hooks + "/h\(i).yaml", atomically: false, encoding: .utf8)
        }
        let result = try CLI.run(["lint"], in: dir)
        #expect(result.status == 2)
        #expect(result.stderr.utf8.count > 1 << 16)
        for i in [0, count / 2, count - 1] {
            #expect(result.stderr.contains("migrations/h\(i).yaml:6:"))
            #expect(result.stderr.contains("Recipe has no attribute 'nosuch\(i)'"))
        }
    }
}
