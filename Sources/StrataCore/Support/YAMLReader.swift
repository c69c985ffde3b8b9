import Yams

/// Shared helpers for reading YAML documents with located errors (models and hooks).
///
/// Collects diagnostics instead of stopping at the first, so one run reports every mistake.
struct YAMLReader {
    let file: String
    let text: String
    private(set) var diagnostics: [Diagnostic] = []

    init(file: String, text: String) {
        self.file = file
        self.text = text
    }

    /// Parses the text into a node tree, or records the syntax error.
    mutating func compose() -> Node? {
        do {
            // The basic resolver: every scalar is text; Strata reads values by their attribute type, so the
            // implicit typing (regex matching of every scalar) is work without use.
            return try Yams.compose(yaml: text, .basic, .default, .utf8)
        } catch let error as YamlError {
            diagnostics.append(syntaxDiagnostic(error))
            return nil
        } catch {
            diagnostics.append(.error("cannot read YAML: \(error)", at: SourceLocation(file: file, line: 1, column: 1)))
            return nil
        }
    }

    func location(_ node: Node?) -> SourceLocation {
        guard let mark = node?.mark else { return SourceLocation(file: file, line: 1, column: 1) }
        return SourceLocation(file: file, line: mark.line, column: mark.column)
    }

    mutating func error(_ message: String, at node: Node?, hint: String? = nil) {
        diagnostics.append(.error(message, at: location(node), hint: hint))
    }

    mutating func warning(_ message: String, at node: Node?, hint: String? = nil) {
        diagnostics.append(.warning(message, at: location(node), hint: hint))
    }

    mutating func add(_ diagnostic: Diagnostic) { diagnostics.append(diagnostic) }

    /// The diagnostics with source lines attached, sorted by position.
    func finished() -> [Diagnostic] {
        diagnostics.withSources(text).sorted {
            ($0.location?.line ?? 0, $0.location?.column ?? 0) < ($1.location?.line ?? 0, $1.location?.column ?? 0)
        }
    }

    /// A mapping's entries, reporting keys not in `allowed` (with a did-you-mean hint).
    mutating func entries(of node: Node, what: @autoclosure () -> String, allowed: [String]) -> [(key: String, keyNode: Node, value: Node)]? {
        guard case .mapping(let mapping) = node else {
            error("\(what()) must be a mapping", at: node, hint: "write `key: value` pairs")
            return nil
        }
        var result: [(key: String, keyNode: Node, value: Node)] = []
        result.reserveCapacity(mapping.count)
        // By index: Yams' `makeIterator` builds a copy of the pairs first.
        for index in mapping.indices {
            let (keyNode, value) = mapping[index]
            guard case .scalar(let scalar) = keyNode else { error("expected a name", at: keyNode); continue }
            let key = scalar.string
            if !allowed.isEmpty && !allowed.contains(key) {
                error("unknown key '\(key)' in \(what())", at: keyNode,
                      hint: NameSuggestion.hint(for: key, in: allowed) ?? "allowed keys: \(allowed.joined(separator: ", "))")
                continue
            }
            result.append((key, keyNode, value))
        }
        return result
    }

    mutating func string(_ node: Node, what: String) -> String? {
        guard case .scalar(let scalar) = node else { error("\(what) must be a single value", at: node); return nil }
        return scalar.string
    }

    mutating func bool(_ node: Node, what: String) -> Bool? {
        guard case .scalar(let scalar) = node else { error("\(what) must be true or false", at: node); return nil }
        switch scalar.string.lowercased() {
        case "true", "yes": return true
        case "false", "no": return false
        default:
            error("\(what) must be true or false, not '\(scalar.string)'", at: node)
            return nil
        }
    }

    mutating func int(_ node: Node, what: String, minimum: Int? = nil) -> Int? {
        guard case .scalar(let scalar) = node, let value = Int(scalar.string) else {
            error("\(what) must be an integer", at: node)
            return nil
        }
        if let minimum, value < minimum {
            error("\(what) must be at least \(minimum), not \(value)", at: node)
            return nil
        }
        return value
    }

    mutating func stringMap(_ node: Node, what: String) -> [String: String]? {
        guard case .mapping(let mapping) = node else { error("\(what) must be a mapping", at: node); return nil }
        var result: [String: String] = [:]
        for (k, v) in mapping {
            guard let key = k.string, case .scalar(let scalar) = v else { error("\(what) values must be single values", at: v); continue }
            result[key] = scalar.string
        }
        return result
    }

