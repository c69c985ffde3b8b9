/// The structural rules of SPEC §2 that span entities: names, reserved names, destinations,
/// inverses, hierarchy, column and table clashes, constraint references.
enum ModelChecker {
    /// `[A-Za-z][A-Za-z0-9_]*`
    static func isValidName(_ name: String) -> Bool {
        func letter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }
        guard let first = name.utf8.first, letter(first) else { return false }
        return name.utf8.allSatisfy { letter($0) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F }
    }

    /// Whether `name` starts with `prefix` (ASCII, lowercase), ignoring the case of ASCII letters.
    static func hasPrefixIgnoringCase(_ name: String, _ prefix: String) -> Bool {
        var bytes = name.utf8.makeIterator()
        for p in prefix.utf8 {
            guard let b = bytes.next(), (b >= 0x41 && b <= 0x5A ? b | 0x20 : b) == p else { return false }
        }
        return true
    }

    /// Checks the model; returns its creation layout when it could be computed (no cycle, no unknown entity).
    @discardableResult
    static func check(_ model: Model, into r: inout YAMLReader) -> StoreLayout? {
        checkNames(model, &r)
        checkHierarchy(model, &r)
        checkRelationships(model, &r)
        checkConstraints(model, &r)
        return checkClashes(model, &r)
    }

    /// Reserved: `_`-prefixed and `strata_` names are Strata's, `sqlite_` (any case) is SQLite's.
    static func reservedReason(_ name: String) -> String? {
        if hasPrefixIgnoringCase(name, "strata_") { return "names starting with 'strata_' are reserved for Strata" }
        if hasPrefixIgnoringCase(name, "sqlite_") { return "names starting with 'sqlite_' are reserved by SQLite" }
        if name.hasPrefix("_") { return "names starting with '_' are reserved for Strata's own columns" }
        return nil
    }

    static func checkName(_ name: String, what: String, at location: SourceLocation?, _ r: inout YAMLReader) {
        if let reason = reservedReason(name) {
            r.add(.error("\(what) name '\(name)' is reserved: \(reason)", at: location, hint: "choose another name"))
        } else if !isValidName(name) {
            r.add(.error("invalid \(what) name '\(name)'", at: location,
                         hint: "names start with a letter and contain only letters, digits and '_'"))
        }
    }

    static func checkNames(_ model: Model, _ r: inout YAMLReader) {
        for e in model.entities {
            checkName(e.name, what: "entity", at: e.location, &r)
            if let table = e.table { checkName(table, what: "table", at: e.keyLocations["table"], &r) }
            var seen: [String: SourceLocation?] = [:]
            for a in e.attributes {
                checkName(a.name, what: "attribute", at: a.location, &r)
                if let c = a.column { checkName(c, what: "column", at: a.keyLocations["column"], &r) }
                seen[a.name] = a.location
            }
            for rel in e.relationships {
                checkName(rel.name, what: "relationship", at: rel.location, &r)
                if let c = rel.column { checkName(c, what: "column", at: rel.keyLocations["column"], &r) }
                if seen[rel.name] != nil {
                    r.add(.error("'\(e.name)' declares '\(rel.name)' both as an attribute and as a relationship", at: rel.location,
                                 hint: "rename one of them"))
                }
            }
        }
    }

    static func checkHierarchy(_ model: Model, _ r: inout YAMLReader) {
        for e in model.entities {
            if let parent = e.parent {
                if model.entity(parent) == nil {
                    r.add(.error("unknown parent entity '\(parent)'", at: e.keyLocations["parent"],
                                 hint: NameSuggestion.hint(for: parent, in: model.entityNames) ?? "declare '\(parent)' or remove `parent:`"))
                    continue
                }
                if e.table != nil {
                    r.add(.error("sub-entity '\(e.name)' cannot declare a table: it is stored in its root's table",
                                 at: e.keyLocations["table"], hint: "remove `table:` or set it on the root entity"))
                }
            }
            // Cycle: walking up returns to the entity.
            var seen: Set<String> = [e.name]
            var current = e.parent
            while let p = current, let pe = model.entity(p) {
                if p == e.name {
                    r.add(.error("entity '\(e.name)' is its own ancestor (parent cycle)", at: e.keyLocations["parent"] ?? e.location,
                                 hint: "remove `parent:` from one entity of the cycle"))
                    break
                }
                guard seen.insert(p).inserted else { break }
                current = pe.parent
            }
            if e.isAbstract && model.children(of: e.name).isEmpty {
                r.add(.error("abstract entity '\(e.name)' has no sub-entities", at: e.keyLocations["abstract"] ?? e.location,
                             hint: "add an entity with `parent: \(e.name)` or remove `abstract: true`"))
            }
        }
        // Sub-entities may not redeclare inherited properties.
        for e in model.entities where e.parent != nil && !inCycle(e.name, model) {
            let inherited = Set(model.lineage(of: e.name).dropFirst().flatMap { $0.attributes.map(\.name) + $0.relationships.map(\.name) })
            for a in e.attributes where inherited.contains(a.name) {
                r.add(.error("'\(e.name)' redeclares '\(a.name)', which it inherits", at: a.location, hint: "remove it or rename it"))
            }
            for rel in e.relationships where inherited.contains(rel.name) {
                r.add(.error("'\(e.name)' redeclares '\(rel.name)', which it inherits", at: rel.location, hint: "remove it or rename it"))
            }
        }
    }

    static func inCycle(_ name: String, _ model: Model) -> Bool {
        var seen: Set<String> = []
        var current: String? = name
        while let c = current, let e = model.entity(c) {
            guard seen.insert(c).inserted else { return true }
            current = e.parent
        }
        return false
    }

    static func checkRelationships(_ model: Model, _ r: inout YAMLReader) {
        for e in model.entities {
            for rel in e.relationships {
                guard model.entity(rel.destination) != nil else {
                    r.add(.error("unknown destination entity '\(rel.destination)'", at: rel.keyLocations["destination"],
                                 hint: NameSuggestion.hint(for: rel.destination, in: model.entityNames) ?? "declare the entity or fix the name"))
                    continue
                }
                if let inverse = rel.inverse {
                    if model.effectiveInverse(of: rel, in: e.name) == nil {
                        let found = model.relationship(inverse, of: rel.destination)
                        let why = found == nil ? "'\(rel.destination)' has no relationship '\(inverse)'"
                            : "'\(rel.destination).\(inverse)' does not point back to '\(e.name).\(rel.name)'"
                        r.add(.warning("inverse of '\(e.name).\(rel.name)' does not point back: \(why); stored as if it had no inverse",
                                       at: rel.keyLocations["inverse"], hint: NameSuggestion.hint(for: inverse, in: model.allRelationships(of: rel.destination).map(\.relationship.name))))
                    }
                } else {
                    r.add(.warning("relationship '\(e.name).\(rel.name)' has no inverse", at: rel.location,
                                   hint: "Core Data recommends an inverse for every relationship; it is stored without one"))
                }
            }
        }
    }

    static func checkConstraints(_ model: Model, _ r: inout YAMLReader) {
        for e in model.entities where !inCycle(e.name, model) {
            let attributes = model.allAttributes(of: e.name).map(\.attribute.name)
            let toOnes = model.allRelationships(of: e.name).filter { !$0.relationship.isToMany }.map(\.relationship.name)
            for (kind, lists) in [("uniqueness", e.uniqueness), ("indexes", e.indexes)] {
                for (i, list) in lists.enumerated() {
                    for name in list where !attributes.contains(name) && !toOnes.contains(name) {
                        let isToMany = model.relationship(name, of: e.name) != nil
                        r.add(.error(isToMany ? "\(kind) cannot use the to-many relationship '\(name)'"
                                              : "\(kind) names unknown attribute '\(name)' of '\(e.name)'",
                                     at: e.keyLocations["\(kind).\(i)"],
                                     hint: isToMany ? "use attributes or to-one relationships" : NameSuggestion.hint(for: name, in: attributes + toOnes)))
                    }
                }
            }
        }
    }

    /// Column names within an entity, table names across the model, generated names.
    static func checkClashes(_ model: Model, _ r: inout YAMLReader) -> StoreLayout? {
        let hasCycle = model.entities.contains { inCycle($0.name, model) }
        let hasUnknown = model.entities.contains { e in
            (e.parent.map { model.entity($0) == nil } ?? false) || e.relationships.contains { model.entity($0.destination) == nil }
        }
        for e in model.entities {
            var columns: [String: String] = [:]
            for a in e.attributes {
                let column = a.column ?? a.name
                if let other = columns[column.lowercased()] {
                    r.add(.error("'\(e.name).\(a.name)' would be stored in the same column as '\(other)' (names equal ignoring case)",
                                 at: a.location, hint: "set `column:` to a different name"))
                } else { columns[column.lowercased()] = a.name }
            }
            for rel in e.relationships where !rel.isToMany && e.attribute(rel.name) == nil {
                let column = rel.column ?? rel.name
                if let other = columns[column.lowercased()] {
                    r.add(.error("'\(e.name).\(rel.name)' would be stored in the same column as '\(other)' (names equal ignoring case)",
                                 at: rel.location, hint: "set `column:` to a different name"))
                } else { columns[column.lowercased()] = rel.name }
            }
        }
        // A name declared as an attribute and as a relationship is its own error: no layout to check.
        let hasDoubleName = model.entities.contains { e in e.relationships.contains { e.attribute($0.name) != nil } }
        guard !hasCycle && !hasUnknown && !hasDoubleName else { return nil }
        // Tables: root entity tables and join tables.
        var tables: [String: (String, SourceLocation?)] = [:]
        for e in model.entities where e.parent == nil {
            let table = e.table ?? e.name
            if let other = tables[table.lowercased()] {
                r.add(.error("table '\(table)' of '\(e.name)' has the same name as \(other.0) (ignoring case)",
                             at: e.keyLocations["table"] ?? e.location, hint: "set `table:` to a different name"))
            } else { tables[table.lowercased()] = ("the table of '\(e.name)'", e.keyLocations["table"] ?? e.location) }
        }
        // Join tables, one per owning side: the side whose join column is `source`, or the only side of a
        // relationship that is its own inverse (it holds `target`).
        let plans = LayoutBuilder.planRelationships(model)
        var clashingJoinTables: Set<String> = []
        for key in plans.keys.sorted(by: { ($0.entity, $0.property) < ($1.entity, $1.property) }) {
            let relationship = model.entity(key.entity)?.relationship(key.property)
            guard let plan = plans[key], plan.kind == .joinTable,
                  plan.column == "source" || relationship.map({ model.isOwnInverse($0, in: key.entity) }) == true
            else { continue }
            let location = relationship?.location
            if let other = tables[plan.table.lowercased()] {
                let later = [other.1, location].compactMap { $0 }.max { ($0.line, $0.column) < ($1.line, $1.column) }
                // A relationship has no `table:` key: its join table's name follows its own name.
                r.add(.error("generated join table '\(plan.table)' collides with \(other.0)", at: later,
                             hint: "rename one of the relationships: SQLite's table names ignore case"))
                clashingJoinTables.insert(plan.table.lowercased())
            } else { tables[plan.table.lowercased()] = ("join table '\(plan.table)'", location) }
        }
        let layout = LayoutBuilder.build(model, keeping: [:], relationshipPlans: plans)
        checkOneToOneIndexes(model, layout, &r)
        // Every declared index and uniqueness constraint must exist: no two may share a name (SQLite's
        // index names are global and case-insensitive). `LayoutBuilder` renames clashing names, so this
        // only guards that promise.
        var indexOwners: [String: String] = [:]
        for table in layout.tables {
            // A join table that collides is reported above; its indexes collide as a consequence.
            for index in table.indexes where !clashingJoinTables.contains(table.name.lowercased()) {
                if let other = indexOwners[index.name.lowercased()] {
                    let owner = table.rootEntity.flatMap { model.entity($0) }
                    r.add(.error("index '\(index.name)' of table '\(table.name)' has the same name as an index of table '\(other)'",
                                 at: owner?.location, hint: "rename one of the columns with `column:`"))
                } else { indexOwners[index.name.lowercased()] = table.name }
            }
        }
        // Generated column names (hierarchy renames, order columns) must not collide.
        for table in layout.tables where table.kind == .entity {
            var seen: Set<String> = []
            for column in table.columns where !seen.insert(column.name.lowercased()).inserted {
                let owner = table.rootEntity.flatMap { model.entity($0) }
                r.add(.error("generated column '\(column.name)' collides with another column of table '\(table.name)'",
                             at: owner?.location,
                             hint: "set `column:` on an attribute or to-one, or rename a relationship whose order column it is (SQLite ignores case)"))
            }
        }
        return layout
    }
}

