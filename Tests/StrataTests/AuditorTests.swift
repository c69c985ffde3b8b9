import Foundation
import GRDB
import Testing
@testable import Strata

@Suite struct AuditorTests {
    typealias F = AuditFixture

    /// subject, rule, code → object IDs and displayed values, for every violated rule of the fixture.
    static let expected: [String: (AuditCode, [(String, String?)])] = [
        "Chef.favorites maxCount": (.tooMany, [(F.id("Chef", 2), "3")]),
        "Chef.profile optional": (.missingMandatory, [(F.id("Chef", 2), nil)]),
        "Dessert.sweetness max": (.tooLarge, [(F.id("Dessert", 9), "11")]),
        "Dessert.sweetness min": (.tooSmall, [(F.id("Dessert", 7), "0")]),
        "Profile.chef optional": (.missingMandatory, [(F.id("Profile", 2), nil)]),
        "Recipe.name optional": (.missingMandatory, [(F.id("Recipe", 5), nil)]),
        "Recipe.name maxLength": (.tooLong, [(F.id("Recipe", 4), "Abcdef")]),
        "Recipe.name minLength": (.tooShort, [(F.id("Recipe", 3), "A")]),
        "Recipe.name pattern": (.pattern, [(F.id("Recipe", 6), "ab")]),
        "Recipe.rating max": (.tooLarge, [(F.id("Recipe", 3), "6"), (F.id("Dessert", 7), "9")]),
        "Recipe.rating min": (.tooSmall, [(F.id("Recipe", 4), "-1")]),
        "Recipe.servings max": (.tooLarge, [(F.id("Recipe", 3), "32768")]),
        "Recipe.servings min": (.tooSmall, [(F.id("Recipe", 4), "-32769")]),
        "Recipe.lastUsed max": (.dateTooLate, [(F.id("Recipe", 4), "2030-01-02T00:00:00Z")]),
        "Recipe.lastUsed min": (.dateTooSoon, [(F.id("Recipe", 3), "2019-12-31T00:00:00Z")]),
        "Recipe.price max": (.tooLarge, [(F.id("Recipe", 3), "100")]),
        "Recipe.price min": (.tooSmall, [(F.id("Recipe", 4), "0.49")]),
        "Recipe.weight max": (.tooLarge, [(F.id("Recipe", 4), "10.6")]),
        "Recipe.weight min": (.tooSmall, [(F.id("Recipe", 3), "-0.1")]),
        "Recipe.ingredients optional": (.missingMandatory, [(F.id("Recipe", 5), "0")]),
        "Recipe.ingredients minCount": (.tooFew, [(F.id("Recipe", 3), "1")]),
        "Recipe.ingredients maxCount": (.tooMany, [(F.id("Recipe", 4), "4")]),
        "Recipe.author optional": (.missingMandatory, [(F.id("Recipe", 3), nil)]),
        "Recipe.name uniqueness": (.uniqueness, [(F.id("Recipe", 1), "Ab")]),
        "Tag.owner dangling": (.danglingReference, [(F.id("Tag", 2), "99")]),
        "Chef predicate": (.predicate, [(F.id("Chef", 2), nil)]),
        "Recipe predicate": (.predicate, [(F.id("Dessert", 9), nil)]),
    ]

    static func key(_ r: AuditRuleResult) -> String { "\(r.subject) \(r.rule)" }

    @Test func fullAuditFindsExactlyTheExpectedObjects() throws {
        let (queue, auditor) = try F.store()
        let result = try queue.read { db in try auditor.run(in: db, scope: .full) }
        #expect(result.rulesChecked == 29)
        #expect(result.scope == "full")
        #expect(result.storeUUID == F.storeUUID)
        var seen: Set<String> = []
        for rule in result.violated {
            let key = Self.key(rule)
            seen.insert(key)
            guard let (code, samples) = Self.expected[key] else { Issue.record("unexpected violation \(key): \(rule.samples)"); continue }
            #expect(rule.code == code, "\(key)")
            #expect(rule.count == samples.count, "\(key)")
            #expect(rule.samples.map(\.objectID) == samples.map(\.0), "\(key)")
            #expect(rule.samples.map(\.value) == samples.map(\.1), "\(key)")
        }
        #expect(seen == Set(Self.expected.keys))
        // The clean rules pass with a zero count (Profile.chef: the one-to-one whose key Chef holds).
        #expect(result.rules.filter { $0.count == 0 }.map(Self.key) == ["Ingredient.amount min", "Profile.chef maxCount"])
        #expect(result.totalViolations == 28)
        // Every code is exercised.
        #expect(Set(result.violated.map(\.code)) == Set(AuditCode.allCases))
    }

