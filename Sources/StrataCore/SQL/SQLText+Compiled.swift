extension SQLText {
    /// A statement the predicate compiler produced in its older form (text with `?` placeholders and
    /// their values), as pieces: each `?` outside quotes becomes its bound value. The compiler quotes
    /// identifiers with `"` and binds every value, so its text holds no other `?`. A bridge for the new
    /// planners until the compiler returns `SQLText` itself.
    init(compiled statement: SQLStatement) {
        var pieces: [Piece] = []
        var text = ""
        var next = 0
        var quote: Character?
        for c in statement.sql {
            if let q = quote {
                if c == q { quote = nil }
                text.append(c)
            } else if c == "\"" || c == "'" {
                quote = c
                text.append(c)
            } else if c == "?", next < statement.arguments.count {
                pieces.append(.text(text))
                text = ""
                pieces.append(.value(statement.arguments[next]))
                next += 1
            } else {
                text.append(c)
            }
        }
        pieces.append(.text(text))
        precondition(next == statement.arguments.count, "a compiled statement binds one value per placeholder")
        self.init(pieces: pieces)
    }

    /// The statement for the older executors (`db.execute(SQLStatement)`).
    var statement: SQLStatement { SQLStatement(sql, arguments) }
}
