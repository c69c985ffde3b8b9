/// What SQLite's parser can take: its LALR stack (100 entries) overflows past about 90 nested
/// parentheses or NOTs, and an expression tree deeper than 1,000 is refused. The compiler measures the
/// SQL it generates and refuses, as invalid input, what SQLite would refuse at run time.
enum SQLComplexity {
    /// A label for messages, shortened so long chains do not build long texts.
    static func label(_ text: String) -> String {
        text.count <= 60 ? text : String(text.prefix(57)) + "…"
    }

    /// The parser-stack estimate (see `measure`, in tenths of a stack entry) allowed: 80 of SQLite's
    /// 100 entries, leaving room for the SQL the batch and audit statements wrap around a predicate.
    static let maxNesting = 800
    /// A bound on the expression tree's height, well under SQLite's 1,000.
    static let maxHeight = 700
    /// Operations on stored values in one arithmetic chain (`rating + 1 + 1 …`).
    static let maxChain = 500
    /// Bound variables in one statement: SQLite's default `SQLITE_MAX_VARIABLE_NUMBER` is 32,766.
    static let maxArguments = 30_000

    struct Measure {
        /// An estimate (from above) of SQLite's parser stack at its fullest.
        var nesting = 0
        /// An estimate (from above) of the expression tree's height.
        var height = 0
    }

