extension SQLText {
    /// The statement rendered for SQLite, for the GRDB calls that take text and arguments (the bridge while
    /// older code speaks `SQLStatement`).
    var sqliteStatement: SQLStatement {
        let (sql, arguments) = rendered(for: .sqlite)
        return SQLStatement(sql, arguments)
    }
}
