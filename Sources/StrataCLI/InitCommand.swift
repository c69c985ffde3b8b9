import ArgumentParser
import Foundation
import Strata

/// `strata init`: a new project's `models/1.yaml` and `migrations/`, with commented examples.
struct InitCommand: StrataSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Start a project: write models/1.yaml and migrations/ with commented examples.",
        discussion: "Never writes over a file: an existing model directory with model files is exit 2.")

    @OptionGroup var global: GlobalOptions

    struct Document: Encodable {
        var models: String
        var migrations: String
        var written: [String]
    }

    func run(output: Output) async throws {
        let fileManager = FileManager.default
        let models = global.models, migrations = global.migrations
        let existing = ((try? fileManager.contentsOfDirectory(atPath: models)) ?? [])
            .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted()
        if !existing.isEmpty {
            throw Diagnostic.error("'\(models)' already has model files (\(existing.joined(separator: ", "))); init starts a new project",
                                   hint: "run `strata lint` to check them, or pass --models DIR for a new directory")
        }
        var written: [String] = []
        for directory in [models, migrations] {
            do { try fileManager.createDirectory(atPath: directory, withIntermediateDirectories: true) } catch {
                throw Diagnostic.error("cannot create '\(directory)': \(error.localizedDescription)", hint: "check the path and its permissions")
            }
        }
        let files = [(models + "/1.yaml", Self.model), (migrations + "/README.md", Self.hooksReadme)]
        for (path, text) in files where !fileManager.fileExists(atPath: path) {
            do { try text.write(toFile: path, atomically: true, encoding: .utf8) } catch {
                throw Diagnostic.error("cannot write '\(path)': \(error.localizedDescription)", hint: "check the directory's permissions")
            }
            written.append(path)
        }
        output.json(Document(models: models, migrations: migrations, written: written))
        for path in written { output.line("wrote \(path)") }
        output.line("next: edit \(models)/1.yaml, then `strata lint` and `strata migrate --create --store app.sqlite`")
    }

    /// A first model that loads and lints clean, with every option shown in comments.
    static let model = """
    # Version 1 of your model. Each later version is a new file (models/2.yaml, …) with `version: 2`;
    # Strata infers the migration between consecutive versions (see Docs/inference.md).
    version: 1
    entities:
      Item:
        # table: items                 # the SQL table (default: the entity name)
        # renamedFrom: OldName         # this entity had another name in the previous version
        attributes:
          title:
            type: string               # int16 int32 int64 decimal double float string bool date binary uuid uri
            optional: false            # default true, as in Core Data
            default: Untitled
            minLength: 1
            maxLength: 200
            # pattern: "[A-Z].*"       # the whole value must match
            # indexed: true
            # column: title            # the SQL column (default: the attribute name)
            # renamedFrom: name        # this attribute had another name in the previous version
          createdAt: { type: date }
          rating: { type: int16, min: 0, max: 5, default: 0, optional: false }
        relationships:
          tags: { destination: Tag, toMany: true, inverse: items, deleteRule: nullify }
        # uniqueness: [[title]]        # UNIQUE indexes over attributes or to-one relationships
        # indexes: [[createdAt]]
        # validation:
        #   - predicate: "rating >= 0 OR title BEGINSWITH 'Draft'"
        #     message: "…"
      Tag:
        attributes:
          name: { type: string, optional: false, default: untitled }
        relationships:
          items: { destination: Item, toMany: true, inverse: tags }   # many-to-many: a join table
        uniqueness: [[name]]

    """

    /// What goes in migrations/: hooks, with an example to copy into a .yaml file.
    static let hooksReadme = """
    # Hooks

    Each `*.yaml` file here is a hook: batch updates and deletes that run exactly once per store, right after
    the store reaches the version named by `after`, in that version step's transaction, audited before commit.
    Copy the example into a file such as `mark-recent.yaml` and adjust it (Docs/hooks.md has every option):

    ```yaml
    id: mark-recent-items          # keep ids stable: a renamed file without an id is a new hook
    after: 2                       # runs once, when a store reaches version 2
    description: Rate recent items.
    steps:
      - batchUpdate:
          entity: Item
          predicate: "createdAt >= $NOW - 30 days"
          propertiesToUpdate: { rating: 3 }
    onViolation: rollback          # or warn
    ```

    """
}
