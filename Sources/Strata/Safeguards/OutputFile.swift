import Foundation

/// Writes an output file (`--report`, `--changes-out`, a change set an app saves).
///
/// A new or regular file is replaced atomically (a temporary file beside it, renamed over it), so a reader
/// never sees half a report. A symbolic link is followed and its target written, never replaced by a
/// regular file. A path that names a device or a pipe (`/dev/stdout`, `/dev/null`, a FIFO), directly or
/// through links, is written in place. The path is taken as the system takes it: `app.sqlite/` or
/// `report.md/.` name a directory, never the file `app.sqlite`.
/// ```swift
/// try OutputFile.write(Data(report.utf8), to: "/dev/stdout")
/// ```
public enum OutputFile {
    /// - Throws: ``OutputFileError`` with the system's reason.
    public static func write(_ data: Data, to path: String) throws {
        let last = PathText.components(path, keepingEmpty: true).last ?? ""
        guard !last.isEmpty, last != ".", last != ".." else { throw OutputFileError(path: path, reason: "a directory path, not a file name") }
        var info = stat()
        if stat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG {
            guard (info.st_mode & S_IFMT) != S_IFDIR else { throw OutputFileError(path: path, reason: "Is a directory") }
            try writeInPlace(data, to: path)
            return
        }
        var link = stat()
        let target = lstat(path, &link) == 0 && (link.st_mode & S_IFMT) == S_IFLNK ? StorePath.resolvedLocation(path) : path
        do { try data.write(to: URL(fileURLWithPath: target), options: .atomic) } catch {
            throw OutputFileError(path: path, reason: (error as NSError).localizedDescription)
        }
    }

    /// A device or pipe: opened for writing (truncated where that means anything) and written to the end.
    private static func writeInPlace(_ data: Data, to path: String) throws {
        let fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard fd >= 0 else { throw OutputFileError(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < buffer.count {
                let n = Foundation.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { throw OutputFileError(path: path, reason: String(cString: strerror(errno))) }
                offset += n
            }
        }
    }
}

/// An output file that could not be written; `localizedDescription` is the reason.
public struct OutputFileError: Error, LocalizedError, CustomStringConvertible {
    public let path: String
    public let reason: String
    public var errorDescription: String? { reason }
    public var description: String { "cannot write '\(path)': \(reason)" }
}
