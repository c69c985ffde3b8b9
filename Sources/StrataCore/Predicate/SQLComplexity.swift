/// What SQLite's parser can take: its LALR stack (100 entries) overflows past about 90 nested
/// parentheses or NOTs, and an expression tree deeper than 1,000 is refused. The compiler measures the
/// SQL it generates and refuses, as invalid input, what SQLite would refuse at run time.
enum SQLComplexity {
    /// A label for messages, shortened so long chains do not build long texts.
    static func label(_ text: String) -> String {
        text.count <= 60 ? text : String(text.prefix(57)) + "…"
    }

    /// Nested parentheses and pending NOTs (a bound on the parser stack), with room for the SQL the
    /// batch and audit statements wrap around a predicate.
    static let maxNesting = 60
    /// A bound on the expression tree's height, well under SQLite's 1,000.
    static let maxHeight = 700
    /// Operations on stored values in one arithmetic chain (`rating + 1 + 1 …`).
    static let maxChain = 500
    /// Bound variables in one statement: SQLite's default `SQLITE_MAX_VARIABLE_NUMBER` is 32,766.
    static let maxArguments = 30_000

    struct Measure {
        var nesting = 0
        var height = 0
    }

    /// Scans the SQL text (identifiers in double quotes skipped). Within one parenthesis group, the tree's
    /// height is at most the number of operators in it plus the tallest group it contains.
    static func measure(_ sql: String) -> Measure {
        struct Frame { var operators = 0; var tallestChild = 0; var nots = 0 }
        var stack = [Frame()]
        var result = Measure()
        var pendingNots = 0
        let bytes = Array(sql.utf8)
        var i = 0
        func isWord(_ b: UInt8) -> Bool { (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || (b >= 48 && b <= 57) || b == 95 }
        while i < bytes.count {
            let b = bytes[i]
            switch b {
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                i += 1
                while i < bytes.count {
                    if bytes[i] == b {
                        if i + 1 < bytes.count, bytes[i + 1] == b { i += 2; continue }
                        break
                    }
                    i += 1
                }
                i += 1
                continue
            case UInt8(ascii: "("):
                stack.append(Frame())
                result.nesting = max(result.nesting, stack.count - 1 + pendingNots)
            case UInt8(ascii: ")"):
                if stack.count > 1 {
                    let frame = stack.removeLast()
                    pendingNots -= frame.nots
                    let height = frame.operators + frame.tallestChild + 1
                    stack[stack.count - 1].tallestChild = max(stack[stack.count - 1].tallestChild, height)
                }
            case UInt8(ascii: "="), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "+"), UInt8(ascii: "-"),
                 UInt8(ascii: "*"), UInt8(ascii: "/"), UInt8(ascii: "|"):
                stack[stack.count - 1].operators += 1
            default:
                if isWord(b) {
                    let start = i
                    while i < bytes.count, isWord(bytes[i]) { i += 1 }
                    let word = String(decoding: bytes[start..<i], as: UTF8.self).uppercased()
                    switch word {
                    case "NOT":
                        stack[stack.count - 1].operators += 1
                        stack[stack.count - 1].nots += 1
                        pendingNots += 1
                        result.nesting = max(result.nesting, stack.count - 1 + pendingNots)
                    case "AND", "OR":
                        stack[stack.count - 1].operators += 1
                        pendingNots -= stack[stack.count - 1].nots
                        stack[stack.count - 1].nots = 0
                    case "IS", "IN", "BETWEEN", "LIKE", "EXISTS", "WHERE", "SELECT", "CAST", "COALESCE":
                        stack[stack.count - 1].operators += 1
                    default: break
                    }
                    continue
                }
            }
            i += 1
        }
        let top = stack[0]
        result.height = max(result.height, top.operators + top.tallestChild + 1)
        return result
    }

    /// Fails when SQLite could not run the statement.
    static func check(_ statement: SQLStatement) throws(PredicateSyntaxError) {
        if statement.arguments.count > maxArguments {
            throw PredicateSyntaxError("too many values: \(statement.arguments.count) (SQLite takes at most \(maxArguments) in one statement)",
                                       offset: 0, hint: "put long lists of values in one IN {…} list, which has no limit")
        }
        let m = measure(statement.sql)
        if m.nesting > maxNesting || m.height > maxHeight {
            throw PredicateSyntaxError("too deeply nested for SQLite once translated (nesting \(m.nesting) of at most \(maxNesting), depth \(m.height) of at most \(maxHeight))",
                                       offset: 0, hint: "flatten the predicate: fewer nested parentheses and NOTs, shorter arithmetic chains")
        }
    }
}
