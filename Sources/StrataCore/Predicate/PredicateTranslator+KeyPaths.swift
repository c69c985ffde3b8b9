/// Key paths: attributes, to-one hops (scalar subqueries), to-many hops (collections), aggregates.
extension PredicateTranslator {
    mutating func resolve(_ path: KeyPath, in scope: Position) throws(PredicateSyntaxError) -> Operand {
        var position = scope
        var label: [String] = []
        if let variable = path.variable {
            guard let bound = variables[variable] else {
                throw PredicateSyntaxError("unknown SUBQUERY variable $\(variable)", offset: path.offset,
                                           length: variable.unicodeScalars.count + 1,
                                           hint: "declare it: SUBQUERY(ingredients, $\(variable), …)")
            }
            position = bound
            label.append("$" + variable)
        }
        var components = path.components[...]
        while let component = components.popFirst() {
            label.append(component.name)
            let labelText = label.joined(separator: ".")
            guard let storage = layout.storage(of: position.entity) else { preconditionFailure("entity without storage") }
            if let column = storage.attributeColumns[component.name],
               let attribute = model.attribute(component.name, of: position.entity)?.attribute {
                guard components.isEmpty, path.aggregate == nil else {
                    let next = components.first?.offset ?? path.aggregateOffset
                    throw PredicateSyntaxError("'\(component.name)' is an attribute of \(position.entity); a key path cannot continue after it",
                                               offset: next, hint: "key paths go through relationships, as in author.name")
                }
                return .typed(Typed(fragment: .storage(columnValue(position, storage.table, column), attribute.type), type: attribute.type,
                                    nullable: true, constant: nil, offset: path.offset, label: labelText))
            }
            if let relationship = storage.relationships[component.name] {
                if !relationship.isToMany {
                    let pk = try toOneTarget(position, storage.table, relationship)
                    position = Position(entity: relationship.destination, alias: nil, pk: pk, label: labelText)
                    if components.isEmpty {
                        if let aggregate = path.aggregate {
                            throw PredicateSyntaxError("@\(aggregate) needs a to-many relationship; '\(labelText)' is to-one",
                                                       offset: path.aggregateOffset)
                        }
                        return .relationship(pk: pk, label: labelText, offset: path.offset)
                    }
                    continue
                }
                var collection = toManySource(position, relationship, label: labelText, offset: path.offset)
                collection.rest = KeyPath(variable: nil, components: Array(components), aggregate: path.aggregate,
                                          aggregateOffset: path.aggregateOffset, aggregateComponents: path.aggregateComponents,
                                          offset: components.first?.offset ?? path.offset)
                if let aggregate = path.aggregate {
                    if let hop = components.first {
                        throw PredicateSyntaxError("@\(aggregate) must directly follow the to-many relationship '\(labelText)'",
                                                   offset: hop.offset, hint: "write \(labelText).@\(aggregate)")
                    }
                    return .typed(try self.aggregate(aggregate, over: collection, path: path, label: labelText))
                }
                return .collection(collection)
            }
            let keys = storage.attributeColumns.keys.sorted() + storage.relationships.keys.sorted()
            let suggestion = NameSuggestion.closest(to: component.name, in: keys).map { " (did you mean '\($0)'?)" } ?? ""
            throw PredicateSyntaxError("\(position.entity) has no attribute '\(component.name)'\(suggestion)",
                                       offset: component.offset, length: component.name.unicodeScalars.count,
                                       hint: "\(position.entity)'s keys: \(keys.joined(separator: ", "))")
        }
        throw PredicateSyntaxError("$\(path.variable ?? "") is an object; use one of its keys, as in $\(path.variable ?? "x").name",
                                   offset: path.offset)
    }

    /// A column of the object at `position`: `t."name"` when its row is in scope, else a scalar subquery.
    mutating func columnValue(_ position: Position, _ table: String, _ column: String) -> SQLText {
        if let alias = position.alias { return "\(ColumnName(column, qualifier: alias))" }
        let a = nextAlias("a")
        return "(SELECT \(ColumnName(column, qualifier: a)) FROM \(TableName(table)) AS \(keyword: a) WHERE \(ColumnName("_pk", qualifier: a)) = "
            + position.pk + ")"
    }

    /// The primary key of the destination of a to-one relationship, as a scalar SQL expression.
    mutating func toOneTarget(_ position: Position, _ table: String, _ relationship: RelationshipStorage) throws(PredicateSyntaxError) -> SQLText {
        switch relationship.kind {
        case .foreignKey:
            return columnValue(position, table, relationship.column)
        case .inverseForeignKey:
            let a = nextAlias("a")
            return "(SELECT \(ColumnName("_pk", qualifier: a)) FROM \(TableName(relationship.table)) AS \(keyword: a) WHERE \(ColumnName(relationship.column, qualifier: a)) = "
                + position.pk + " LIMIT 1)"
        case .joinTable:
            let j = nextAlias("j")
            return "(SELECT \(ColumnName(relationship.otherColumn ?? "target", qualifier: j)) FROM \(TableName(relationship.table)) AS \(keyword: j) WHERE \(ColumnName(relationship.column, qualifier: j)) = "
                + position.pk + " LIMIT 1)"
        }
    }

