import Foundation

/// `{{…}}` placeholders of an `sql:` step, and the step's text expanded for one store layout.
package enum SQLPlaceholder: Sendable, Hashable {
    /// `{{Entity}}`: the entity's table (a sub-entity's root table).
    case table(entity: String)
    /// `{{Entity.property}}`: the column of an attribute or of a to-one stored on the entity's table.
    case column(entity: String, property: String)
    /// `{{Entity:filter}}`: `"_entity" IN ('Entity', …)`, the entity and its sub-entities.
    case filter(entity: String)
    /// `{{$NOW}}` or `{{$NAME}}`: a bound parameter.
    case variable(String)
}

extension SQLStep {
    /// A piece of the step's text: SQL as written, or a placeholder; `offset` is its UTF-8 offset in `text`.
    package enum Piece: Sendable, Hashable {
        case sql(String)
        case placeholder(SQLPlaceholder)
    }

    /// The text cut into SQL and placeholders.
    /// - Throws: an unterminated `{{` or an empty or malformed placeholder, located in the hook file.
    package func pieces() throws(Diagnostic) -> [(piece: Piece, offset: Int)] {
        let bytes = Array(text.utf8)
        var result: [(Piece, Int)] = []
        var start = 0, i = 0
        func slice(_ a: Int, _ b: Int) -> String { String(decoding: bytes[a..<b], as: UTF8.self) }
        while i + 1 < bytes.count {
            guard bytes[i] == UInt8(ascii: "{"), bytes[i + 1] == UInt8(ascii: "{") else { i += 1; continue }
            var j = i + 2
            while j + 1 < bytes.count, !(bytes[j] == UInt8(ascii: "}") && bytes[j + 1] == UInt8(ascii: "}")) { j += 1 }
            guard j + 1 < bytes.count else {
                throw Diagnostic.error("unterminated placeholder: '{{' without '}}'", at: location(atUTF8Offset: i),
                                       hint: "write {{Entity}}, {{Entity.property}}, {{Entity:filter}} or {{$NAME}}")
            }
            if i > start { result.append((.sql(slice(start, i)), start)) }
            let inner = slice(i + 2, j).trimmingCharacters(in: .whitespaces)
            result.append((.placeholder(try Self.placeholder(inner, at: location(atUTF8Offset: i))), i))
            i = j + 2
            start = i
        }
        if start < bytes.count { result.append((.sql(slice(start, bytes.count)), start)) }
        return result
    }

    static func placeholder(_ inner: String, at location: SourceLocation) throws(Diagnostic) -> SQLPlaceholder {
        func isName(_ s: Substring) -> Bool {
            guard let first = s.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
            return s.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
        }
        if inner.hasPrefix("$"), isName(inner.dropFirst()) { return .variable(String(inner.dropFirst())) }
        let filterParts = inner.split(separator: ":", omittingEmptySubsequences: false)
        if filterParts.count == 2 {
            guard filterParts[1] == "filter", isName(filterParts[0]) else {
                throw Diagnostic.error("unknown placeholder '{{\(inner)}}'", at: location, hint: "the only modifier is {{Entity:filter}}")
            }
            return .filter(entity: String(filterParts[0]))
        }
        let parts = inner.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count == 1, isName(parts[0]) { return .table(entity: inner) }
        if parts.count == 2, isName(parts[0]), isName(parts[1]) { return .column(entity: String(parts[0]), property: String(parts[1])) }
        throw Diagnostic.error("invalid placeholder '{{\(inner)}}'", at: location,
                               hint: "write {{Entity}}, {{Entity.property}}, {{Entity:filter}} or {{$NAME}}")
    }

    /// The step's SQL for one store layout: placeholders replaced by quoted names and bound values.
    /// - Parameters:
    ///   - layout: the store's recorded layout at the hook's version (a new store's when there is none).
    ///   - variables: `--var` values over the hook's `variables:`; `now` is `$NOW`.
    /// - Throws: an unknown entity, property or variable, located at its placeholder in the hook file.
    ///   - schema: the PostgreSQL schema that qualifies `{{Entity}}` (nil on SQLite).
    package func expanded(layout: StoreLayout, variables: [String: String], now: Double,
                          schema: String? = nil) throws(Diagnostic) -> ExpandedSQL {
        var result = ExpandedSQL()
        for (piece, offset) in try pieces() {
            switch piece {
            case .sql(let sql):
                // The one place users' text becomes SQL text: an `sql:` step is SQL the user wrote to run as
                // written. Names and values that Strata supplies still go in as identifiers and bound values.
                result.append(SQLText(pieces: [.text(sql)]), source: offset, isText: true)
            case .placeholder(let placeholder):
                let at = location(atUTF8Offset: offset)
                result.append(try Self.expand(placeholder, layout: layout, variables: variables, now: now, schema: schema, at: at),
                              source: offset, isText: false, labels: Self.labels(placeholder, layout: layout, variables: variables))
            }
        }
        return result
    }

