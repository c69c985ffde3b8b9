import Foundation
import Strata

/// The files one command writes, all or none (`import coredata`, SPEC §12): every file is first written to a
/// temporary file beside its target, and only when all of them are written are they renamed into place. A
/// failure on the way removes the temporaries, puts back each file a rename had already replaced (kept through
/// a hard link until the end) and removes the directories it created, so the output is exactly as it was.
///
/// ```swift
/// var files = StagedFiles()
/// files.add("version: 1\n", to: "models/1.yaml")
/// try files.commit()   // models/ created if needed, then models/1.yaml in place, or nothing at all
/// ```
struct StagedFiles {
    /// A file that could not be staged or put in place (exit 1); nothing was changed.
    struct WriteError: StrataError {
        var diagnostic: Diagnostic
        var exitCode: ExitStatus { .runtimeFailure }
        var diagnostics: [Diagnostic] { [diagnostic] }
        var description: String { diagnostic.description }
    }

    /// The files in the order they are written, with their text.
    private(set) var files: [(path: String, text: String)] = []

    /// Adds `text` as the content of `path` (whose directory is created by ``commit()`` when missing).
    mutating func add(_ text: String, to path: String) { files.append((path, text)) }

    /// One file on its way: its temporary, and the link that keeps the file it replaces.
    private struct Step {
        var path: String
        var temporary: String
        var original: String?
        var renamed = false
    }

    /// Writes every file, or none.
    /// - Throws: ``WriteError`` naming the file and the system's reason, after undoing everything.
    func commit() throws(WriteError) {
        var created: [String] = []
        var steps: [Step] = []
        func undo() {
            for step in steps.reversed() {
                if step.renamed {
                    if let original = step.original { _ = rename(original, step.path) } else { _ = unlink(step.path) }
                } else {
                    _ = unlink(step.temporary)
                    if let original = step.original { _ = unlink(original) }
                }
            }
            for directory in created.reversed() { _ = rmdir(directory) }
        }
        func fail(_ message: String, _ reason: String) -> WriteError {
            undo()
            return WriteError(diagnostic: .error("\(message): \(reason)",
                                                 hint: "nothing was written: the output is as it was before the import"))
        }
        // Stage: each file's directory (created when missing), then the file as a temporary beside its target.
        for (index, (path, text)) in files.enumerated() {
            let directory = Self.directory(of: path)
            do throws(DirectoryError) { created += try Self.createDirectory(directory) } catch { throw fail("cannot create '\(error.path)'", error.reason) }
            var info = stat()
            // A directory in the way is never replaced: its rename fails below, and everything is put back.
            let exists = lstat(path, &info) == 0 && (info.st_mode & S_IFMT) != S_IFDIR
            let name = PathText.components(path).last ?? path
            let stem = (directory == "." && !path.hasPrefix("./") ? "" : directory + "/") + ".\(PathText.temporaryStem(name)).import-\(getpid())-\(index)"
            var step = Step(path: path, temporary: stem + ".tmp")
            // Names of this process's own: one a crashed run with the same pid left is stale.
            _ = unlink(step.temporary)
            _ = unlink(stem + ".orig")
            if let reason = Self.write(text, to: step.temporary) {
                throw fail("cannot write '\(path)'", reason)
            }
            if exists {
                // The file it replaces stays reachable until every rename is done: a hard link (no copy; its mode kept,
                // and a symbolic link linked as itself, not its target).
                let original = stem + ".orig"
                guard linkat(AT_FDCWD, path, AT_FDCWD, original, 0) == 0 else {
                    let reason = String(cString: strerror(errno))
                    steps.append(step)
                    throw fail("cannot keep '\(path)' while it is replaced", reason)
                }
                step.original = original
            }
            steps.append(step)
        }
        // Put in place: one rename each; a failure puts back what the earlier renames replaced.
        for i in steps.indices {
            guard rename(steps[i].temporary, steps[i].path) == 0 else {
                let reason = String(cString: strerror(errno))
                throw fail("cannot replace '\(steps[i].path)'", reason)
            }
            steps[i].renamed = true
        }
        for step in steps { if let original = step.original { _ = unlink(original) } }
    }

    /// `text` into a new file at `path`; the system's reason when it cannot be written.
    private static func write(_ text: String, to path: String) -> String? {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard fd >= 0 else { return String(cString: strerror(errno)) }
        do throws(OutputFileError) {
            try OutputFile.writeAll(Data(text.utf8), to: fd, path: path)
        } catch {
            close(fd)
            unlink(path)
            return error.reason
        }
        guard close(fd) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(path)
            return reason
        }
        return nil
    }

    /// The folder of `path` as the system reads it (`.` for a bare name).
    static func directory(of path: String) -> String {
        let directory = PathText.directory(of: path)
        return directory.isEmpty ? "." : directory
    }

    struct DirectoryError: Error { var path: String; var reason: String }

    /// Creates `directory` and its missing parents, returning those it created, outermost first.
    private static func createDirectory(_ directory: String) throws(DirectoryError) -> [String] {
        var missing: [String] = []
        var current = directory
        var info = stat()
        while !current.isEmpty, current != ".", current != "/", stat(current, &info) != 0 {
            missing.append(current)
            let parent = PathText.directory(of: current)
            if parent == current { break }
            current = parent
        }
        var created: [String] = []
        for folder in missing.reversed() {
            if mkdir(folder, 0o777) == 0 { created.append(folder); continue }
            guard errno == EEXIST else {
                let reason = String(cString: strerror(errno))
                for made in created.reversed() { _ = rmdir(made) }
                throw DirectoryError(path: folder, reason: reason)
            }
        }
        return created
    }
}
