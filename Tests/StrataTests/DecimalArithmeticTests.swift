import Testing
@testable import StrataCore

/// Exact decimal arithmetic (SPEC §11.4): signs, carries and borrows, half-even division to 20
/// fractional digits, half-away-from-zero rounding, and nil past 38 significant digits.
@Suite struct DecimalArithmeticTests {
    @Test(arguments: [
        (DecimalArithmetic.Operator.add, "0.1", "0.2", "0.3"),
        (.add, "-12.5", "12.5", "0"),
        (.add, "-1", "0.25", "-0.75"),
        (.add, "999.99", "0.01", "1000"),
        (.subtract, "1", "1.0001", "-0.0001"),
        (.subtract, "-3", "-5", "2"),
        (.subtract, "100", "0.001", "99.999"),
        (.multiply, "-1.5", "1.5", "-2.25"),
        (.multiply, "0", "-7", "0"),
        (.multiply, "12345678901234567890", "10", "123456789012345678900"),
        (.multiply, "999999999999999999", "999999999999999999", "999999999999999998000000000000000001"),
        (.add, "999999999999999999", "0.000000000000000001", "999999999999999999.000000000000000001"),
        (.subtract, "-0.5", "-0.5", "0"),
        (.multiply, "-.5", "4", "-2"),
        (.divide, "1", "3", "0.33333333333333333333"),
        (.divide, "-2", "3", "-0.66666666666666666667"),
        (.divide, "1", "8", "0.125"),
        (.divide, "0.00000000000000000001", "2", "0"),
        (.divide, "0.00000000000000000003", "2", "0.00000000000000000002"),
        (.divide, "10", "0.001", "10000"),
        (.divide, "1e-5", "1e5", "0.0000000001"),
    ] as [(DecimalArithmetic.Operator, String, String, String)])
    func exact(_ op: DecimalArithmetic.Operator, _ a: String, _ b: String, _ result: String) {
        #expect(DecimalArithmetic.apply(op, a, b) == result)
    }

    @Test func nilCases() {
        #expect(DecimalArithmetic.apply(.divide, "1", "0") == nil)
        #expect(DecimalArithmetic.apply(.add, "x", "1") == nil)
        // 38 significant digits are kept, 39 are nil.
        let nines19 = String(repeating: "9", count: 19)
        #expect(DecimalArithmetic.apply(.multiply, nines19, nines19) == "99999999999999999980000000000000000001")
        #expect(DecimalArithmetic.apply(.multiply, nines19 + "9", nines19) == nil)
        #expect(DecimalArithmetic.apply(.add, String(repeating: "9", count: 38), "1") == "1" + String(repeating: "0", count: 38))
    }

    @Test(arguments: [
        ("2.5", 0, "3"), ("-2.5", 0, "-3"), ("2.45", 1, "2.5"), ("-7.25", 1, "-7.3"), ("7.24", 1, "7.2"),
        ("15", -1, "20"), ("-15", -1, "-20"), ("14.9", -1, "10"), ("0.5", 0, "1"), ("0.4", 0, "0"), ("12.5", 3, "12.5"),
    ] as [(String, Int, String)])
    func roundsHalfAwayFromZero(_ x: String, _ places: Int, _ result: String) {
        #expect(DecimalArithmetic.round(x, places: places) == result)
    }

    @Test func runtimeConversions() {
        #expect(ExpressionRuntime.shortest(3) == "3.0")
        #expect(ExpressionRuntime.shortest(1e16) == "10000000000000000.0")
        #expect(ExpressionRuntime.shortest(-0.0) == "0.0")
        #expect(ExpressionRuntime.shortest(.infinity) == nil)
        #expect(ExpressionRuntime.cast(.real(-3.9), from: .double, to: .int16) == .integer(-3))
        #expect(ExpressionRuntime.cast(.real(1e19), from: .double, to: .int64) == .null)
        // string() of a date: ISO 8601 within the range both engines hold (4713 BC to 294276 AD), nil past it.
        #expect(ExpressionRuntime.cast(.real(1_714_564_800.5), from: .date, to: .string) == .text("2024-05-01T12:00:00.500Z"))
        #expect(ExpressionRuntime.cast(.integer(9_224_318_016_000), from: .date, to: .string) == .null)
        #expect(ExpressionRuntime.cast(.real(1e15), from: .date, to: .string) == .null)
        #expect(ExpressionRuntime.cast(.real(-210_866_803_201), from: .date, to: .string) == .null)
        #expect(ExpressionRuntime.cast(.real(.infinity), from: .date, to: .string) == .null)
        #expect(ExpressionRuntime.cast(.text("-12.9"), from: .decimal, to: .int32) == .integer(-12))
        #expect(ExpressionRuntime.cast(.text("6F1C0D2A-8B3E-4C5D-9E7F-0A1B2C3D4E5F"), from: .uuid, to: .string)
                == .text("6f1c0d2a-8b3e-4c5d-9e7f-0a1b2c3d4e5f"))
        #expect(ExpressionRuntime.cast(.text("NO"), from: .string, to: .bool) == .integer(0))
        #expect(ExpressionRuntime.cast(.integer(2), from: .int64, to: .bool) == .null)
        #expect(ExpressionRuntime.substring("abc", start: -1, length: 3) == "a")
        #expect(ExpressionRuntime.substring("abc", start: 2, length: Int64.max) == "bc")
        #expect(ExpressionRuntime.substring("abc", start: 9, length: 1) == "")
        #expect(ExpressionRuntime.trim("\u{3000}\t x \u{85}") == "x")
        #expect(ExpressionRuntime.round(.integer(Int64.max), places: -1) == .null)
        #expect(ExpressionRuntime.round(.real(-0.5), places: 0) == .real(-1))
    }
}
