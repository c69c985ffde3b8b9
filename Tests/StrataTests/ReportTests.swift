import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import Strata

/// Collects element names, attributes and text of an XML document.
final class XMLCollector: NSObject, XMLParserDelegate {
    var elements: [(name: String, attributes: [String: String])] = []
    var text = ""
    var error: Error?

    static func parse(_ xml: String) -> XMLCollector {
        let collector = XMLCollector()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = collector
        if !parser.parse() { collector.error = parser.parserError ?? CocoaError(.coderReadCorrupt) }
        return collector
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        elements.append((name, attributes))
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func named(_ name: String) -> [[String: String]] { elements.filter { $0.name == name }.map(\.attributes) }
}

@Suite struct ReportTests {
    typealias F = AuditFixture

    static func fixtureResult() throws -> AuditResult {
        let (queue, auditor) = try F.store()
        return try queue.read { db in try auditor.run(in: db, scope: .full) }
    }

    /// A small result for exact renderings.
    static let small = AuditResult(storeUUID: "u", modelVersion: 4, scope: "full", maxSamples: 2, rules: [
        AuditRuleResult(entity: "Recipe", property: "name", rule: "minLength", code: .tooShort, constraint: "minLength 2",
                        count: 3, samples: [AuditSample(objectID: "x-strata://u/Recipe/p3", value: "A|b"),
                                            AuditSample(objectID: "x-strata://u/Recipe/p5", value: nil)]),
        AuditRuleResult(entity: "Recipe", property: "rating", rule: "max", code: .tooLarge, constraint: "max 5", count: 0, samples: []),
        AuditRuleResult(entity: "Recipe", property: "name", rule: "uniqueness", code: .uniqueness, constraint: "unique (name)",
                        count: 1, samples: [AuditSample(objectID: "x-strata://u/Recipe/p1", value: "Ab", related: ["x-strata://u/Dessert/p7"])]),
    ])