    /// A hook's or mapping file's `variables:`: text values. YAML null is refused: it was the text "null" or "~"
    /// (so `name == $X` matched the objects named "~"), and a variable is text, never nil.
    mutating func variables(_ node: Node) -> [String: String]? {
        guard case .mapping(let mapping) = node else {
            return stringMap(node, what: "variables")
        }
        for (k, v) in mapping {
            if case .scalar(let scalar) = v, scalar.style == .plain, isNull(scalar.string) {
                error("variable \(k.string ?? "?") is null, but a variable is text", at: v,
                      hint: "quote the value (\"\(scalar.string)\") to mean that text; compare with nil in the predicate itself")
            }
        }
        return stringMap(node, what: "variables")
    }

    /// A list of lists of names (`[[a], [b, c]]`), as uniqueness and indexes are written.
    mutating func nameLists(_ node: Node, what: String) -> [([String], Node)]? {
        guard case .sequence(let outer) = node else {
            error("\(what) must be a list of lists of names", at: node, hint: "e.g. [[name], [name, rating]]")
            return nil
        }
        var result: [([String], Node)] = []
        for inner in outer {
            switch inner {
            case .sequence(let names):
                let list = names.compactMap { $0.string }
                if list.count != names.count || list.isEmpty {
                    error("\(what): each entry must be a non-empty list of names", at: inner)
                } else {
                    result.append((list, inner))
                }
            case .scalar(let scalar):
                result.append(([scalar.string], inner))
            default:
                error("\(what): each entry must be a list of names", at: inner)
            }
        }
        return result
    }

    private func syntaxDiagnostic(_ error: YamlError) -> Diagnostic {
        func at(_ mark: Mark) -> SourceLocation { SourceLocation(file: file, line: mark.line, column: mark.column) }
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
             .composer(let context, let problem, let mark, _):
            let extra = context.map { " (\($0.text))" } ?? ""
            return .error("invalid YAML: \(problem)\(extra)", at: at(mark), hint: "check indentation, colons and quotes on this line")
        case .duplicatedKeysInMapping(let duplicates, let context):
            let name = duplicates.first ?? "?"
            return .error("duplicate key '\(name)'", at: laterOccurrence(of: name, after: context.mark) ?? at(context.mark),
                          hint: "each name may appear once in a mapping; rename or remove one of them")
        case .reader(let problem, let offset, _, _):
            // libyaml's reader stops at a character YAML does not allow (a NUL, another control character): at it.
            let location = offset.map { SourceLocation.atScalarOffset($0, in: text, file: file) } ?? SourceLocation(file: file, line: 1, column: 1)
            return .error("cannot read YAML: \(problem)", at: location)
        default:
            return .error("cannot read YAML: \(error)", at: SourceLocation(file: file, line: 1, column: 1))
        }
    }

    /// Yams reports a duplicate key at its first occurrence; the spec wants the later one. Find the next
    /// line that has the same key at the same indentation (block style), else keep the first.
    private func laterOccurrence(of key: String, after mark: Mark) -> SourceLocation? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard mark.line >= 1, mark.line <= lines.count else { return nil }
        let indent = mark.column - 1
        for index in mark.line..<lines.count {
            let line = lines[index]
            let leading = line.prefix { $0 == " " }.count
            if leading < indent && !line.trimmingCharacters(in: .whitespaces).isEmpty { break }
            let rest = line.dropFirst(leading)
            if leading == indent, rest.hasPrefix(key + ":") || rest.hasPrefix("\"\(key)\":") || rest.hasPrefix("'\(key)':") {
                return SourceLocation(file: file, line: index + 1, column: indent + 1)
            }
        }
        return laterFlowOccurrence(of: key, after: mark, lines: lines)
    }

    /// Flow style (`{ type: string, type: int16 }`): the next `key:` after the first occurrence in the same
    /// mapping (nested `{…}` and `[…]` skipped), across lines; nil at the mapping's end.
    private func laterFlowOccurrence(of key: String, after mark: Mark, lines: [Substring]) -> SourceLocation? {
        let spellings = [key, "\"\(key)\"", "'\(key)'"].map { Array($0.unicodeScalars) }
        var depth = 0
        var column = mark.column - 1 + key.unicodeScalars.count
        for index in (mark.line - 1)..<lines.count {
            let scalars = Array(lines[index].unicodeScalars)
            var previous: Unicode.Scalar = index == mark.line - 1 ? "x" : " "
            while column < scalars.count {
                let scalar = scalars[column]
                switch scalar {
                case "{", "[": depth += 1
                case "}", "]":
                    if depth == 0 { return nil }
                    depth -= 1
                default:
                    if depth == 0, [",", " ", "\t", "{"].contains(previous),
                       let spelling = spellings.first(where: { Array(scalars[column...].prefix($0.count)) == $0 }) {
                        let after = scalars[(column + spelling.count)...].drop { $0 == " " || $0 == "\t" }
                        if after.first == ":" { return SourceLocation(file: file, line: index + 1, column: column + 1) }
                    }
                }
                previous = scalar
                column += 1
            }
            column = 0
        }
        return nil
    }
}
