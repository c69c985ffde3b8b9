import Foundation

/// Every file and directory a test makes lives under one directory per test process, removed when the
/// process exits. Tests hand their stores around (fixtures return them open), so no scope short of the
/// process knows when a directory is done with; an `atexit` handler is the one place that always runs
/// (unlinking the files of a store still open is fine on Linux and macOS).
public enum Temporary {
    /// `$TMPDIR/strata-tests-PID-UUID`, made on first use and registered for removal.
    public static let root: String = {
        let root = NSTemporaryDirectory() + "strata-tests-\(getpid())-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: Temporary.root) }
        return root
    }()

    /// A new empty directory under the root, named `prefix-UUID`.
    public static func directory(_ prefix: String = "dir") -> String {
        let path = root + "/" + prefix + "-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        return path
    }
}
