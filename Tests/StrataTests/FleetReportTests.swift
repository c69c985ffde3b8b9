import Foundation
import Testing
@testable import Strata

/// A fleet's exit code (SPEC §14.1: the first present in 1, 6, 4, 3, 2, 5, 7, 0), its store list and its runner.
@Suite struct FleetReportTests {
    @Test(arguments: [
        ([0, 7, 5, 2, 3, 4, 6, 1], 1), ([0, 7, 5, 2, 3, 4, 6], 6), ([0, 7, 5, 2, 3, 4], 4), ([7, 5, 2, 3], 3),
        ([0, 7, 5, 2], 2), ([7, 5, 0], 5), ([0, 7], 7), ([0, 0], 0), ([], 0),
    ] as [([Int32], Int32)])
    func theFirstCodePresentInTheOrderWins(codes: [Int32], expected: Int32) {
        #expect(FleetReport.exitCode(of: codes.map { ExitStatus(rawValue: $0)! }).rawValue == expected)
        let rows = codes.enumerated().map { FleetStoreResult(path: "s\($0.offset)", outcome: .failed, exitCode: ExitStatus(rawValue: $0.element)) }
        // Stores that did not run count for nothing.
        let report = FleetReport(command: "migrate", jobs: 1, stopsOnFailure: true, stores: rows + [.notRun("later")])
        #expect(report.exitCode.rawValue == expected)
    }

    @Test func backupNamesKeepStoresWithOneNameApart() {
        #expect(Fleet.backupPath(forStore: "tenants/a/app.sqlite", in: "b") == "b/tenants%2Fa%2Fapp.sqlite")
        #expect(Fleet.backupPath(forStore: "./tenants/b/app.sqlite", in: "b") == "b/tenants%2Fb%2Fapp.sqlite")
        #expect(Fleet.backupPath(forStore: "/srv/50%/app.sqlite", in: "/b") == "/b/%2Fsrv%2F50%25%2Fapp.sqlite")
        let long = String(repeating: "deep/", count: 60) + "app.sqlite"
        let name = (Fleet.backupPath(forStore: long, in: "b") as NSString).lastPathComponent
        #expect(name.utf8.count == 16 + 1 + 180 && name.hasSuffix("deep%2Fapp.sqlite"))
        #expect(name != (Fleet.backupPath(forStore: "x" + long, in: "b") as NSString).lastPathComponent)
    }

    @Test func sideFilesAreNeverStores() {
        for path in ["a.sqlite-wal", "a.sqlite-shm", "a.sqlite-journal", "a.sqlite-strata.lock", "t/.a.sqlite.strata-backup-12-ab",
                     "t/.a.sqlite.strata-create-12-ab", "/tmp/strata-snapshot-12-ab/a.sqlite"] {
            #expect(FleetStores.isSideFile(path), "\(path)")
        }
        for path in ["a.sqlite", "wal.sqlite", "t/strata-snapshots.sqlite", "journal/a.db"] { #expect(!FleetStores.isSideFile(path), "\(path)") }
    }

    @Test func theRunnerDrawsStoresDoneOutOfTheTotal() throws {
        let sink = RecordingSink()
        var fleet = Fleet(stores: ["a", "b", "c", "d"], jobs: 3)
        fleet.progressSink = sink
        fleet.continueOnError = true
        let report = fleet.run(command: "status") { path in
            (FleetStoreResult(path: path, outcome: path == "b" ? .failed : .upToDate, exitCode: path == "b" ? .drift : .success), nil, [])
        }
        #expect(report.stores.map(\.path) == ["a", "b", "c", "d"] && report.exitCode == .drift && report.jobs == 3)
        #expect(sink.ended.map { "\($0.label) \($0.done)/\($0.total ?? -1) \($0.unit)" } == ["status 4/4 stores"])
    }

    /// Workers that finish together draw their counts in order: the last state drawn is every store done.
    /// (The count was drawn after the state's lock was released, so a worker could draw 3 after another drew 4.)
    @Test func countsAreDrawnInOrderWhenWorkersFinishTogether() {
        for _ in 0..<200 {
            let sink = RecordingSink()
            var fleet = Fleet(stores: (0..<8).map { "s\($0)" }, jobs: 4)
            fleet.progressSink = sink
            _ = fleet.run(command: "status") { path in (FleetStoreResult(path: path, outcome: .upToDate, exitCode: .success), nil, []) }
            #expect(sink.ended.map(\.done) == [8])
            let drawn = sink.drawn.map(\.done)
            #expect(drawn == drawn.sorted(), "drawn out of order: \(drawn)")
        }
    }
}
