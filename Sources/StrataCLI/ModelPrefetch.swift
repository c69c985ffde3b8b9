import Dispatch
import Foundation
import Strata

/// The model files of a command that loads them first thing, read on another thread while ArgumentParser
/// builds the command: the two are most of what a small command costs beyond process start, and neither
/// needs the other until the command runs. The command then takes the loaded history when it asks for the
/// directory the arguments named (`CommandLineHints.loadModels(directory:)`), with the same result or the
/// same errors, at the same point, as loading it there; otherwise it loads its own and this one is dropped.
///
/// Measured on the add-column migrate of Benchmarks/small_command.py (a 1,000-row store, two CPUs, 25 alternating
/// runs, 2026-11-28; Docs/performance.md, "Where a small command's time goes"): 12.8 ms over `strata --version`
/// with it, 15.7 ms without, the model files loaded on one thread in both.
///
/// The load runs on a thread of its own, not on a dispatch queue: the command waits for it from a thread of
/// Swift's cooperative pool, and on a machine (or a container's cpuset) with one CPU, libdispatch starts no
/// second worker for a queued block while that thread is busy or blocked until its monitor notices, about a
/// second later (`taskset -c 0 strata migrate …` took 1.03 s instead of 0.03 s; ModelPrefetchTests).
final class ModelPrefetch: @unchecked Sendable {
    /// The subcommands whose models are loaded through `CommandLineHints.loadModels(directory:)` before any
    /// other work; another subcommand starts nothing: `init`, `import` (which write the directory), `history`,
    /// and `batch`, which on an SQLite store works from the model the store records, so that a load beside its
    /// parse would only slow it.
    static let commands: Set<String> = ["migrate", "status", "lint", "diff", "repair", "adopt"]

    /// The directory as the command will name it (`GlobalOptions.models`).
    let directory: String
    private let done = DispatchGroup()
    /// Written once before `done.leave()`, read only after `done.wait()`.
    private var result: Result<ModelHistory, DiagnosticList>?

    private init(directory: String) {
        self.directory = directory
        done.enter()
        let loader = Thread { [self] in
            do throws(DiagnosticList) {
                result = .success(try CommandLineHints.loadModelsNow(directory: directory))
            } catch {
                result = .failure(error)
            }
            done.leave()
        }
        loader.stackSize = 8 << 20   // the model parse recurses as it would on the main thread
        loader.start()
    }

    /// Starts loading the models `arguments` name (`--models DIR`, `--models=DIR`, the last one before `--`;
    /// else `STRATA_MODELS`, else `models`) when their subcommand loads them; nil otherwise.
    static func start(_ arguments: [String]) -> ModelPrefetch? {
        guard let command = arguments.first, commands.contains(command) else { return nil }
        var option: String?
        var index = 1
        while index < arguments.count, arguments[index] != "--" {
            if arguments[index] == "--models" {
                index += 1
                if index < arguments.count { option = arguments[index] }
            } else if arguments[index].hasPrefix("--models=") {
                option = String(arguments[index].dropFirst("--models=".count))
            }
            index += 1
        }
        return ModelPrefetch(directory: GlobalOptions.modelsDirectory(option))
    }

    /// The loaded history, waiting for it if need be.
    /// - Throws: the errors loading the directory gave.
    func history() throws(DiagnosticList) -> ModelHistory {
        done.wait()
        return try result!.get()
    }
}

