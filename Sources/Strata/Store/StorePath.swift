import Foundation

/// File identity for store paths (SPEC §9 "one store, whatever the path"; "never writes over the store").
///
/// A path is compared by what it names, not by how it is spelled: an existing file by its device and
/// inode (after following links), a file that does not exist yet by its resolved directory and name.
/// ```swift
/// try StorePath.checkRegularFile("app.sqlite")                       // FIFO, directory: exit 2
/// try StorePath.checkOutput("report.txt", option: "--report", storePath: "app.sqlite", protectedFiles: [])
/// ```
public enum StorePath {
    /// What a path names: an existing file's identity, or where a new file would be created.
    public enum Identity: Hashable, Sendable {
        case file(device: UInt64, inode: UInt64)
        case absent(String)
    }

    /// Refuses a store path that exists but is not a regular file (after following links): a FIFO would
    /// block every reader, a directory or device is no store, and a symbolic link loop leads to no file at all
    /// (it is no missing store that `--create` could make: creating it would replace a link).
    /// - Throws: ``StorePathError/notARegularFile(path:kind:)`` (exit 2). A missing path passes.
    public static func checkRegularFile(_ path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if isLinkLoop(path) { throw StorePathError.notARegularFile(path: path, kind: "symbolic link loop") }
            return
        }
        let kind = kindName(info.st_mode)
        if kind != "regular file" { throw StorePathError.notARegularFile(path: path, kind: kind) }
    }

    /// The identity of `path`: device and inode when it exists (links followed), else its resolved
    /// directory plus name (a dangling symlink resolves to where its target would be created).
    public static func identity(_ path: String) -> Identity {
        var info = stat()
        if stat(path, &info) == 0 { return .file(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)) }
        return .absent(resolvedLocation(path))
    }

    /// The absolute path `path` names, links resolved; for a file that does not exist, the resolved
    /// directory plus the (link-resolved) name.
    public static func resolvedLocation(_ path: String) -> String {
        var current = absolute(path)
        for _ in 0..<40 {
            if let real = realPath(current) { return real }
            var info = stat()
            if lstat(current, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK, let target = readLink(current) {
                current = PathText.isAbsolute(target) ? target : (directoryOf(current) as NSString).appendingPathComponent(target)
                continue
            }
            let directory = realPath(directoryOf(current)) ?? directoryOf(current)
            return (directory as NSString).appendingPathComponent((current as NSString).lastPathComponent)
        }
        return current
    }

    /// The files a run must never write over for a store: the store itself, its `-wal`, `-shm`, `-journal`
    /// and lock file, under the spelling given and under the resolved one (SQLite names its journals after
    /// the resolved path).
    public static func storeFiles(_ storePath: String) -> [(path: String, what: String)] {
        var result: [(String, String)] = []
        for base in Set([storePath, resolvedLocation(storePath)]).sorted() {
            result.append((base, "the store"))
            for suffix in ["-wal", "-shm", "-journal"] { result.append((base + suffix, "the store's \(suffix) file")) }
            result.append((base + "-strata.lock", "the store's lock file"))
        }
        result.append((StoreLock.lockPath(forStore: storePath), "the store's lock file"))
        return result
    }

    /// Refuses an output path (`--report`, `--changes-out`, `--backup`) that names the store, one of its
    /// companion files, or one of `protectedFiles` (model and hook files), whatever its spelling.
    /// - Parameters:
    ///   - path: the output path.
    ///   - option: the option that named it, for the message.
    ///   - storePath: the store, when the command has one.
    ///   - protectedFiles: other files that must survive (paths with a description, e.g. "a model file").
    /// - Throws: ``StorePathError/protectedOutput(option:path:what:)`` (exit 2).
    public static func checkOutput(_ path: String, option: String, storePath: String?,
                                   protectedFiles: [(path: String, what: String)]) throws {
        // The path as the system reads it, and as a writer that tidies paths first would (`app.sqlite/`,
        // `app.sqlite/x/..` are `app.sqlite` to Foundation's URLs).
        let spellings = Set([path, lexical(path)])
        let outputs = Set(spellings.map(identity))
        let candidates = (storePath.map(storeFiles) ?? []) + protectedFiles
        for candidate in candidates where outputs.contains(identity(candidate.path)) {
            throw StorePathError.protectedOutput(option: option, path: path, what: candidate.what)
        }
        // A side file named after another name of the store (a hard link, another symlink): SQLite keeps
        // that name's `-wal` apart, and it may hold committed pages.
        guard let storePath, case .file = identity(storePath) else { return }
        for spelling in spellings {
            for suffix in ["-wal", "-shm", "-journal", "-strata.lock"] where spelling.hasSuffix(suffix) {
                let base = String(spelling.dropLast(suffix.count))
                if !base.isEmpty, identity(base) == identity(storePath) {
                    let what = suffix == "-strata.lock" ? "the store's lock file" : "the store's \(suffix) file"
                    throw StorePathError.protectedOutput(option: option, path: path, what: what + " (under another name of the store)")
                }
            }
        }
    }

    /// `path` made absolute, with `.` and `..` taken by name and trailing slashes dropped (no links followed).
    static func lexical(_ path: String) -> String {
        var parts: [String] = []
        for part in PathText.components(absolute(path)) {
            if part == "." { continue }
            if part == ".." { _ = parts.popLast(); continue }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }

    /// Regular files directly inside `directory` (model or hook files), or none when it is missing.
    public static func files(in directory: String) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        return names.sorted().map { (directory as NSString).appendingPathComponent($0) }
    }

    /// Whether `path` is a symbolic link that following never ends (`a -> b`, `b -> a`): `stat` fails with
    /// `ELOOP`. A dangling link is no loop.
    public static func isLinkLoop(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) != 0 && errno == ELOOP
    }

    static func kindName(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: return "regular file"
        case S_IFDIR: return "directory"
        case S_IFIFO: return "FIFO (named pipe)"
        case S_IFSOCK: return "socket"
        case S_IFCHR: return "character device"
        case S_IFBLK: return "block device"
        case S_IFLNK: return "symbolic link"
        default: return "special file"
        }
    }

    static func absolute(_ path: String) -> String {
        if PathText.isAbsolute(path) { return path }
        return (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(path)
    }

    static func directoryOf(_ path: String) -> String {
        let directory = PathText.directory(of: path)
        return directory.isEmpty ? "." : directory
    }

    static func realPath(_ path: String) -> String? { PathText.resolved(path) }

    static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Errors about what a path names (exit 2: the paths given cannot be used as asked).
public enum StorePathError: StrataError, Sendable {
    /// The store path names a FIFO, directory, socket or device.
    case notARegularFile(path: String, kind: String)
    /// An output option names a file Strata must never write over.
    case protectedOutput(option: String, path: String, what: String)
    /// The store's lock file is a symbolic link, not a regular file, has other names (hard links), or holds
    /// something that is not a Strata lock record: Strata will not open, write or truncate it.
    case unsafeLockFile(lockPath: String, detail: String)

    public var exitCode: ExitStatus { .invalidInput }

    public var diagnostics: [Diagnostic] {
        switch self {
        case let .notARegularFile(path, kind):
            return [.error("the store '\(path)' is a \(kind), not a regular file", hint: StoreError.pathHint)]
        case let .protectedOutput(option, path, what):
            return [.error("\(option) '\(path)' is \(what); Strata never writes over it",
                           hint: "choose another \(option) path")]
        case let .unsafeLockFile(lockPath, detail):
            return [.error("refusing to use the lock file '\(lockPath)': \(detail)",
                           hint: "check what '\(lockPath)' is and remove it; Strata then creates its own lock file there")]
        }
    }

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
