/// What `strata diff FROM TO --sql` prints (SPEC §11.4 "Seeing what will run"): each version step's SQL in
/// run order (before-hooks' steps, the mapping file, the inferred schema changes, after-hooks' steps; a Swift stage by
/// its id), `sql:` steps expanded and batch steps planned for the layout they run on, each bound value shown in a
/// comment after its `?`. Nothing runs.
package enum SQLPreview {
    public struct Section: Sendable, Hashable, Encodable {
        public var fromVersion: Int
        public var toVersion: Int
        /// `before-hook`, `mapping` (the mapping file's entities, as comments: its SQL is in `schema`), `schema`
        /// (the inferred changes, with the mapping's) or `after-hook`.
        public var stage: String
        public var hook: String?
        /// 1-based step of the hook.
        public var step: Int?
        /// `sql`, `batchUpdate`, `batchDelete`, … (`schema` for the inferred changes).
        public var kind: String
        /// The entity a batch request names.
        public var entity: String?
        /// Statements (the inferred changes, a batch step's), or one `sql:` step's text as it will run; empty
        /// for a Swift stage.
        public var sql: [String]
    }

    /// - Parameters:
    ///   - steps: the planned version steps (planned from the store's recorded layout, or a new store's).
    ///   - models: the model history (a hook's batch steps are planned on its model).
    ///   - variables: `--var` values (over each hook's `variables:`).
    ///   - now: `$NOW` as the preview binds it (seconds since 1970).
    /// - Throws: a placeholder naming nothing, an unset variable, or a batch step that does not plan, located in
    ///   the hook file.
    public static func sections(steps: [VersionStep], hooks: HookSet, models: ModelHistory, variables: [String: String],
                                now: Double) throws(DiagnosticList) -> [Section] {
        var sections: [Section] = []
        var errors: [Diagnostic] = []
        for step in steps {
            func add(_ list: [Hook], stage: String, layout: StoreLayout, model: Model?) {
                for hook in list {
                    let context = hook.variables.merging(variables) { _, cli in cli }
                    for (index, hookStep) in hook.steps.enumerated() {
                        var section = Section(fromVersion: step.fromVersion, toVersion: step.toVersion, stage: stage, hook: hook.id,
                                              step: index + 1, kind: hookStep.kind,
                                              entity: hookStep.entity.isEmpty ? nil : hookStep.entity, sql: [])
                        if case .sql(let sql) = hookStep {
                            do {
                                section.sql = [try sql.expanded(layout: layout, variables: context, now: now).annotated]
                            } catch {
                                errors.append(error.withSource(hook.source))
                            }
                        } else if let model {
                            do throws(BatchError) {
                                section.sql = try statements(of: hookStep, model: model, layout: layout,
                                                             context: PredicateContext(variables: context, now: now)).map { $0 + ";" }
                            } catch {
                                var diagnostic = error.diagnostics.first ?? .error("\(error)")
                                if diagnostic.location == nil, index < hook.stepLocations.count { diagnostic.location = hook.stepLocations[index] }
                                errors.append(diagnostic.withSource(hook.source))
                            }
                        }
                        sections.append(section)
                    }
                }
            }
            // In run order (SPEC §11.4): before-hooks on the version below, the inferred changes, after-hooks.
            add(hooks.hooks(before: step.toVersion), stage: "before-hook", layout: step.sourceLayout, model: models.model(version: step.fromVersion))
            if let file = step.mappingFile {
                // The mapping file runs with the inferred changes, as one plan: its expressions are in the SQL below.
                sections.append(Section(fromVersion: step.fromVersion, toVersion: step.toVersion, stage: "mapping", hook: file.file, step: nil,
                                        kind: "mapping", entity: nil, sql: step.mappedEntities.map(mappingLine)))
            }
            sections.append(Section(fromVersion: step.fromVersion, toVersion: step.toVersion, stage: "schema", hook: nil, step: nil,
                                    kind: "schema", entity: nil, sql: step.sqlText.map { $0 + ";" }))
            add(hooks.hooks(after: step.toVersion), stage: "after-hook", layout: step.destinationLayout, model: models.model(version: step.toVersion))
        }
        if !errors.isEmpty { throw DiagnosticList(errors) }
        return sections
    }

    /// `-- Media ← Photo, Video (new IDs): duration = int64(seconds)`: a mapped entity, as a comment.
    static func mappingLine(_ e: MappedEntity) -> String {
        var line = "--   \(e.entity) ← \(e.source)" + (e.newIDs ? " (new IDs)" : "")
        if let filter = e.filter { line += ", filter: \(filter)" }
        let values = e.attributes.sorted { $0.key < $1.key }.map { "\($0.key) = \($0.value)" }
        return values.isEmpty ? line : line + ": " + values.joined(separator: ", ")
    }

    /// The sections as text: a `--` comment line per section, then its SQL.
    public static func text(_ sections: [Section]) -> [String] {
        var lines: [String] = []
        for section in sections {
            let step = "v\(section.fromVersion) → v\(section.toVersion)"
            switch section.stage {
            case "mapping":
                lines.append("-- \(step): mapping \(section.hook ?? "") (runs with the inferred changes, as one plan)")
            case "schema":
                lines.append("-- \(step): inferred changes" + (section.sql.isEmpty ? " (metadata only)" : ""))
            default:
                let what: String
                switch section.kind {
                case "sql": what = "sql"
                case "swift": what = "Swift stage \(section.hook ?? "")" + (section.entity.map { " (writes \($0))" } ?? "")
                default: what = section.kind + (section.entity.map { " \($0)" } ?? "")
                }
                lines.append("-- \(step): \(section.stage) \(section.hook ?? "") step \(section.step ?? 0): \(what)")
            }
            for sql in section.sql {
                lines.append(sql.hasSuffix("\n") ? String(sql.dropLast()) : sql)
            }
        }
        return lines
    }
}
