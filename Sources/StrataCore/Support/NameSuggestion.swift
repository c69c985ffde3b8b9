/// "Did you mean …?" suggestions by edit distance.
public enum NameSuggestion {
    /// The candidate closest to `name`, when it is close enough to be a likely typo.
    public static func closest(to name: String, in candidates: some Sequence<String>) -> String? {
        let lowered = name.lowercased()
        var best: (String, Int)?
        for candidate in candidates {
            let distance = editDistance(lowered, candidate.lowercased())
            if best == nil || distance < best!.1 || (distance == best!.1 && candidate < best!.0) {
                best = (candidate, distance)
            }
        }
        guard let (candidate, distance) = best else { return nil }
        let limit = max(1, min(3, name.count / 3 + 1))
        return distance <= limit ? candidate : nil
    }

    /// `did you mean 'x'?` or nil.
    public static func hint(for name: String, in candidates: some Sequence<String>) -> String? {
        closest(to: name, in: candidates).map { "did you mean '\($0)'?" }
    }

    /// Edit distance over Characters counting insertions, deletions, substitutions and
    /// transpositions of neighbours (optimal string alignment), so `int23` is one edit from `int32`.
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