extension ModelChecker {
    /// SPEC §10: an index part naming the side of a one-to-one that has no column is left out (the
    /// other side's foreign-key index serves it): a warning, and an error for a uniqueness constraint,
    /// which would otherwise become stricter than declared.
    static func checkOneToOneIndexes(_ model: Model, _ layout: StoreLayout, _ r: inout YAMLReader) {
        for e in model.entities {
            guard let storage = layout.entities[e.name] else { continue }
            func columnless(_ name: String) -> Bool {
                guard let link = storage.relationships[name] else { return false }
                return link.kind == .inverseForeignKey && !link.isToMany
            }
            for (i, list) in e.indexes.enumerated() {
                for name in list where columnless(name) {
                    let other = model.allRelationships(of: e.name).first { $0.relationship.name == name }
                        .flatMap { model.effectiveInverse(of: $0.relationship, in: $0.owner) }
                    let stored = other.map { "'\($0.owner).\($0.relationship.name)'" } ?? "the other side"
                    let rest = list.filter { !columnless($0) }
                    r.add(.warning("index part '\(name)' of '\(e.name)' is a one-to-one stored in the column of \(stored): it has no column here and is left out"
                                   + (rest.isEmpty ? "; this index is not created" : ""),
                                   at: e.keyLocations["indexes.\(i)"],
                                   hint: "the foreign-key index of \(stored) already serves it; remove '\(name)' from the index"))
                }
            }
            for (i, list) in e.uniqueness.enumerated() {
                for name in list where columnless(name) {
                    r.add(.error("uniqueness cannot use '\(name)' of '\(e.name)': the one-to-one is stored on the other side, with no column here",
                                 at: e.keyLocations["uniqueness.\(i)"],
                                 hint: "use attributes or to-one relationships stored on '\(e.name)', or declare it on the other entity"))
                }
            }
        }
    }
}