    /// Walks the statement's pieces as SQLite's LALR parser would stack them: each open parenthesis
    /// (with the function name before it), each operator still waiting for its right operand (two
    /// entries: the left operand and the operator), each pending prefix NOT or EXISTS, and a SELECT's
    /// clauses. Identifiers and bound values are operands by construction; only Strata's own keywords
    /// and punctuation are read. Within one parenthesis group, the tree's height is at most the number
    /// of operators in it plus the tallest group it contains.
    static func measure(_ statement: SQLText) -> Measure {
        // Costs in tenths of a stack entry, measured on SQLite 3.40: a parenthesis 1.1 (91 nest), a
        // function call 3.4 (30 nest), a pending binary operator 2.3, a prefix NOT or EXISTS 1.1, each
        // SELECT clause 2 (EXISTS (SELECT 1 FROM t WHERE …) nests 12 deep).
        struct Frame {
            var opening = 11
            var base = 11
            /// Precedences of operators waiting for their right operand (prefix operators cost 1, binary 2).
            var pending: [(precedence: Int, cost: Int)] = []
            var operators = 0
            var tallestChild = 0
            var cost: Int { base + pending.reduce(0) { $0 + $1.cost } }
        }
        var stack = [Frame()]
        var result = Measure()
        var depth = 0
        func binary(_ precedence: Int) {
            stack[stack.count - 1].operators += 1
            while let last = stack[stack.count - 1].pending.last, last.precedence >= precedence { stack[stack.count - 1].pending.removeLast() }
            stack[stack.count - 1].pending.append((precedence, 23))
            depth = stack.reduce(0) { $0 + $1.cost }
            result.nesting = max(result.nesting, depth)
        }
        func prefix(_ precedence: Int) {
            stack[stack.count - 1].operators += 1
            stack[stack.count - 1].pending.append((precedence, 11))
            depth = stack.reduce(0) { $0 + $1.cost }
            result.nesting = max(result.nesting, depth)
        }
        func isWord(_ b: UInt8) -> Bool { (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || (b >= 48 && b <= 57) || b == 95 }
        /// Whether the last thing read was a word (a function name stacks with its parenthesis).
        var afterWord = false
        for piece in statement.sqlitePieces {
            guard case .text(let text) = piece else { afterWord = false; continue }
            let bytes = Array(text.utf8)
            var i = 0
            while i < bytes.count {
                let b = bytes[i]
                if b != UInt8(ascii: " ") && !isWord(b) && b != UInt8(ascii: "(") { afterWord = false }
                switch b {
                case UInt8(ascii: "("):
                    stack.append(Frame(opening: afterWord ? 34 : 11, base: afterWord ? 34 : 11))
                    afterWord = false
                    depth = stack.reduce(0) { $0 + $1.cost }
                    result.nesting = max(result.nesting, depth)
                case UInt8(ascii: ")"):
                    if stack.count > 1 {
                        let frame = stack.removeLast()
                        let height = frame.operators + frame.tallestChild + 1
                        stack[stack.count - 1].tallestChild = max(stack[stack.count - 1].tallestChild, height)
                    }
                case UInt8(ascii: ","):
                    stack[stack.count - 1].pending.removeAll()
                    stack[stack.count - 1].base = stack[stack.count - 1].opening + 23
                case UInt8(ascii: "="), UInt8(ascii: "<"), UInt8(ascii: ">"):
                    // `<=`, `>=`, `<>` are one operator.
                    if i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "=") || bytes[i + 1] == UInt8(ascii: ">") { i += 1 }
                    binary(4)
                case UInt8(ascii: "+"), UInt8(ascii: "-"): binary(6)
                case UInt8(ascii: "*"), UInt8(ascii: "/"): binary(7)
                case UInt8(ascii: "|"):
                    if i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "|") { i += 1 }
                    binary(8)
                default:
                    if isWord(b) {
                        let start = i
                        while i < bytes.count, isWord(bytes[i]) { i += 1 }
                        afterWord = true
                        switch String(decoding: bytes[start..<i], as: UTF8.self).uppercased() {
                        case "OR": binary(1)
                        case "AND": binary(2)
                        case "NOT": prefix(3)
                        case "EXISTS": prefix(3)
                        case "IS", "IN", "BETWEEN", "LIKE": binary(4)
                        case "SELECT", "WHERE", "FROM", "JOIN", "ON":
                            stack[stack.count - 1].operators += 1
                            stack[stack.count - 1].pending.removeAll()
                            stack[stack.count - 1].base += 20
                            depth = stack.reduce(0) { $0 + $1.cost }
                            result.nesting = max(result.nesting, depth)
                        default: break
                        }
                        continue
                    }
                }
                i += 1
            }
        }
        let top = stack[0]
        result.height = max(result.height, top.operators + top.tallestChild + 1)
        return result
    }

    /// The largest SQL text one predicate or value may translate to.
    static let maxLength = 8_000_000

    /// Fails, at `offset`, as soon as a fragment outgrows one statement.
    static func checkSize(_ fragment: SQLText, offset: Int) throws(PredicateSyntaxError) {
        let (length, values) = size(fragment)
        if length > maxLength || values > maxArguments {
            throw PredicateSyntaxError("too large once translated to SQL (\(length) characters, \(values) values)",
                                       offset: offset, hint: "simplify the nested expressions")
        }
    }

    /// The length of the SQLite text and the number of bound values, counted from the pieces (nothing
    /// is rendered: this runs for every operand).
    static func size(_ fragment: SQLText) -> (length: Int, values: Int) {
        var length = 0, values = 0
        for piece in fragment.sqlitePieces {
            switch piece {
            case .function, .keyword: preconditionFailure("sqlitePieces expands them")
            case .text(let text): length += text.utf8.count
            case .identifier(let qualifier, let name):
                length += (qualifier.map { $0.utf8.count + 1 } ?? 0) + name.utf8.count + 2 + name.utf8.count(where: { $0 == UInt8(ascii: "\"") })
            case .value: length += 1; values += 1
            }
        }
        return (length, values)
    }

    /// Fails when SQLite could not run the statement.
    static func check(_ statement: SQLText) throws(PredicateSyntaxError) {
        if statement.arguments.count > maxArguments {
            throw PredicateSyntaxError("too many values: \(statement.arguments.count) (SQLite takes at most \(maxArguments) in one statement)",
                                       offset: 0, hint: "put long lists of values in one IN {…} list, which has no limit")
        }
        let m = measure(statement)
        if m.nesting > maxNesting || m.height > maxHeight {
            throw PredicateSyntaxError("too deeply nested for SQLite once translated (parser depth \(m.nesting / 10) of at most \(maxNesting / 10), expression depth \(m.height) of at most \(maxHeight))",
                                       offset: 0, hint: "flatten the predicate: fewer nested parentheses and NOTs, shorter arithmetic chains")
        }
    }
}
