import Foundation
import GRDB
import Testing
@testable import Strata

/// A stage's `execute(sql:arguments:)` text as PostgreSQL gets it (SPEC §11.2): `?` bound outside quotes and
/// comments, named ones (`:name`, `@name`, `$name`) as GRDB binds them, statements split at top-level semicolons.
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

    @Test func mismatchedArgumentsAreRefused() throws {
        #expect(throws: StageError.self) { try Self.rendered("SELECT ?, ?", [1]) }
        #expect(throws: StageError.self) { try Self.rendered("SELECT ?", [1, 2]) }
    }

    /// Each statement's exact text and arguments, in order.
    static func exact(_ sql: String, _ arguments: StatementArguments) throws -> [(String, [Value])] {
        try StageSQL.statements(sql, arguments: arguments, stage: "s").map { $0.rendered(for: .postgresql) }
    }

    @Test func namedPlaceholdersBecomeNumberedOnesInOrderAndANameUsedTwiceBindsItsValueTwice() throws {
        let statements = try Self.exact("UPDATE t SET a = :a, b = @b WHERE c = $c AND d = :a", ["a": 1, "b": "two", "c": 3.5, "unused": 0])
        #expect(statements.count == 1)
        #expect(statements[0].0 == "UPDATE t SET a = $1, b = $2 WHERE c = $3 AND d = $4")
        #expect(statements[0].1 == [.integer(1), .text("two"), .real(3.5), .integer(1)])
        // Several statements: each numbered from $1, the names bound in each.
        let two = try Self.exact("INSERT INTO t (x) VALUES (:x_1); UPDATE t SET y = :x_1 || @é", ["x_1": "v", "é": "w"])
        #expect(two.map(\.0) == ["INSERT INTO t (x) VALUES ($1)", " UPDATE t SET y = $1 || $2"])
        #expect(two.map(\.1) == [[.text("v")], [.text("v"), .text("w")]])
    }

    @Test func namesInsideQuotesCommentsAndDollarQuotesAndCastsStayText() throws {
        let sql = #"SELECT ':a', E'\' :a', "x:a", $$ :a $$, $q$ @a $q$, x::text, :a::int, y$a, a[1:2] -- :a"# + "\n"
            + #"/* /* :a */ @a */ FROM t WHERE k = $a"#
        let statements = try Self.exact(sql, ["a": 7])
        #expect(statements.count == 1)
        #expect(statements[0].0 == #"SELECT ':a', E'\' :a', "x:a", $$ :a $$, $q$ @a $q$, x::text, $1::int, y$a, a[1:2] -- :a"# + "\n"
                + #"/* /* :a */ @a */ FROM t WHERE k = $2"#)
        #expect(statements[0].1 == [.integer(7), .integer(7)])
        // A semicolon inside an E'' string or a dollar quote does not split either.
        #expect(try Self.exact(#"SELECT E'\';', $x$;$x$, :a"#, ["a": 1]).map(\.0) == [#"SELECT E'\';', $x$;$x$, $1"#])
    }

    @Test func aNamedPlaceholderWithoutItsNameTakesThePositionalValuesAsGRDBDoes() throws {
        let arguments = StatementArguments([1]) + StatementArguments(["b": 2])
        let statements = try Self.exact("SELECT :a, :b", arguments)
        #expect(statements[0].0 == "SELECT $1, $2" && statements[0].1 == [.integer(1), .integer(2)])
    }

    /// A name the arguments lack is GRDB's own error on SQLite, word for word.
    @Test func aMissingNameIsTheErrorGRDBGivesOnSQLite() throws {
        let sql = "UPDATE t SET a = :a, b = :b"
        let sqlite = try DatabaseQueue()
        try sqlite.write { db in try db.execute(sql: "CREATE TABLE t (a, b)") }
        var expected: DatabaseError?
        do { try sqlite.write { db in try db.execute(sql: sql, arguments: ["a": 1]) } } catch let error as DatabaseError { expected = error }
        var got: DatabaseError?
        do { _ = try Self.exact(sql, ["a": 1]) } catch let error as DatabaseError { got = error }
        #expect(expected != nil)
        #expect(got?.resultCode == expected?.resultCode && got?.message == expected?.message, "\(String(describing: got))")
        #expect(got?.message == "missing statement argument: b")
        #expect(got.map { "\($0)" } == expected.map { "\($0)" })
    }
}
