import Foundation

/// The stores of a fleet (SPEC §14.1): the files a glob names (`--stores`) or the paths a list file gives
/// (`--stores-from`), without SQLite's and Strata's side files, each store once.
///
/// A glob's components match names with `fnmatch(3)` (`*`, `?`, `[…]`; a leading `.` only when the pattern
/// spells it); a `**` component matches any number of directories (hidden directories and symlinked
/// directories are not entered). Matches come in path order. Only regular files (after following links)
/// count: a directory or FIFO a glob happens to match is not a store.
/// ```swift
/// let stores = try FleetStores.matching("tenants/*/app.sqlite")
/// let listed = try FleetStores.listed(inFile: "stores.txt")
/// ```
public enum FleetStores {
    /// The stores `pattern` matches, in path order.
    /// - Parameter excluding: directories whose files are never stores (`--backup-dir`).
    /// - Throws: ``FleetError/noStores(source:)`` (exit 2) when nothing is left, and
    ///   ``FleetError/notUTF8Name(source:path:)`` (exit 2) when it matches a name that is not UTF-8 text.
    public static func matching(_ pattern: String, excluding: [String] = []) throws -> [String] {
        guard !pattern.isEmpty else { throw FleetError.noStores(source: "--stores ''") }
        let absolute = pattern.hasPrefix("/")
        var paths = [absolute ? "/" : ""]
        for component in pattern.split(separator: "/", omittingEmptySubsequences: true).map(String.init) {
            var next: [String] = []
            for path in paths {
                let (found, notUTF8) = expand(path, component)
                // A name Swift cannot hold as text was skipped; it is a store the user meant, so say so (exit 2).
                if let name = notUTF8.first { throw FleetError.notUTF8Name(source: "--stores '\(pattern)'", path: name) }
                next += found
            }
            paths = next
        }
        let regular = paths.filter { path in
            var info = stat()
            return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
        }
        let stores = unique(regular.sorted().filter { !isSideFile($0) }, excluding: excluding)
        if stores.isEmpty { throw FleetError.noStores(source: "--stores '\(pattern)'") }
        return stores
    }