    @Test func uniquenessReportsGroupsWithTheirMembers() throws {
        let (queue, auditor) = try F.store()
        let result = try queue.read { db in try auditor.run(in: db, scope: .full) }
        let rule = try #require(result.rules.first { $0.rule == "uniqueness" })
        #expect(rule.constraint == "unique (name)")
        #expect(rule.samples == [AuditSample(objectID: F.id("Recipe", 1), value: "Ab", related: [F.id("Dessert", 7)])])
    }

    @Test func countsStayExactWhenSamplesAreCapped() throws {
        let (queue, auditor) = try F.store()
        try queue.write { db in
            for pk in 10...59 {
                try db.execute(sql: #"INSERT INTO "Recipe" ("_pk", "_entity", "name", "rating", "author") VALUES (?, 'Recipe', 'Dup', 7, 1)"#,
                               arguments: [pk])
            }
        }
        for maxSamples in [0, 1, 3, 20] {
            let result = try queue.read { db in try auditor.run(in: db, scope: .full, maxSamples: maxSamples) }
            let rating = try #require(result.rules.first { Self.key($0) == "Recipe.rating max" })
            #expect(rating.count == 52)
            #expect(rating.samples.count == min(maxSamples, 52))
            #expect(rating.samples.first?.objectID == (maxSamples > 0 ? F.id("Recipe", 3) : nil))
            let unique = try #require(result.rules.first { $0.rule == "uniqueness" })
            #expect(unique.count == 2)
            #expect(unique.samples.count == min(maxSamples, 2))
            // Groups are ordered by key: "Ab" before "Dup"; members capped at maxSamples.
            if maxSamples >= 2 {
                #expect(unique.samples[1].value == "Dup")
                #expect(1 + unique.samples[1].related.count == min(maxSamples, 50))
            }
            // Rules with few violations keep every sample and their exact count.
            let few = try #require(result.rules.first { Self.key($0) == "Recipe.rating min" })
            #expect(few.count == 1)
            // The new rows have 0 ingredients: mandatory to-many.
            let empty = try #require(result.rules.first { Self.key($0) == "Recipe.ingredients optional" })
            #expect(empty.count == 51)
        }
    }

