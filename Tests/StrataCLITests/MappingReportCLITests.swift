import Foundation
import Testing

/// Reports of a mapping step (SPEC §11.3 "Reports"; issue 15 item 4): per destination entity the rows
/// carried and dropped and the failed casts with object IDs and source values, equal in a dry run and the run.
@Suite struct MappingReportCLITests {
    static func mapping(_ text: String) throws -> [[String: Any]] {
        let migration = try CLI.json(text)["migration"] as? [String: Any]
        let steps = migration?["steps"] as? [[String: Any]] ?? []
        return steps.first?["mapping"] as? [[String: Any]] ?? []
    }

    static func counts(_ entities: [[String: Any]]) -> [String] {
        entities.map { e in
            let failed = (e["failedCasts"] as? [[String: Any]] ?? []).map { "\($0["attribute"]!)=\($0["count"]!)" }
            return "\(e["entity"]!)<\(e["source"]!): \(e["carried"]!) carried, \(e["dropped"]!) dropped; " + failed.joined(separator: ",")
        }
    }

    @Test func aDryRunReportsTheCountsTheRunHas() throws {
        let (dir, store) = try MappingProject.make(["v2.yaml": MappingProject.mapping], badRating: false)
        let before = E2E.storeHashes(store)
        let dry = try CLI.run(["migrate", "--store", "app.sqlite", "--dry-run", "--format", "json"], in: dir)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(E2E.storeHashes(store) == before)
        let real = try CLI.run(["migrate", "--store", "app.sqlite", "--format", "json"], in: dir)
        #expect(real.status == 0, "\(real.stderr)")
        let expected = ["Company<Author: 1 carried, 2 dropped; ", "Order<Order: 3 carried, 1 dropped; rating=0,total=0",
                        "Person<Author: 2 carried, 1 dropped; "]
        #expect(Self.counts(try Self.mapping(dry.stdout)) == expected)
        #expect(Self.counts(try Self.mapping(real.stdout)) == expected)
        // The link from o3 to Acme (a company, not carried into Person) is dropped and counted.
        for doc in [dry.stdout, real.stdout] {
            let person = try Self.mapping(doc).first { $0["entity"] as? String == "Person" }
            #expect(person?["linksDropped"] as? [String: Int] == ["Item.author": 1])
        }
        #expect(try E2E.rows(store, #"SELECT "author" FROM "Item" WHERE "_pk" = 3"#) == ["NULL"])
        // The rows the store has afterwards are the ones counted.
        #expect(try E2E.rows(store, #"SELECT count(*) FROM "Item" WHERE "_entity" = 'Order'"#) == ["3"])
        #expect(try E2E.rows(store, #"SELECT count(*) FROM "Person""#) == ["2"])
        #expect(try E2E.rows(store, #"SELECT count(*) FROM "Company""#) == ["1"])
    }

    @Test func failedCastsAreListedWithObjectIDsAndSourceValues() throws {
        let (dir, store) = try MappingProject.make(["v2.yaml": MappingProject.mapping])
        let uuid = try #require(try ExampleData.query(store, #"SELECT "value" FROM "strata_metadata" WHERE "key" = 'strata.uuid'"#) as String?)
        let text = try CLI.run(["migrate", "--store", "app.sqlite", "--dry-run"], in: dir)
        #expect(text.status == 3)
        #expect(text.stdout.contains("  mapped Order from Order: 3 carried, 1 dropped by filter\n"
                                     + "    Order.rating = int16(rating): 1 failed cast (nil): x-strata://\(uuid)/Order/p3 (rating = \"x\")\n"), "\(text.stdout)")
        #expect(text.stdout.contains("  [destructive] mapEntity Order: 1 object dropped\n"), "\(text.stdout)")
        #expect(text.stdout.contains("  mapped Person from Author: 2 carried, 1 dropped by filter, 1 link to them dropped (Item.author 1)\n"))
        let json = try CLI.run(["migrate", "--store", "app.sqlite", "--dry-run", "--format", "json"], in: dir)
        let order = try #require(try Self.mapping(json.stdout).first { $0["entity"] as? String == "Order" })
        let rating = try #require((order["failedCasts"] as? [[String: Any]])?.first { $0["attribute"] as? String == "rating" })
        #expect(rating["count"] as? Int == 1)
        #expect((rating["samples"] as? [[String: Any]])?.map { $0["objectID"] as? String } == ["x-strata://\(uuid)/Order/p3"])
        // --max-samples 0 keeps the count and no samples.
        let none = try CLI.run(["migrate", "--store", "app.sqlite", "--dry-run", "--format", "json", "--max-samples", "0"], in: dir)
        let quiet = try #require(try Self.mapping(none.stdout).first { $0["entity"] as? String == "Order" })
        let r0 = (quiet["failedCasts"] as? [[String: Any]])?.first { $0["attribute"] as? String == "rating" }
        #expect(r0?["count"] as? Int == 1)
        #expect((r0?["samples"] as? [Any])?.isEmpty == true)
    }
}
