/// The order of file names in `models/` and `migrations/`: runs of ASCII digits compare as numbers
/// (`2.yaml` before `10.yaml`), everything else by Unicode scalar value. Deterministic on every machine.
///
/// Replaces Foundation's `localizedStandardCompare`, whose first use builds the current locale through
/// ICU: 0.5 ms of a 16 ms `strata migrate` (perf samples over 40 runs of the add-column case, issue 13).
enum FileNameOrder {
    static func areInIncreasingOrder(_ a: String, _ b: String) -> Bool {
        var i = a.unicodeScalars.makeIterator(), j = b.unicodeScalars.makeIterator()
        var x = i.next(), y = j.next()
        while let p = x, let q = y {
            if isDigit(p) && isDigit(q) {
                var m = "", n = ""
                while let d = x, isDigit(d) { m.unicodeScalars.append(d); x = i.next() }
                while let d = y, isDigit(d) { n.unicodeScalars.append(d); y = j.next() }
                let u = m.drop { $0 == "0" }, v = n.drop { $0 == "0" }
                if u.count != v.count { return u.count < v.count }
                if u != v { return u < v }
                if m.count != n.count { return m.count < n.count }
                continue
            }
            if p != q { return p.value < q.value }
            x = i.next(); y = j.next()
        }
        return x == nil && y != nil
    }

    private static func isDigit(_ s: Unicode.Scalar) -> Bool { s.value >= 48 && s.value <= 57 }
}
