import Foundation

/// A path's directory, by its text: what `NSString.deletingLastPathComponent` gives, without its trap.
///
/// Foundation on Linux stops the process on some short paths (`"f"`, `"."`, `"a/"`), and paths are what
/// users type (`--store a`, `--report r`), so Strata takes a path's directory with this instead. Slashes are
/// found scalar by scalar, as the system reads paths: a `Character` may join a combining mark to a slash.
/// ```swift
/// PathText.directory(of: "models/4.yaml")   // "models"
/// PathText.directory(of: "app.sqlite")      // ""
/// PathText.directory(of: "/app.sqlite")     // "/"
/// ```
public enum PathText {
    /// The path without its last component and the slashes before it: `""` when it has no directory part,
    /// `"/"` for a file at the root.
    public static func directory(of path: String) -> String {
        var text = Substring(path).unicodeScalars
        while text.count > 1, text.last == "/" { text = text.dropLast() }
        guard let slash = text.lastIndex(of: "/") else { return "" }
        var directory = text[..<slash]
        while directory.last == "/" { directory = directory.dropLast() }
        return directory.isEmpty ? "/" : String(Substring(directory))
    }

    /// Whether `path` starts at the root.
    public static func isAbsolute(_ path: String) -> Bool { path.unicodeScalars.first == "/" }

    /// The names between the slashes of `path` (empty ones kept only when asked for).
    public static func components(_ path: String, keepingEmpty: Bool = false) -> [String] {
        path.unicodeScalars.split(separator: "/", omittingEmptySubsequences: !keepingEmpty).map { String(Substring($0)) }
    }

    /// Bytes that may not be UTF-8 (a file name, an argument) as text: valid UTF-8 as it is, each byte that is
    /// not part of a valid sequence as `\xHH`: `caf\xE9.sqlite` names the Latin-1 file Swift shows as `caf�.sqlite`.
    /// ```swift
    /// PathText.escaped([0x63, 0x61, 0x66, 0xE9])   // "caf\\xE9"
    /// ```
    public static func escaped(_ bytes: some Collection<UInt8>) -> String {
        let bytes = Array(bytes)
        var text = ""
        var start = 0
        while start < bytes.count {
            // The longest run from `start` that decodes: 1 to 4 bytes for one scalar.
            var length = 0
            for n in 1...4 where start + n <= bytes.count {
                if let scalar = String(validating: bytes[start..<start + n], as: UTF8.self), scalar.unicodeScalars.count == 1 { length = n; break }
            }
            if length > 0 {
                text += String(decoding: bytes[start..<start + length], as: UTF8.self)
                start += length
            } else {
                let hex = String(bytes[start], radix: 16, uppercase: true)
                text += "\\x" + (hex.count == 1 ? "0" + hex : hex)
                start += 1
            }
        }
        return text
    }

    /// The longest file name a temporary's name may start with: a name of at most 255 bytes (`NAME_MAX`), the
    /// limit of Linux's file systems, leaves 80 bytes for what a temporary adds (`.`, `.strata-backup-<pid>-<uuid>`,
    /// then SQLite's `-journal`).
    public static let temporaryStemBytes = 255 - 80

    /// `name` as the start of a temporary file's name beside it: whole when it is at most ``temporaryStemBytes``
    /// long, else its first scalars that fit (a legal name near the limit must not make its temporary illegal,
    /// which failed a write after the work it records had committed). The same name gives the same stem, so the
    /// leftovers of a killed run are found by it.
    public static func temporaryStem(_ name: String) -> String {
        guard name.utf8.count > temporaryStemBytes else { return name }
        var stem = "", bytes = 0
        for scalar in name.unicodeScalars {
            bytes += UTF8.width(scalar)
            if bytes > temporaryStemBytes { break }
            stem.unicodeScalars.append(scalar)
        }
        return stem
    }

    /// The absolute path without links, `.` or `..` (`realpath(3)`); nil when it does not exist.
    public static func resolved(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
