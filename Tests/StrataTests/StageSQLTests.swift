import Foundation
import GRDB
import Testing
@testable import Strata

/// A stage's `execute(sql:arguments:)` text as PostgreSQL gets it (SPEC §11.2): `?` bound outside quotes and
/// comments, statements split at top-level semicolons, named arguments refused.
@Suite struct StageSQLTests {
    static func rendered(_ sql: String, _ arguments: StatementArguments) throws -> [String] {
        try StageSQL.statements(sql, arguments: arguments, stage: "s").map { statement in
            let (text, values) = statement.rendered(for: .postgresql)
            return text + " " + values.map { "\($0)" }.joined(separator: ",")
        }
    }

    @Test func placeholdersOutsideQuotesAndCommentsTakeTheArgumentsInOrder() throws {
        let statements = try Self.rendered(#"UPDATE "a?" SET x = '?', y = ? -- ?"# + "\n" + #"WHERE z = ? /* ? */; DELETE FROM t WHERE k = ?"#,
                                           [1, "two", 3])
        #expect(statements.count == 2)
        #expect(statements[0].hasPrefix(#"UPDATE "a?" SET x = '?', y = $1 -- ?"# + "\n" + #"WHERE z = $2 /* ? */"#), "\(statements)")
        #expect(statements[1].hasPrefix(" DELETE FROM t WHERE k = $1"), "\(statements)")
        #expect(try Self.rendered("SELECT '{}'::jsonb ? 'k'", []).first?.hasPrefix("SELECT '{}'::jsonb ? 'k'") == true)
    }

    @Test func mismatchedAndNamedArgumentsAreRefused() throws {
        #expect(throws: StageError.self) { try Self.rendered("SELECT ?, ?", [1]) }
        #expect(throws: StageError.self) { try Self.rendered("SELECT ?", [1, 2]) }
        #expect(throws: StageError.self) { try Self.rendered("SELECT :a", ["a": 1]) }
    }
}