    /// What each value a placeholder binds stands for, for `diff --sql` (`$NOW`, `$NAME = 'value'`, `'Entity'`).
    static func labels(_ placeholder: SQLPlaceholder, layout: StoreLayout, variables: [String: String]) -> [String] {
        switch placeholder {
        case .variable("NOW"): return ["$NOW"]
        case .variable(let name): return ["$\(name) = " + quoted(variables[name] ?? "")]
        case .filter(let entity): return layout.storage(of: entity).map { $0.isDiscriminated ? $0.kinds.map(quoted) : [] } ?? []
        case .table, .column: return []
        }
    }

    static func quoted(_ text: String) -> String { "'" + text.doublingQuotes("'") + "'" }

    static func storage(_ entity: String, in layout: StoreLayout, at location: SourceLocation) throws(Diagnostic) -> EntityStorage {
        guard let storage = layout.storage(of: entity) else {
            throw Diagnostic.error("unknown entity '\(entity)' in an sql: placeholder", at: location,
                                   hint: NameSuggestion.hint(for: entity, in: Array(layout.entities.keys).sorted()))
        }
        return storage
    }

    static func expand(_ placeholder: SQLPlaceholder, layout: StoreLayout, variables: [String: String], now: Double,
                       schema: String? = nil, at location: SourceLocation) throws(Diagnostic) -> SQLText {
        switch placeholder {
        case .table(let entity):
            // On PostgreSQL the schema-qualified name: `"app"."Recipe"`.
            return "\(TableName(try storage(entity, in: layout, at: location).table, schema: schema.map(SQLDialect.postgresql.quote)))"
        case .column(let entity, let property):
            let storage = try storage(entity, in: layout, at: location)
            if property == "_pk" { return "\(ColumnName("_pk"))" }
            if let column = storage.attributeColumns[property] { return "\(ColumnName(column))" }
            if let link = storage.relationships[property] {
                guard link.kind == .foreignKey, link.table == storage.table else {
                    throw Diagnostic.error("\(entity).\(property) has no column in \(entity)'s table: it is stored in '\(link.table)'",
                                           at: location, hint: "name that table's columns, or the inverse relationship's")
                }
                return "\(ColumnName(link.column))"
            }
            let names = Array(storage.attributeColumns.keys) + storage.relationships.keys
            throw Diagnostic.error("\(entity) has no property '\(property)'", at: location,
                                   hint: NameSuggestion.hint(for: property, in: names.sorted()))
        case .filter(let entity):
            let storage = try storage(entity, in: layout, at: location)
            guard storage.isDiscriminated else { return .keyword(.true) }   // a table of one entity: every row is one
            let kinds = storage.kinds.map { SQLText.bind(.text($0)) }
            return "\(ColumnName("_entity")) IN (\(kinds.joined(separator: ", ")))"
        case .variable(let name):
            if name == "NOW" { return .bind(.real(now)) }
            guard let value = variables[name] else {
                throw Diagnostic.error("unknown variable '$\(name)'", at: location,
                                       hint: "set it with `--var \(name)=VALUE` (the library's `variables`) or the hook's `variables:`")
            }
            return .bind(.text(value))
        }
    }
}

/// An `sql:` step's text for one layout, with the way back from the SQLite text to the hook file.
package struct ExpandedSQL: Sendable, Hashable {
    /// The whole step: text as written, quoted names, bound values.
    public private(set) var text = SQLText()
    /// For each piece, in order: its UTF-8 offset in the SQLite text, in the step's text, and whether it is
    /// text as written (offsets inside it map one to one).
    public private(set) var spans: [Span] = []
    /// The UTF-8 offset in the SQLite text of each bound value's `?`, in order.
    public private(set) var valueOffsets: [Int] = []
    private var renderedLength = 0

    public struct Span: Sendable, Hashable {
        public var rendered: Int
        public var source: Int
        public var isText: Bool
    }

    public init() {}

    /// What each bound value stands for (`$NOW`, `$NAME = 'value'`, `'Entity'`), in order.
    public private(set) var valueLabels: [String] = []

    mutating func append(_ piece: SQLText, source: Int, isText: Bool, labels: [String] = []) {
        spans.append(Span(rendered: renderedLength, source: source, isText: isText))
        var pending = labels[...]
        for part in piece.sqlitePieces {
            let one = SQLText(pieces: [part])
            if case .value(let value) = part {
                valueOffsets.append(renderedLength)
                valueLabels.append(pending.popFirst() ?? value.description)
            }
            renderedLength += one.sql.utf8.count
        }
        text.append(piece)
    }

    /// The SQLite text with each `?` followed by a comment saying what it binds: `? /* $NOW */`.
    public var annotated: String {
        var bytes = Array(text.sql.utf8)
        for (offset, label) in zip(valueOffsets, valueLabels).reversed() {
            let comment = " /* " + label.replacingOccurrences(of: "*/", with: "* /") + " */"
            bytes.insert(contentsOf: Array(comment.utf8), at: offset + 1)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The offset in the step's text of the SQLite text's byte `rendered`.
    public func sourceOffset(ofRendered rendered: Int) -> Int {
        guard let span = spans.last(where: { $0.rendered <= rendered }) else { return 0 }
        return span.isText ? span.source + (rendered - span.rendered) : span.source
    }
}
