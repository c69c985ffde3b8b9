import ArgumentParser
import Foundation
import Strata
import StrataPostgres

/// Options every subcommand takes (SPEC §8); they may follow the subcommand.
struct GlobalOptions: ParsableArguments {
    @Option(name: .customLong("store"), help: "The store: an SQLite file, or postgres://USER@HOST[:PORT]/DATABASE[?schema=NAME] (default: $STRATA_STORE).")
    var store: String?

    @Option(name: .customLong("models"), help: "Directory of model files (default: $STRATA_MODELS, else models).")
    var modelsOption: String?

    @Option(name: .customLong("migrations"), help: "Directory of hook files (default: $STRATA_MIGRATIONS, else migrations).")
    var migrationsOption: String?

    // No default in the declaration, the help says it (NamedOptionValue.swift, "Option defaults").
    @Option(name: .customLong("format"), help: "Output format: text or json (default: text).")
    var formatOption: OutputFormat?
    var format: OutputFormat { formatOption ?? .text }

    // No default in the declaration, the help says it (NamedOptionValue.swift, "Option defaults").
    @Option(name: .customLong("color"), help: "Colored output: auto, always or never (default: auto).")
    var colorOption: ColorMode?
    var color: ColorMode { colorOption ?? .auto }

    @Flag(name: .customLong("quiet"), help: "Print only errors.")
    var quiet = false

    @Flag(name: .customLong("no-progress"), help: "Never draw progress bars.")
    var noProgress = false

    @Option(name: .customLong("var"), help: ArgumentHelp("A predicate variable, NAME=VALUE (repeatable).", valueName: "NAME=VALUE"))
    var variables: [String] = []

    mutating func validate() throws {
        for v in variables where !v.contains("=") || v.hasPrefix("=") {
            throw ValidationError("--var expects NAME=VALUE, got '\(v)'")
        }
        // $NOW is the run's time: a --var cannot change it, so one that tries is refused, not ignored.
        for v in variables where v.hasPrefix("NOW=") {
            throw ValidationError("--var NOW: $NOW is the run's start time; pin it with --now ISO8601 (migrate, batch)")
        }
    }

    /// `--var` values by name.
    var variableValues: [String: String] {
        var result: [String: String] = [:]
        for v in variables {
            let parts = v.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            result[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        return result
    }

    /// The models directory: `--models`, else `STRATA_MODELS`, else `models`.
    var models: String { Self.modelsDirectory(modelsOption) }

    /// The models directory for a `--models` value (nil when not given).
    static func modelsDirectory(_ option: String?) -> String { directory(option, environment: "STRATA_MODELS", default: "models") }

    /// The hooks directory: `--migrations`, else `STRATA_MIGRATIONS`, else `migrations`.
    var migrations: String { Self.directory(migrationsOption, environment: "STRATA_MIGRATIONS", default: "migrations") }

    /// The hooks directory, checked: one that `--migrations` or `STRATA_MIGRATIONS` names must be a directory (a
    /// typo there ran no hooks, exit 0, and left them late for the next run); the default `migrations` may be
    /// missing (a project without hooks), not a file.
    /// - Throws: exit 2 naming the directory.
    func hooksDirectory() throws -> String {
        let given = Self.given(migrationsOption, environment: "STRATA_MIGRATIONS")
        let directory = given ?? "migrations"
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory)
        if exists && !isDirectory.boolValue {
            throw Diagnostic.error("migrations directory '\(directory)' is not a directory", hint: "--migrations names the folder of hook files")
        }
        if !exists && given != nil {
            throw Diagnostic.error("migrations directory '\(directory)' does not exist",
                                   hint: "check the path (a relative one starts at the current directory); without hooks, leave out --migrations")
        }
        return directory
    }

    private static func directory(_ option: String?, environment name: String, default fallback: String) -> String {
        given(option, environment: name) ?? fallback
    }

    /// The directory the option, else the environment variable, names (nil when neither does).
    private static func given(_ option: String?, environment name: String) -> String? {
        if let option, !option.isEmpty { return option }
        if let value = ProcessInfo.processInfo.environment[name], !value.isEmpty { return value }
        return nil
    }

    /// The store path from `--store` or `STRATA_STORE`.
    /// - Throws: exit 2 when none is given, or when it names a PostgreSQL store (``postgresStore()`` reads those,
    ///   for the commands that support them).
    func storePath() throws -> String {
        let value = try storeValue()
        if PostgresStoreURL.isPostgres(value) { throw PostgresStoreError.notYetSupported(what: "this command on a PostgreSQL store") }
        return value
    }

    /// The SQLite store's path when one is given (nil for none or a PostgreSQL store): output files about it
    /// get no wider permissions than it has (SPEC §9).
    var storeFile: String? {
        (try? storeValue()).flatMap { PostgresStoreURL.isPostgres($0) ? nil : $0 }
    }

    /// `--store` (or `STRATA_STORE`) as given.
    private func storeValue() throws -> String {
        if let store, !store.isEmpty { return store }
        if let env = ProcessInfo.processInfo.environment["STRATA_STORE"], !env.isEmpty { return env }
        throw Diagnostic.error("no store given", hint: "pass --store PATH or set STRATA_STORE")
    }

    /// The PostgreSQL store `--store` names (`postgres://…`), or nil for an SQLite store.
    /// - Throws: `PostgresStoreError.invalidURL` (exit 2) for a `postgres://` URL that cannot be used.
    func postgresStore() throws -> PostgresStoreURL? {
        let value = try storeValue()
        return PostgresStoreURL.isPostgres(value) ? try PostgresStoreURL(parsing: value) : nil
    }

    /// Loads `--models`, printing warnings to stderr.
    func loadModels(_ output: Output) throws -> ModelHistory {
        var history = try CommandLineHints.loadModels(directory: models)
        for warning in history.warnings { output.diagnostic(warning) }
        history.mappings = try MappingFileSet.load(directory: migrations, models: history, variables: variableValues)   // SPEC §11.3: read before anything runs
        return history
    }
}

enum OutputFormat: String, NamedOptionValue, Sendable { case text, json }
enum ColorMode: String, NamedOptionValue, Sendable { case auto, always, never }