    /// Standard input to its end, read with `read(2)`: Foundation's `readDataToEndOfFile` stops the process
    /// on a read error (standard input redirected from a directory, say) or an interrupted read.
    /// - Throws: ``FleetError/unreadableList(path:detail:)`` with the system's reason.
    static func standardInput() throws -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = read(STDIN_FILENO, &buffer, buffer.count)
            if n > 0 {
                data.append(contentsOf: buffer[..<n])
            } else if n == 0 {
                return data
            } else if errno != EINTR {
                throw FleetError.unreadableList(path: "-", detail: String(cString: strerror(errno)))
            }
        }
    }

    /// The stores a list file names: one path a line, relative to the current directory; surrounding
    /// blanks are dropped, and empty lines and lines starting with `#` are skipped. A leading UTF-8 byte-order
    /// mark is dropped. `-` reads standard input.
    /// Paths that do not exist (or are no regular file) are kept: the run reports them, as for `--store`.
    /// - Throws: ``FleetError`` (exit 2): the file cannot be read, a line is not UTF-8 text or holds a NUL
    ///   byte (located `file:line:1`), or no store is listed.
    public static func listed(inFile file: String, excluding: [String] = []) throws -> [String] {
        let data: Data
        if file == "-" {
            data = try standardInput()
        } else {
            var info = stat()
            guard stat(file, &info) == 0 else { throw FleetError.unreadableList(path: file, detail: String(cString: strerror(errno))) }
            if (info.st_mode & S_IFMT) == S_IFDIR { throw FleetError.unreadableList(path: file, detail: "it is a directory") }
            do {
                data = try FileHandle(forReadingFrom: URL(fileURLWithPath: file)).readToEnd() ?? Data()
            } catch {
                throw FleetError.unreadableList(path: file, detail: error.localizedDescription)
            }
        }
        var paths: [String] = []
        // A byte-order mark (Notepad writes one) is not part of the first path, as in --order files and model YAML.
        let text = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data[...]
        for (index, bytes) in text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let location = SourceLocation(file: file == "-" ? "<stdin>" : file, line: index + 1, column: 1)
            guard let line = String(validating: bytes, as: UTF8.self) else { throw FleetError.badLine(location, "it is not UTF-8 text") }
            if line.contains("\u{0}") { throw FleetError.badLine(location, "it holds a NUL byte") }
            let path = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if path.isEmpty || path.hasPrefix("#") { continue }
            paths.append(path)
        }
        let stores = unique(paths.filter { !isSideFile($0) }, excluding: excluding)
        if stores.isEmpty { throw FleetError.noStores(source: "--stores-from '\(file)'") }
        return stores
    }

    /// Whether `path` names a side file, never a store: SQLite's `-wal`, `-shm` and `-journal`, Strata's
    /// `-strata.lock`, a file being created or backed up (`.NAME.strata-KIND-PID-…`), or anything inside a
    /// dry run's snapshot directory (`strata-snapshot-PID-…`).
    public static func isSideFile(_ path: String) -> Bool {
        let name = (path as NSString).lastPathComponent
        if ["-wal", "-shm", "-journal", "-strata.lock"].contains(where: name.hasSuffix) { return true }
        if name.hasPrefix("."), name.contains(".strata-") { return true }
        return path.split(separator: "/").dropLast().contains { $0.hasPrefix(Snapshot.directoryPrefix) }
    }

    /// Each store once, the first spelling kept: existing files by device and inode (hard links and
    /// symlinks to one file are one store), others by their resolved location; files inside `excluding`
    /// directories dropped.
    static func unique(_ paths: [String], excluding: [String]) -> [String] {
        let excluded = Set(excluding.map(StorePath.identity))
        var seen: Set<StorePath.Identity> = []
        return paths.filter { path in
            if !excluded.isEmpty, excluded.contains(StorePath.identity(StorePath.directoryOf(path))) { return false }
            return seen.insert(StorePath.identity(path)).inserted
        }
    }

    /// The paths one glob component leads to from `base` ("" is the current directory), and the names it
    /// matches (or, for `**`, the folders it would enter) that are not UTF-8, as paths with their bytes escaped.
    static func expand(_ base: String, _ component: String) -> (paths: [String], notUTF8: [String]) {
        let join = { (name: String) in base.isEmpty ? name : (base.hasSuffix("/") ? base + name : base + "/" + name) }
        if component == "**" {
            let (found, notUTF8) = subdirectories(of: base)
            return ([base] + found.map(join), notUTF8.map(join))
        }
        guard isGlob(component) else {
            let path = join(component)
            var info = stat()
            return (lstat(path, &info) == 0 ? [path] : [], [])
        }
        let (names, others) = entries(of: base)
        let notUTF8 = others.filter { rawName in
            (rawName + [0]).withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { fnmatch(component, $0.baseAddress!, FNM_PERIOD) == 0 }
            }
        }
        return (names.filter { nameMatches(component, $0) }.map(join), notUTF8.map { join(PathText.escaped($0)) })
    }

    /// Whether `name` matches the glob `pattern` as a component of `--stores` does: `fnmatch(3)` with `*`,
    /// `?` and `[…]`, a leading `.` only when the pattern spells it. PostgreSQL schema globs use it too
    /// (StrataPostgres: `PostgresSchemaGlob`).
    public static func nameMatches(_ pattern: String, _ name: String) -> Bool {
        fnmatch(pattern, name, FNM_PERIOD) == 0
    }

    /// Whether `text` holds a glob character (`*`, `?` or `[`).
    public static func isGlob(_ text: some StringProtocol) -> Bool {
        text.contains { "*?[".contains($0) }
    }

    /// The names in a directory, sorted, and those that are not UTF-8 as bytes; none when it cannot be read.
    /// Read with readdir(3): FileManager leaves a name that is not UTF-8 out, so a glob skipped `caf\xE9.sqlite`.
    static func entries(of directory: String) -> (names: [String], notUTF8: [[UInt8]]) {
        guard let stream = opendir(directory.isEmpty ? "." : directory) else { return ([], []) }
        defer { closedir(stream) }
        var names: [String] = []
        var notUTF8: [[UInt8]] = []
        while let entry = readdir(stream) {
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if bytes == [0x2E] || bytes == [0x2E, 0x2E] { continue }
            if let name = String(validating: bytes, as: UTF8.self) { names.append(name) } else { notUTF8.append(bytes) }
        }
        return (names.sorted(), notUTF8.sorted { $0.lexicographicallyPrecedes($1) })
    }

    /// Every directory below `directory`, as paths relative to it: no hidden directories, no symlinks followed;
    /// and the folders it would enter whose names are not UTF-8 (relative, bytes escaped).
    static func subdirectories(of directory: String) -> (paths: [String], notUTF8: [String]) {
        var result: [String] = []
        let join = { (name: String) in directory.isEmpty ? name : (directory.hasSuffix("/") ? directory + name : directory + "/" + name) }
        let (names, others) = entries(of: directory)
        var notUTF8: [String] = []
        for rawName in others where rawName.first != 0x2E {
            let path = Array((directory.isEmpty ? "" : (directory.hasSuffix("/") ? directory : directory + "/")).utf8) + rawName
            var info = stat()
            let isDirectory = (path + [0]).withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { lstat($0.baseAddress!, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR }
            }
            if isDirectory { notUTF8.append(PathText.escaped(rawName)) }
        }
        for name in names where !name.hasPrefix(".") {
            let path = join(name)
            var info = stat()
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { continue }
            result.append(name)
            let (below, belowNotUTF8) = subdirectories(of: path)
            result += below.map { name + "/" + $0 }
            notUTF8 += belowNotUTF8.map { name + "/" + $0 }
        }
        return (result, notUTF8)
    }
}
