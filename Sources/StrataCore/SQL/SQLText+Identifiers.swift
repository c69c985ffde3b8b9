extension SQLText {
    /// Every identifier the statement names, function arguments included, in order.
    public var identifiers: [(qualifier: String?, name: String)] {
        pieces.flatMap { piece -> [(qualifier: String?, name: String)] in
            switch piece {
            case .identifier(let qualifier, let name): return [(qualifier, name)]
            case .function(_, let arguments): return arguments.flatMap(\.identifiers)
            case .text, .value, .keyword: return []
            }
        }
    }
}