    @Test func textReport() {
        let text = Report(title: "Strata audit", audit: Self.small, failOn: [.tooShort]).render(as: .text)
        #expect(text == """
            Audit: 3 rules checked, 2 violated (1 failing), 4 violations (scope full, store u, model version 4)

            Recipe
              name minLength 2: 3 violations [1670 string too short]
                x-strata://u/Recipe/p3 = "A|b"
                x-strata://u/Recipe/p5 = nil
                … and 1 more
              unique (name): 1 duplicate group [1551 duplicate values] (warning)
                x-strata://u/Recipe/p1 = "Ab" (also x-strata://u/Dessert/p7)

            """)
    }

    /// A sample is one line whatever the value holds: a newline, a quote or a control character is escaped, so a
    /// stored value cannot end its quotes early or forge a line of the report (`"x"\n  Other rule: …`).
    @Test func textReportEscapesQuotesAndControlCharacters() {
        let value = "a\"b\\c\n  Chef\n    name: 0 violations\r\t\u{0}\u{1B}[31m\u{85}\"\u{301}é"
        let result = AuditResult(storeUUID: "u", modelVersion: 1, scope: "full", maxSamples: 2, rules: [
            AuditRuleResult(entity: "Item", property: "name", rule: "maxLength", code: .tooLong, constraint: "maxLength 2",
                            count: 1, samples: [AuditSample(objectID: "x-strata://u/Item/p1", value: value)]),
        ])
        let lines = Report(title: "Strata audit", audit: result).render(as: .text).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines == [
            "Audit: 1 rule checked, 1 violated, 1 violation (scope full, store u, model version 1)", "",
            "Item",
            "  name maxLength 2: 1 violation [1660 string too long]",
            #"    x-strata://u/Item/p1 = "a\"b\\c\n  Chef\n    name: 0 violations\r\t\0\u{1B}[31m\u{85}\""# + "\u{301}é\"",
            "",
        ])
    }

    @Test func textReportOfACleanAudit() {
        let clean = AuditResult(storeUUID: "u", modelVersion: 1, scope: "entities", entities: ["Chef"], maxSamples: 20, rules: [])
        #expect(Report(title: "Strata audit", audit: clean).render(as: .text) == """
            Audit: 0 rules checked, 0 violated, 0 violations (scope entities (Chef), store u, model version 1)
            No violations.

            """)
    }

    @Test func markdownReport() {
        let md = Report(title: "Strata audit", audit: Self.small).render(as: .markdown)
        #expect(md == """
            ## Strata audit

            ❌ **Audit:** 3 rules checked, 2 violated, 4 violations (scope full, store u, model version 4)

            | Entity | Rule | Code | Count | Status | Samples |
            |---|---|---:|---:|---|---|
            | Recipe | name minLength 2 | 1670 | 3 | failure | `x-strata://u/Recipe/p3` "A\\|b"<br>`x-strata://u/Recipe/p5` nil<br>… 1 more |
            | Recipe | unique (name) | 1551 | 1 | failure | `x-strata://u/Recipe/p1` "Ab" |

            """)
    }

    /// A value is shown as written: a backslash before a pipe no longer ends the cell (`a\|b` gave
    /// `a\\|b`, a cell break after an escaped backslash), `&lt;` is not shown as `<`, a CRLF no longer ends the
    /// row, and a NUL is U+FFFD (as CommonMark reads it).
    @Test func markdownShowsBackslashesAndAmpersandsAsWritten() {
        let result = AuditResult(storeUUID: "u", modelVersion: 1, scope: "full", maxSamples: 2, rules: [
            AuditRuleResult(entity: "Item", property: "name", rule: "maxLength", code: .tooLong, constraint: "maxLength 2",
                            count: 1, samples: [AuditSample(objectID: "x-strata://u/Item/p1", value: #"a\|b &lt;c&gt; & *d*"# + "\u{0}\r\ne")]),
        ])
        let md = Report(title: "Strata audit", audit: result).render(as: .markdown)
        let rows = md.split(separator: "\n").filter { $0.hasPrefix("| Item ") }
        #expect(rows == [#"| Item | name maxLength 2 | 1660 | 1 | failure | `x-strata://u/Item/p1` "a\\\|b &amp;lt;c&amp;gt; &amp; *d*\#u{FFFD} e" |"#])
    }

    /// A combining mark after a pipe or a backslash makes one `Character` with it: the escapes go by scalar.
    @Test func markdownEscapesAPipeACombiningMarkFollows() {
        let result = AuditResult(storeUUID: "u", modelVersion: 1, scope: "full", maxSamples: 2, rules: [
            AuditRuleResult(entity: "Item", property: "name", rule: "maxLength", code: .tooLong, constraint: "maxLength 2",
                            count: 1, samples: [AuditSample(objectID: "x-strata://u/Item/p|\u{301}1", value: "a|\u{301}b\\\u{301}c")]),
        ])
        let md = Report(title: "Strata audit", audit: result).render(as: .markdown)
        let rows = md.split(separator: "\n").filter { $0.hasPrefix("| Item ") }.map { Array($0.unicodeScalars) }
        #expect(rows == [Array("| Item | name maxLength 2 | 1660 | 1 | failure | `x-strata://u/Item/p\\|\u{301}1` \"a\\|\u{301}b\\\\\u{301}c\" |".unicodeScalars)])
    }

    @Test func markdownReportOfTheFixtureHasOneRowPerViolatedRule() throws {
        let md = Report(title: "Strata audit", audit: try Self.fixtureResult()).render(as: .markdown)
        let rows = md.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| Entity ") }
        #expect(rows.count == 27)
        #expect(rows.contains("| Tag | owner references an existing Chef | 1700 | 1 | failure | `\(F.id("Tag", 2))` \"99\" |"))
        #expect(rows.contains("| Recipe | rating max 5 | 1610 | 2 | failure | `\(F.id("Recipe", 3))` \"6\"<br>`\(F.id("Dessert", 7))` \"9\" |"))
    }

    @Test func jsonReportParsesToTheResult() throws {
        let result = try Self.fixtureResult()
        let json = Report(title: "Strata audit", audit: result, failOn: [.danglingReference, .uniqueness]).render(as: .json)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(document["schemaVersion"] as? Int == 1)
        #expect(document["passed"] as? Bool == false)
        let audit = try #require(document["audit"] as? [String: Any])
        #expect(audit["rulesChecked"] as? Int == 29)
        #expect(audit["violatedRules"] as? Int == 27)
        #expect(audit["failingRules"] as? Int == 2)
        #expect(audit["totalViolations"] as? Int == 28)
        #expect(audit["scope"] as? String == "full")
        #expect(audit["storeUUID"] as? String == F.storeUUID)
        let rules = try #require(audit["rules"] as? [[String: Any]])
        #expect(rules.count == result.rules.count)
        for (parsed, rule) in zip(rules, result.rules) {
            #expect(parsed["entity"] as? String == rule.entity)
            #expect(parsed["property"] as? String == rule.property)
            #expect(parsed["rule"] as? String == rule.rule)
            #expect(parsed["code"] as? Int == rule.code.rawValue)
            #expect(parsed["count"] as? Int == rule.count)
            #expect(parsed["failing"] as? Bool == (rule.count > 0 && [.danglingReference, .uniqueness].contains(rule.code)))
            let samples = try #require(parsed["samples"] as? [[String: Any]])
            #expect(samples.map { $0["objectID"] as? String } == rule.samples.map(\.objectID))
            #expect(samples.map { $0["value"] as? String } == rule.samples.map(\.value))
            #expect(samples.map { ($0["related"] as? [String]) ?? ["missing"] } == rule.samples.map(\.related))
        }
        let author = try #require(rules.first { $0["rule"] as? String == "optional" && $0["property"] as? String == "author" })
        #expect(author["samples"] as? [[String: Any]] != nil)
        #expect((author["samples"] as! [[String: Any]])[0]["value"] is NSNull)
    }

    @Test(arguments: [(nil, 27, 0), (Set<AuditCode>([.danglingReference]), 1, 26)] as [(Set<AuditCode>?, Int, Int)])
    func junitReportHasOneTestCasePerRule(failOn: Set<AuditCode>?, failures: Int, warnings: Int) throws {
        let result = try Self.fixtureResult()
        let xml = Report(title: "Strata audit", audit: result, failOn: failOn).render(as: .junit)
        let parsed = XMLCollector.parse(xml)
        #expect(parsed.error == nil)
        var suites = parsed.named("testsuites")
        #expect(suites.count == 1)
        let time = suites.isEmpty ? nil : suites[0].removeValue(forKey: "time")
        #expect(time?.wholeMatch(of: /[0-9]+\.[0-9]{3}/) != nil)
        #expect(suites == [["name": "Strata audit", "tests": "29", "failures": "\(failures)", "errors": "0"]])
        let caseTimes = parsed.named("testcase").compactMap { $0["time"].flatMap(Double.init) }
        #expect(caseTimes.count == 29)
        #expect(parsed.named("testsuite").map { $0["name"]! } == ["audit.Chef", "audit.Dessert", "audit.Ingredient", "audit.Profile", "audit.Recipe", "audit.Tag"])
        #expect(parsed.named("testsuite").map { Int($0["tests"]!)! }.reduce(0, +) == 29)
        #expect(parsed.named("testcase").count == 29)
        #expect(parsed.named("failure").count == failures)
        #expect(parsed.named("system-out").count == warnings)
        #expect(parsed.named("testcase").contains { $0["classname"] == "audit.Recipe" && $0["name"] == "name minLength 2" && $0.count == 3 })
        if failOn == nil {
            #expect(parsed.named("failure").contains { $0["type"] == "1670" && $0["message"] == "1 × 1670 string too short (Recipe.name: minLength 2)" })
            #expect(parsed.text.contains("\(F.id("Recipe", 3)) = \"A\""))
        }
    }

    @Test func htmlReportIsSelfContainedWithAnSVGChart() throws {
        let result = try Self.fixtureResult()
        let html = Report(title: "Strata audit <&>", audit: result).render(as: .html)
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
        let parsed = XMLCollector.parse(html)
        #expect(parsed.error == nil)
        let names = Set(parsed.elements.map(\.name))
        #expect(names.isSuperset(of: ["html", "head", "style", "body", "svg", "rect", "table"]))
        #expect(names.isDisjoint(with: ["script", "link", "img", "iframe", "object", "embed"]))
        #expect(!parsed.elements.contains { $0.attributes.keys.contains { ["src", "href", "xlink:href"].contains($0) } })
        #expect(!html.contains("http://") && !html.contains("https://") && !html.contains("url("))
        #expect(parsed.named("rect").count == 27)
        #expect(parsed.named("table").count == 27)
        #expect(parsed.text.contains("Strata audit <&>"))
        // The widest bar is the largest count.
        let widths = parsed.named("rect").map { Int($0["width"]!)! }
        #expect(widths.max() == 400)
    }

    /// The page of a small result, exactly: a table without the Also column, one with it, the chart. (Whether a
    /// table has the column is decided once per table; it was decided per row, quadratic in `--max-samples`.)
    @Test func htmlReportOfASmallResult() {
        let html = Report(title: "Strata audit", audit: Self.small, failOn: [.tooShort]).render(as: .html)
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>Strata audit</title>\n<style>"))
        #expect(html.components(separatedBy: "</style>\n</head>\n<body>\n").last == """
            <h1>Strata audit</h1>
            <h2>Validation audit</h2>
            <p class="failure"><strong>3 rules checked, 2 violated (1 failing), 4 violations</strong></p>
            <p>scope full, store u, model version 4</p>
            <svg width="800" height="58" role="img" aria-label="Violations per rule">
            <text x="314" y="20" text-anchor="end">Recipe.name minLength 2</text>
            <rect x="320" y="7" width="400" height="18" fill="#d1242f"><title>3 × 1670</title></rect>
            <text x="726" y="20">3</text>
            <text x="314" y="44" text-anchor="end">Recipe.unique (name)</text>
            <rect x="320" y="31" width="133" height="18" fill="#bf8700"><title>1 × 1551</title></rect>
            <text x="459" y="44">1</text>
            </svg>
            <h3>Recipe · name minLength 2 <span class="failure">1670 string too short · 3 (failure)</span></h3>
            <table>
            <tr><th>Object</th><th>Value</th></tr>
            <tr><td><code>x-strata://u/Recipe/p3</code></td><td>A|b</td></tr>
            <tr><td><code>x-strata://u/Recipe/p5</code></td><td><em>nil</em></td></tr>
            </table>
            <p>… and 1 more</p>
            <h3>Recipe · unique (name) <span class="warning">1551 duplicate values · 1 (warning)</span></h3>
            <table>
            <tr><th>Object</th><th>Value</th><th>Also</th></tr>
            <tr><td><code>x-strata://u/Recipe/p1</code></td><td>Ab</td><td><code>x-strata://u/Dessert/p7</code></td></tr>
            </table>
            </body>
            </html>

            """)
    }

    @Test func cleanReportsPass() throws {
        let clean = AuditResult(storeUUID: "u", modelVersion: 1, scope: "full", maxSamples: 20, rules: [
            AuditRuleResult(entity: "Recipe", property: "rating", rule: "max", code: .tooLarge, constraint: "max 5", count: 0, samples: []),
        ])
        let report = Report(title: "Strata audit", audit: clean)
        #expect(!report.hasFailures)
        let junit = XMLCollector.parse(report.render(as: .junit))
        #expect(junit.named("testcase").count == 1)
        #expect(junit.named("failure").isEmpty)
        #expect(report.render(as: .markdown).contains("✅ **Audit:** 1 rule checked, 0 violated, 0 violations"))
        #expect(report.render(as: .html).contains("No violations."))
        let json = try JSONSerialization.jsonObject(with: Data(report.render(as: .json).utf8)) as? [String: Any]
        #expect(json?["passed"] as? Bool == true)
    }
}