    @Test func entityScopeNarrowsInheritedRulesToTheEntity() throws {
        let (queue, auditor) = try F.store()
        let result = try queue.read { db in try auditor.run(in: db, scope: .entities(["Dessert"])) }
        #expect(result.scope == "entities")
        #expect(result.entities == ["Dessert"])
        #expect(Set(result.rules.map(\.entity)) == ["Dessert"])
        let violated = Dictionary(uniqueKeysWithValues: result.violated.map { (Self.key($0), $0.samples.map(\.objectID)) })
        #expect(violated == [
            "Dessert.rating max": [F.id("Dessert", 7)],
            "Dessert.sweetness min": [F.id("Dessert", 7)],
            "Dessert.sweetness max": [F.id("Dessert", 9)],
            "Dessert predicate": [F.id("Dessert", 9)],
        ])
    }

    @Test func unknownEntityIsAnErrorWithAHint() throws {
        let (queue, auditor) = try F.store()
        #expect(throws: AuditError.unknownEntity("Recipes", hint: "did you mean 'Recipe'?")) {
            try queue.read { db in try auditor.run(in: db, scope: .entities(["Recipes"])) }
        }
    }

    @Test func touchedScopeChecksTouchedRowsAndEntityWideRules() throws {
        let (queue, auditor) = try F.store()
        let result = try queue.write { db in
            try db.execute(sql: #"CREATE TEMP TABLE "strata_touched" ("table" TEXT, "pk" INTEGER)"#)
            try db.execute(sql: #"INSERT INTO temp."strata_touched" VALUES ('Recipe', 4), ('Recipe', 8)"#)
            return try auditor.run(in: db, scope: .touched)
        }
        #expect(result.scope == "touched")
        let violated = Dictionary(uniqueKeysWithValues: result.violated.map { (Self.key($0), $0.samples.map(\.objectID)) })
        #expect(violated == [
            // Row rules: only the touched rows.
            "Recipe.name maxLength": [F.id("Recipe", 4)],
            "Recipe.rating min": [F.id("Recipe", 4)],
            "Recipe.servings min": [F.id("Recipe", 4)],
            "Recipe.lastUsed max": [F.id("Recipe", 4)],
            "Recipe.price min": [F.id("Recipe", 4)],
            "Recipe.weight max": [F.id("Recipe", 4)],
            // Entity-wide rules of Recipe: every Recipe.
            "Recipe.ingredients optional": [F.id("Recipe", 5)],
            "Recipe.ingredients minCount": [F.id("Recipe", 3)],
            "Recipe.ingredients maxCount": [F.id("Recipe", 4)],
            "Recipe.author optional": [F.id("Recipe", 3)],
            "Recipe.name uniqueness": [F.id("Recipe", 1)],
        ])
        // Rules of untouched entities are not run; Dessert's row rules ran on the touched rows.
        #expect(!result.rules.contains { $0.entity == "Chef" || $0.entity == "Tag" || $0.entity == "Profile" || $0.entity == "Ingredient" })
        #expect(result.rules.contains { Self.key($0) == "Dessert.sweetness max" && $0.count == 0 })
    }

    @Test func touchedLinkTablesRunRelatedEntityWideRules() throws {
        let (queue, auditor) = try F.store()
        let result = try queue.write { db in
            try db.execute(sql: #"CREATE TEMP TABLE "strata_touched" ("table" TEXT, "pk" INTEGER)"#)
            // A batch delete of chefs and ingredients: Tag.owner may dangle, Recipe.ingredients counts change.
            try db.execute(sql: #"INSERT INTO temp."strata_touched" VALUES ('Chef', 99), ('Ingredient', 1)"#)
            return try auditor.run(in: db, scope: .touched)
        }
        let keys = Set(result.rules.map(Self.key))
        #expect(keys.isSuperset(of: ["Tag.owner dangling", "Recipe.ingredients minCount", "Chef.favorites maxCount", "Profile.chef optional"]))
        #expect(!keys.contains("Recipe.rating max"))
        #expect(result.violated.first { Self.key($0) == "Tag.owner dangling" }?.count == 1)
    }

    @Test func touchedScopeCountsBeyondTheSamples() throws {
        let (queue, auditor) = try F.store()
        let result = try queue.write { db in
            try db.execute(sql: #"CREATE TEMP TABLE "strata_touched" ("table" TEXT, "pk" INTEGER)"#)
            try db.execute(sql: #"INSERT INTO temp."strata_touched" VALUES ('Recipe', 3), ('Recipe', 4), ('Dessert', 7), ('Recipe', 7)"#)
            return try auditor.run(in: db, scope: .touched, maxSamples: 1)
        }
        let rating = try #require(result.rules.first { Self.key($0) == "Recipe.rating max" })
        #expect(rating.count == 2)
        #expect(rating.samples.map(\.objectID) == [F.id("Recipe", 3)])
    }

    @Test func touchedWithoutTouchedTableChecksNothing() throws {
        let (queue, auditor) = try F.store()
        let result = try queue.read { db in try auditor.run(in: db, scope: .touched) }
        #expect(result.rules.isEmpty)
    }

    @Test func cleanStoreHasNoViolations() throws {
        let (queue, layout) = try F.emptyStore()
        let auditor = Auditor(model: F.model, layout: layout, storeUUID: F.storeUUID)
        let result = try queue.read { db in try auditor.run(in: db, scope: .full) }
        #expect(result.rulesChecked == 29)
        #expect(result.totalViolations == 0)
        #expect(result.failures().isEmpty)
    }

    @Test func failOnSelectsTheFailingCodes() throws {
        let (queue, auditor) = try F.store()
        let result = try queue.read { db in try auditor.run(in: db, scope: .full) }
        #expect(result.failures(failOn: [.danglingReference]).map(Self.key) == ["Tag.owner dangling"])
        #expect(result.failures(failOn: [.predicate]).map(Self.key) == ["Chef predicate", "Recipe predicate"])
        #expect(result.failures(failOn: []).isEmpty)
        #expect(result.failures().count == 27)
    }
}
