/// Insert values (`batchInsert … from:`): expressions over a source row, assigned to an attribute or a
/// to-one relationship of the inserted entity.
extension PredicateCompiler {
    /// What an insert value sets: an attribute's column, or a to-one relationship's foreign key.
    public enum InsertTarget: Sendable, Hashable {
        case attribute(column: String, Attribute)
        /// A to-one relationship stored on the inserted row: its column and destination entity.
        case toOne(column: String, destination: String)
        /// The non-storing side of a one-to-one: the link is `column` of the destination's `table`, set after the insert.
        case inverseToOne(table: String, column: String, destination: String)

        public var column: String {
            switch self {
            case .attribute(let column, _), .toOne(let column, _), .inverseToOne(_, let column, _): return column
            }
        }
    }

    /// The column `name` of `entity` that an insert may set: an attribute or a to-one relationship whose
    /// foreign key is on this entity's row.
    /// - Throws: unknown names, to-many relationships, and to-one relationships stored on the other side.
    func insertTarget(_ name: String, of entity: String) throws(PredicateSyntaxError) -> InsertTarget {
        guard let storage = layout.storage(of: entity) else {
            throw PredicateSyntaxError("unknown entity '\(entity)'", offset: 0, hint: NameSuggestion.hint(for: entity, in: model.entityNames))
        }
        if let link = storage.relationships[name] {
            guard !link.isToMany else {
                throw PredicateSyntaxError("'\(name)' is a to-many relationship of \(entity); an insert sets attributes and to-one relationships only",
                                           offset: 0, hint: "link the objects afterwards with a setRelationship step")
            }
            if link.kind == .inverseForeignKey { return .inverseToOne(table: link.table, column: link.column, destination: link.destination) }
            return .toOne(column: link.column, destination: link.destination)
        }
        let attribute = try targetAttribute(name, of: entity)
        return .attribute(column: attribute.column, attribute.attribute)
    }

    /// Compiles `expression`, evaluated on each row of `source` (alias `t`), as the value of `property` of
    /// the inserted `entity`. The source row is `$source`; its keys may be written with or without
    /// `$source.` (`$source.title`, `title`); `$source` itself, or a to-one key path of it, sets a to-one
    /// relationship.
    /// - Returns: the SQL and how many `%@` arguments it used.
    public func compileInsertValue(_ expression: String, for property: String, of entity: String, source: String,
                                   context: PredicateContext, firstArgument: Int = 0,
                                   origin: SourceLocation = SourceLocation(file: "value", line: 1, column: 1))
        throws(PredicateCompileError) -> (SQLText, argumentsUsed: Int) {
        do throws(PredicateSyntaxError) {
            let target = try insertTarget(property, of: entity)
            var parser = try PredicateParser(expression, arguments: context.arguments, firstArgument: firstArgument)
            let parsed = try parser.parseWholeExpression()
            var translator = PredicateTranslator(model: model, layout: layout, context: context)
            translator.realLiteralTexts = parser.realLiteralTexts
            let row = translator.root(source)
            translator.variables["source"] = row
            let label = "\(entity).\(property)"
            switch target {
            case .attribute(_, let attribute):
                if case .variable("source", let offset) = parsed {
                    throw PredicateSyntaxError("$source is an object; \(label) is \(attribute.type.rawValue)", offset: offset,
                                               length: 7, hint: "use one of its keys, as in $source.name")
                }
                if case .null(let offset) = parsed, !attribute.isOptional {
                    throw PredicateSyntaxError("\(label) is not optional: it cannot be set to nil", offset: offset,
                                               hint: "give a value of type \(attribute.type.rawValue), or make the attribute optional in the model")
                }
                let operand = try translator.operand(parsed, in: row)
                let fragment = SQLText.native(try translator.assignment(operand, to: attribute, label: label), attribute.type)
                try SQLComplexity.check(fragment)
                return (fragment, parser.argumentsUsed)
            case .toOne(_, let destination), .inverseToOne(_, _, let destination):
                let (pk, found, offset): (SQLText, String?, Int)
                switch parsed {
                case .variable("source", let o):
                    (pk, found, offset) = (row.pk, source, o)
                case .null:
                    return ("NULL", parser.argumentsUsed)
                case .keyPath(let path):
                    let operand = try translator.operand(parsed, in: row)
                    if case .collection(let c) = operand {
                        throw PredicateSyntaxError("'\(c.label)' is a to-many relationship; \(label) takes one object", offset: path.offset,
                                                   hint: "give $source or a to-one key path of it")
                    }
                    guard case .relationship(let linked, _, _) = operand else {
                        throw PredicateSyntaxError("\(label) is a relationship to \(destination); give $source or a to-one key path of it",
                                                   offset: path.offset, hint: "e.g. recipe: \"$source\" or recipe: \"$source.recipe\"")
                    }
                    (pk, found, offset) = (linked, toOneDestination(path, from: source), path.offset)
                default:
                    throw PredicateSyntaxError("\(label) is a relationship to \(destination); give $source or a to-one key path of it",
                                               offset: parsed.offset, hint: "e.g. recipe: \"$source\" or recipe: \"$source.recipe\"")
                }
                guard let found, model.isKind(found, of: destination) else {
                    throw PredicateSyntaxError("\(label) is a relationship to \(destination), but this value is \(found.map { "a \($0)" } ?? "not an object")",
                                               offset: offset)
                }
                return (pk, parser.argumentsUsed)
            }
        } catch {
            throw PredicateCompileError(error, in: expression, origin: origin)
        }
    }

    /// The entity a to-one key path (`$source.recipe.author`) ends at, walked through the model.
    func toOneDestination(_ path: KeyPath, from entity: String) -> String? {
        var current = entity
        for component in path.components {
            guard let link = model.relationship(component.name, of: current)?.relationship, !link.isToMany else { return nil }
            current = link.destination
        }
        return path.components.isEmpty ? nil : current
    }
}
