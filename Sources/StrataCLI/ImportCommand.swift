import ArgumentParser
import Foundation
import Strata

/// `strata import`: converts other tools' models into Strata model files.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Convert another tool's models into Strata model files.",
        subcommands: [ImportCoreDataCommand.self])
}

/// `strata import coredata PATH [--order FILE] [--force]` (SPEC §12): an Xcode model bundle → `models/<N>.yaml`,
/// its mapping models → `migrations/v<N>-mapping.yaml`, then the lint of the imported history.
struct ImportCoreDataCommand: StrataSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "coredata",
        abstract: "Import an Xcode Core Data model (.xcdatamodeld or .xcdatamodel) into models/<N>.yaml, one file per version.",
        discussion: "Mapping models (.xcmappingmodel inside the bundle or beside it) become migrations/v<N>-mapping.yaml. Existing files are kept unless --force. Exits 2 on unreadable input, 4 when the lint finds steps that need a mapping or TODOs to edit.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The .xcdatamodeld bundle, one .xcdatamodel, or a model's contents file.")
    var path: String

    @Option(name: .customLong("order"), help: ArgumentHelp("A file listing the version names, oldest first (instead of their trailing numbers).", valueName: "FILE"))
    var order: String?

    @Flag(name: .customLong("force"), help: "Replace existing models/<N>.yaml files.")
    var force = false

    struct Document: Encodable {
        struct Written: Encodable { var version: Int; var name: String; var source: String; var file: String; var status: String }
        struct Step: Encodable { var from: Int; var to: Int; var next: String }
        /// A mapping model and the mapping file made from it (`file` nil and status `inferred` when none is needed).
        struct Mapping: Encodable { var from: Int; var to: Int; var source: String; var file: String?; var status: String; var todos: Int }
        struct Lint: Encodable {
            var ok: Bool
            var versions: [Int]
            var errors: Int
            var warnings: Int
            var notInferable: [Step]
            var diagnostics: [JSONDiagnostic]
        }
        var source: String
        var models: String
        var versions: [Written]
        var mappings: [Mapping]
        var written: [String]
        var kept: [String]
        var skipped: [NotCarried]
        var notCarried: [NotCarried]
        /// Mapping models ignored because they are another bundle's.
        var warnings: [JSONDiagnostic]
        var lint: Lint
    }

    func run(output: Output) async throws {
        let result = try CoreDataImport.read(path: path, orderFile: order)
        let directory = global.models
        try check(directory: directory)
        // Every file is staged first and put in place only when all are written: a failed import changes nothing.
        var files = StagedFiles()
        var entries: [Document.Written] = []
        for version in result.versions {
            let file = (directory.hasSuffix("/") ? directory : directory + "/") + "\(version.number).yaml"
            let exists = FileManager.default.fileExists(atPath: file) || (try? FileManager.default.destinationOfSymbolicLink(atPath: file)) != nil
            if exists && !force {
                entries.append(.init(version: version.number, name: version.name, source: version.file, file: file, status: "kept"))
                continue
            }
            files.add(version.yaml, to: file)
            entries.append(.init(version: version.number, name: version.name, source: version.file, file: file,
                                 status: exists ? "replaced" : "written"))
        }
        let mappings = try stageMappings(result.mappings, into: &files)
        try files.commit()

        for warning in result.warnings { output.diagnostic(warning) }
        let outcome = LintCommand.lint(models: directory, migrations: global.migrations, variables: global.variableValues)
        let refused = refusedSteps(outcome)
        let errors = outcome.diagnostics.filter { $0.severity == .error }.count
        let warnings = outcome.diagnostics.count - errors
        for d in outcome.diagnostics { output.diagnostic(d) }

        let written = entries.filter { $0.status != "kept" }.map(\.file) + mappings.filter { $0.status == "written" || $0.status == "replaced" }.compactMap(\.file)
        output.json(Document(
            source: path, models: directory, versions: entries, mappings: mappings,
            written: written, kept: (entries.filter { $0.status == "kept" }.map(\.file) + mappings.filter { $0.status == "kept" }.compactMap(\.file)),
            skipped: result.skipped, notCarried: result.notCarried, warnings: result.warnings.map(JSONDiagnostic.init),
            lint: .init(ok: errors == 0, versions: outcome.versions, errors: errors, warnings: warnings,
                        notInferable: refused.map { .init(from: $0.from, to: $0.to, next: Self.wayForward(from: $0.from, to: $0.to)) },
                        diagnostics: outcome.diagnostics.map(JSONDiagnostic.init))))

        let modelsWritten = entries.filter { $0.status != "kept" }.count
        output.result("imported \(path): \(result.versions.count) version(s), \(modelsWritten) file(s) written to \(directory), \(entries.count - modelsWritten) kept")
        for e in entries {
            switch e.status {
            case "kept": output.line("  kept \(e.file) (\(e.name)): it exists; --force replaces it")
            case "replaced": output.line("  replaced \(e.file) (\(e.name))")
            default: output.line("  wrote \(e.file) (\(e.name))")
            }
        }
        for s in result.skipped { output.line("  skipped \(s.versionName): \(s.reason)") }
        for m in mappings {
            let what = "\(m.source): v\(m.from) → v\(m.to)\(m.todos > 0 ? ", \(m.todos) TODO(s) to edit" : "")"
            switch m.status {
            case "inferred": output.line("  \(m.source) (v\(m.from) → v\(m.to)): every entity mapping is what inference does, no mapping file needed")
            case "kept": output.line("  kept \(m.file ?? "") (\(what)): it exists; --force replaces it")
            case "replaced": output.line("  replaced \(m.file ?? "") (\(what))")
            default: output.line("  wrote \(m.file ?? "") (\(what))")
            }
        }
        let listed = result.notCarried.filter { item in !result.skipped.contains(item) }
        if !listed.isEmpty {
            output.line("not carried (\(listed.count)):")
            for line in Self.grouped(listed) { output.line("  " + line) }
        }
        output.result("lint: \(outcome.versions.count) model version(s), \(errors) error(s), \(warnings) warning(s)")
        for step in refused {
            output.result("  v\(step.from) → v\(step.to) cannot be inferred (the error above says why): \(Self.wayForward(from: step.from, to: step.to))")
        }
        for m in mappings where m.todos > 0 && m.status != "kept" {
            output.result("  v\(m.from) → v\(m.to): edit the \(m.todos) TODO(s) of \(m.file ?? "") (each is exit 4 until edited)")
        }
        if errors > outcome.refusals { output.setExitCode(.invalidInput) } else if errors > 0 { output.setExitCode(.notInferable) }
    }

    /// What a user can do with a step inference refuses (Core Data would have needed a mapping model): a
    /// mapping file, whose skeleton `strata mapping` prints (SPEC §11.3).
    static func wayForward(from: Int, to: Int) -> String {
        "write a mapping file: `strata mapping \(from) \(to) > migrations/v\(to)-mapping.yaml` prints a skeleton to edit"
    }

    /// Not-carried items, one line per (entity, property, reason) with the versions it occurs in
    /// (`v2–v117 Recipe.summary: transient attribute …`): a transient kept for 100 versions is one line.
    static func grouped(_ items: [NotCarried]) -> [String] {
        var order: [String] = []
        var groups: [String: (item: NotCarried, versions: [Int])] = [:]
        for item in items {
            let key = [item.version == nil || item.versionName.hasSuffix(".xcmappingmodel") ? item.versionName : "", item.entity ?? "", item.property ?? "", item.reason].joined(separator: "\u{1F}")
            if groups[key] == nil { order.append(key); groups[key] = (item, []) }
            if let v = item.version { groups[key]!.versions.append(v) }
        }
        return order.map { key in
            let (item, versions) = groups[key]!
            let place = item.versionName.hasSuffix(".xcmappingmodel") || versions.isEmpty ? item.versionName : ranges(versions)
            return place + (item.target.isEmpty ? "" : " " + item.target) + ": " + item.reason
        }
    }

    /// `[2, 3, 4, 7]` → `v2–v4, v7`
    static func ranges(_ versions: [Int]) -> String {
        var parts: [String] = []
        var start = versions[0], end = versions[0]
        for v in versions.dropFirst() {
            if v == end + 1 { end = v; continue }
            parts.append(start == end ? "v\(start)" : "v\(start)–v\(end)")
            start = v; end = v
        }
        parts.append(start == end ? "v\(start)" : "v\(start)–v\(end)")
        return parts.joined(separator: ", ")
    }

    /// The steps whose lint errors are inference refusals (located in the destination version's file).
    func refusedSteps(_ outcome: LintCommand.Outcome) -> [(from: Int, to: Int)] {
        var counts: [Int: Int] = [:]
        for d in outcome.stepRefusals {
            guard let file = d.location?.file, let to = outcome.files[file] else { continue }
            counts[to, default: 0] += 1
        }
        return counts.keys.sorted().compactMap { to in
            guard let index = outcome.versions.firstIndex(of: to), index > 0 else { return nil }
            return (outcome.versions[index - 1], to)
        }
    }

    /// Each mapping file into `migrations/v<N>-mapping.yaml` (staged in `files`), kept when it exists (unless `--force`)
    /// or when another file of the directory already maps the step (two mapping files for one step would be exit 2).
    func stageMappings(_ mappings: [CoreDataImport.Mapping], into files: inout StagedFiles) throws -> [Document.Mapping] {
        var written: [Document.Mapping] = []
        let directory = global.migrations.hasSuffix("/") ? String(global.migrations.dropLast()) : global.migrations
        for m in mappings {
            guard let yaml = m.yaml else {
                written.append(.init(from: m.from, to: m.to, source: m.name, file: nil, status: "inferred", todos: 0))
                continue
            }
            let file = directory + "/v\(m.to)-mapping.yaml"
            if let other = Self.mappingFile(for: m.to, in: directory), other != file {
                written.append(.init(from: m.from, to: m.to, source: m.name, file: other, status: "kept", todos: m.todos))
                continue
            }
            let exists = FileManager.default.fileExists(atPath: file)
            // --force replaces a mapping file, never a hook that happens to have the name.
            let replaceable = force && (try? String(contentsOfFile: file, encoding: .utf8)).map(MappingFileLoader.isMappingFile) ?? true
            if exists && !replaceable {
                written.append(.init(from: m.from, to: m.to, source: m.name, file: file, status: "kept", todos: m.todos))
                continue
            }
            try check(directory: directory, option: "--migrations")
            files.add(yaml, to: file)
            written.append(.init(from: m.from, to: m.to, source: m.name, file: file, status: exists ? "replaced" : "written", todos: m.todos))
        }
        return written
    }

    /// The file of `directory` that is a mapping file for the step to `to`, if any.
    static func mappingFile(for to: Int, in directory: String) -> String? {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
        for name in names where name.hasSuffix(".yaml") || name.hasSuffix(".yml") {
            let path = directory + "/" + name
            guard let text = try? String(contentsOfFile: path, encoding: .utf8), MappingFileLoader.isMappingFile(text),
                  let file = try? MappingFileLoader.load(yaml: text, file: path), file.to == to else { continue }
            return path
        }
        return nil
    }

    /// Refuses an output directory that is a file (exit 2, before anything is written); a missing one is created
    /// when the files are put in place.
    func check(directory: String, option: String = "--models") throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), !isDirectory.boolValue else { return }
        throw Diagnostic.error("\(option) '\(directory)' is a file, not a directory", hint: option == "--models" ? "pass a directory for the model files" : "pass a directory for the hook and mapping files")
    }
}
