import ArgumentParser
import Strata

/// `strata mapping FROM TO`: a mapping file skeleton for one step (SPEC §11.3).
struct MappingCommand: StrataSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "mapping",
        abstract: "Print a mapping file skeleton for one version step: inferred choices written out, TODO where inference refuses.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The source model version.") var from: Int
    @Argument(help: "The destination model version (the next one).") var to: Int

    struct Document: Encodable {
        var from: Int
        var to: Int
        var todos: Int
        var yaml: String
    }

    func run(output: Output) async throws {
        let history = try ModelHistory.load(directory: global.models)
        for warning in history.warnings { output.diagnostic(warning) }
        let skeleton = try MappingSkeleton.make(models: history, from: from, to: to)
        output.json(Document(from: from, to: to, todos: skeleton.todos, yaml: skeleton.yaml))
        output.result(String(skeleton.yaml.dropLast()))
    }
}
