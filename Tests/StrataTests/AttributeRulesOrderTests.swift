import Testing
@testable import StrataCore

/// `AttributeRules.order` compares bounds and defaults exactly, as the audit's SQL does.
@Suite struct AttributeRulesOrderTests {
    @Test(arguments: [
        (Value.integer(9_007_199_254_740_993), Value.integer(9_007_199_254_740_992), 1),
        (.integer(Int64.max), .integer(Int64.max - 1), 1),
        (.integer(-3), .integer(-3), 0),
        (.integer(9_007_199_254_740_993), .real(9_007_199_254_740_992), 1),
        (.integer(5), .real(5.5), -1),
        (.integer(-6), .real(-5.5), -1),
        (.real(5.0), .integer(5), 0),
        (.integer(Int64.max), .real(0x1p63), -1),
        (.integer(Int64.min), .real(-0x1p63), 0),
        (.integer(Int64.min), .real(-0x1p64), 1),
        (.real(0.5), .real(0.25), 1),
        (.text("0.1000000000000000000002"), .text("0.1000000000000000000001"), 1),
        (.text("-12.50"), .integer(-12), -1),
        (.text("12.5"), .real(12.5), 0),
    ] as [(Value, Value, Int)])
    func ordersExactly(_ a: Value, _ b: Value, _ expected: Int) {
        #expect(AttributeRules.order(a, b) == expected)
        #expect(AttributeRules.order(b, a) == -expected)
    }

    @Test func notNumbersHaveNoOrder() {
        #expect(AttributeRules.order(.real(.nan), .integer(1)) == nil)
        #expect(AttributeRules.order(.text("abc"), .integer(1)) == nil)
        #expect(AttributeRules.order(.null, .integer(1)) == nil)
        #expect(AttributeRules.order(.blob([1]), .blob([1])) == nil)
    }
}
