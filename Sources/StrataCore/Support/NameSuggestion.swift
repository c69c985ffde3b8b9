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

    /// Levenshtein distance over Characters.
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