    /// The destination rows of a to-many relationship from the object at `position`.
    mutating func toManySource(_ position: Position, _ relationship: RelationshipStorage, label: String, offset: Int) -> Collection {
        let destinationTable = layout.storage(of: relationship.destination)?.table ?? relationship.destination
        let a = nextAlias("a")
        let inner = Position(entity: relationship.destination, alias: a, pk: "\(ColumnName("_pk", qualifier: a))", label: label)
        let empty = KeyPath(variable: nil, components: [], offset: offset)
        switch relationship.kind {
        case .joinTable:
            let j = nextAlias("j")
            let from: SQLText = """
                \(TableName(relationship.table)) AS \(keyword: j) JOIN \(TableName(destinationTable)) AS \(keyword: a) \
                ON \(ColumnName("_pk", qualifier: a)) = \(ColumnName(relationship.otherColumn ?? "target", qualifier: j))
                """
            return Collection(from: from, correlation: "\(ColumnName(relationship.column, qualifier: j)) = " + position.pk,
                              inner: inner, rest: empty, label: label, offset: offset)
        case .inverseForeignKey, .foreignKey:
            let from: SQLText = "\(TableName(relationship.table)) AS \(keyword: a)"
            return Collection(from: from, correlation: "\(ColumnName(relationship.column, qualifier: a)) = " + position.pk,
                              inner: inner, rest: empty, label: label, offset: offset)
        }
    }

    /// `@count`, `@sum.x`, `@avg.x`, `@min.x`, `@max.x` over a collection.
    mutating func aggregate(_ name: String, over c: Collection, path: KeyPath, label: String) throws(PredicateSyntaxError) -> Typed {
        let head: SQLText = "(SELECT "
        let tail = " FROM " + c.from + " WHERE " + c.correlation + ")"
        if name == "count" {
            if let extra = path.aggregateComponents.first {
                throw PredicateSyntaxError("@count takes no key after it", offset: extra.offset, hint: "write \(label).@count")
            }
            return Typed(fragment: head + "COUNT(*)" + tail, type: .int64, nullable: false, constant: nil,
                         offset: path.offset, label: "\(label).@count")
        }
        guard path.aggregateComponents.count == 1, let key = path.aggregateComponents.first else {
            throw PredicateSyntaxError("@\(name) needs one attribute of \(c.inner.entity) after it", offset: path.aggregateOffset,
                                       hint: "write \(label).@\(name).quantity")
        }
        let inner = try resolve(KeyPath(variable: nil, components: [key], offset: key.offset), in: c.inner)
        guard case .typed(let value) = inner, value.type.isOrdered || (name != "sum" && name != "avg" && value.type.isTextual) else {
            throw PredicateSyntaxError("@\(name) needs a numeric attribute; \(c.inner.entity).\(key.name) is not one", offset: key.offset)
        }
        let fullLabel = "\(label).@\(name).\(key.name)"
        switch name {
        case "sum":
            let type: AttributeType = value.type.isInteger ? .int64 : .double
            return Typed(fragment: head + "COALESCE(SUM(" + value.fragment + "), 0)" + tail, type: type, nullable: false,
                         constant: nil, offset: path.offset, label: fullLabel)
        case "avg":
            return Typed(fragment: head + "AVG(" + value.fragment + ")" + tail, type: .double, nullable: true,
                         constant: nil, offset: path.offset, label: fullLabel)
        default:
            return Typed(fragment: head + .call(name.uppercased(), [value.fragment]) + tail, type: value.type, nullable: true,
                         constant: nil, offset: path.offset, label: fullLabel)
        }
    }

    /// `SUBQUERY(collection, $x, predicate).@count`
    mutating func subquery(_ collectionPath: KeyPath, variable: String, predicate: PredicateNode, count: Bool,
                           offset: Int, in scope: Position) throws(PredicateSyntaxError) -> Operand {
        guard case .collection(let c) = try resolve(collectionPath, in: scope), c.rest.components.isEmpty, c.rest.aggregate == nil else {
            throw PredicateSyntaxError("SUBQUERY needs a to-many relationship", offset: collectionPath.offset,
                                       hint: "SUBQUERY(ingredients, $i, $i.name == \"salt\").@count")
        }
        guard count else {
            throw PredicateSyntaxError("SUBQUERY(…) must be followed by .@count", offset: offset, hint: "SUBQUERY(…).@count > 0")
        }
        let saved = variables[variable]
        variables[variable] = c.inner
        defer { variables[variable] = saved }
        let condition = try self.predicate(predicate, in: scope)
        let fragment = "(SELECT COUNT(*) FROM " + c.from + " WHERE " + c.correlation + " AND " + condition.fragment + ")"
        return .typed(Typed(fragment: fragment, type: .int64, nullable: false, constant: nil, offset: offset, label: "SUBQUERY(…).@count"))
    }
}
