import Foundation

/// Writes an output file (`--report`, `--changes-out`, a change set an app saves).
///
/// A new or regular file is replaced atomically (a temporary file beside it, renamed over it), so a reader
/// never sees half a report. A symbolic link is followed and its target written, never replaced by a
/// regular file (a dangling link's target is created; a link loop is an error, nothing written). A path that
/// names a device or a pipe (`/dev/stdout`, `/dev/null`, a FIFO), directly or through links, is written in
/// place. The path is taken as the system takes it: `app.sqlite/` or `report.md/.` name a directory, never
/// the file `app.sqlite`.
/// ```swift
/// try OutputFile.write(Data(report.utf8), to: "/dev/stdout")
/// ```
public enum OutputFile {
    /// - Parameter store: the store the output is about, when it is a file: a new or replaced output file then
    ///   gets no wider permission bits than the store's (a report of a 0600 store is 0600), and is 0600 while
    ///   it is written. Without it, the file gets the process's default (`0666` less the umask).
    /// - Throws: ``OutputFileError`` with the system's reason.
    public static func write(_ data: Data, to path: String, noWiderThan store: String? = nil) throws {
        let last = PathText.components(path, keepingEmpty: true).last ?? ""
        guard !last.isEmpty, last != ".", last != ".." else { throw OutputFileError(path: path, reason: "a directory path, not a file name") }
        // A link that following never ends names no file: writing "it" would replace the link.
        if StorePath.isLinkLoop(path) { throw OutputFileError(path: path, reason: "a symbolic link loop (\(String(cString: strerror(ELOOP))))") }
        var info = stat()
        if stat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG {
            guard (info.st_mode & S_IFMT) != S_IFDIR else { throw OutputFileError(path: path, reason: "Is a directory") }
            try writeInPlace(data, to: path)
            return
        }
        var link = stat()
        let target = lstat(path, &link) == 0 && (link.st_mode & S_IFMT) == S_IFLNK ? StorePath.resolvedLocation(path) : path
        if let store, case let limit = TemporaryFiles.mode(of: store), limit != 0 {
            try writeLimited(data, to: target, limit: limit, shownAs: path)
            return
        }
        do { try data.write(to: URL(fileURLWithPath: target), options: .atomic) } catch {
            throw OutputFileError(path: path, reason: (error as NSError).localizedDescription)
        }
    }

    /// Atomically, as `Data.write(options: .atomic)` does: a temporary file beside the target, 0600 while it is
    /// written, then given the mode the file would get (the existing file's, or `0666` less the umask) within
    /// `limit`, and renamed over the target.
    private static func writeLimited(_ data: Data, to target: String, limit: mode_t, shownAs path: String) throws {
        func failure() -> OutputFileError { OutputFileError(path: path, reason: String(cString: strerror(errno))) }
        let existing = TemporaryFiles.mode(of: target)
        let mode = (existing != 0 ? existing : 0o666 & ~TemporaryFiles.umask) & limit
        TemporaryFiles.removeLeftovers(next: target, kind: "output")   // what killed runs left
        let temporary = TemporaryFiles.path(next: target, kind: "output")
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure() }
        do {
            try writeAll(data, to: fd, path: path)
            guard fchmod(fd, mode) == 0 else { throw failure() }
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        guard close(fd) == 0, rename(temporary, target) == 0 else {
            let error = failure()
            unlink(temporary)
            throw error
        }
    }

    /// A device or pipe: opened for writing (truncated where that means anything) and written to the end.
    private static func writeInPlace(_ data: Data, to path: String) throws {
        let fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard fd >= 0 else { throw OutputFileError(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        try writeAll(data, to: fd, path: path)
    }

    /// `data` written to the open file `fd` to the end (retrying interrupted writes).
    /// - Throws: ``OutputFileError`` naming `path`, with the system's reason.
    package static func writeAll(_ data: Data, to fd: Int32, path: String) throws(OutputFileError) {
        let failure: OutputFileError? = data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < buffer.count {
                let n = Foundation.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return OutputFileError(path: path, reason: String(cString: strerror(errno))) }
                offset += n
            }
            return nil
        }
        if let failure { throw failure }
    }
}

/// An output file that could not be written; `localizedDescription` is the reason.
public struct OutputFileError: Error, LocalizedError, CustomStringConvertible {
    public let path: String
    public let reason: String
    public var errorDescription: String? { reason }
    public var description: String { "cannot write '\(path)': \(reason)" }
}
