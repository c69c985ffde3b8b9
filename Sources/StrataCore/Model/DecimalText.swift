import Foundation

/// Canonical decimal strings: no exponent, no trailing zeros, no leading zeros ("12.50" → "12.5").
public enum DecimalText {
    public static func canonical(_ text: String) -> String? {
        var s = Substring(text)
        var negative = false
        if s.first == "-" || s.first == "+" { negative = s.first == "-"; s = s.dropFirst() }
        var exponent = 0
        if let e = s.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            guard let x = Int(s[s.index(after: e)...]), x > -10_000, x < 10_000 else { return nil }
            exponent = x
            s = s[..<e]
        }
        let parts = s.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let intPart = parts.first.map(String.init) ?? ""
        let fracPart = parts.count > 1 ? String(parts[1]) : ""
        guard !(intPart.isEmpty && fracPart.isEmpty),
              intPart.allSatisfy(\.isASCIIDigit), fracPart.allSatisfy(\.isASCIIDigit) else { return nil }
        var digits = Array(intPart + fracPart)
        var pointPosition = intPart.count + exponent   // digits before the point
        if pointPosition < 0 { digits.insert(contentsOf: Array(repeating: "0", count: -pointPosition), at: 0); pointPosition = 0 }
        if pointPosition > digits.count { digits.append(contentsOf: Array(repeating: "0", count: pointPosition - digits.count)) }
        var integer = String(digits[..<pointPosition])
        var fraction = String(digits[pointPosition...])
        while integer.count > 1, integer.first == "0" { integer.removeFirst() }
        if integer.isEmpty { integer = "0" }
        while fraction.last == "0" { fraction.removeLast() }
        let body = fraction.isEmpty ? integer : integer + "." + fraction
        return (negative && body != "0") ? "-" + body : body
    }
}
