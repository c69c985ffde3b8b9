/// Double arithmetic on PostgreSQL with SQLite's results (``SQLFunction/realArithmetic(_:)``, SPEC §11.4).
///
/// PostgreSQL stops a statement where IEEE arithmetic leaves the finite doubles ("value out of range:
/// overflow"), rounds a non-zero product or quotient to zero ("… underflow") or divides by zero; SQLite
/// gives an infinity (which Strata settles to nil), 0 and NULL. Each operation runs under a `CASE` that
/// decides first, from its operands, which it is, and computes only what cannot fail. The tests multiply
/// and divide by powers of two, which is exact wherever they are used (no rounding, no overflow, no
/// result of zero), so each decision is exactly IEEE's, at the edges of the range too:
///
/// - `a ± b` is infinite only when one operand reaches 2^1022: then the halves (an operand below 2^-1021,
///   which cannot move the sum, counts as 0) add up to 2^1023 or more exactly when the sum rounds to 2^1024.
/// - `a · b` is infinite only when both exceed 1: then `(|a|·2^-512)·(|b|·2^-512)` reaches 1. It rounds to
///   zero only when both are below 1 and one below 2^-537: then `(|a|·2^537)·(|b|·2^537)` is 0.5 or less.
/// - `a / b` is infinite only when `|b| < 1`: then `|a|/2 ≥ |b|·2^1023` (for `|a| ≥ 2^-1021`). It rounds to
///   zero only when `|b| > 1` and `|a| < 2^-50`: then `|a|·2^1074 ≤ |b|/2`. `b = 0` is nil.
/// - An infinite operand (PostgreSQL's `Infinity`, which SQLite carries on to an infinity or NaN) gives nil,
///   except as a divisor (`x / Infinity` is 0 on both).
extension PostgresRenderer {
    static func realArithmetic(_ op: SQLFunction.Arithmetic, _ arguments: [SQLText]) -> [Part] {
        let double = { (i: Int) -> [Part] in [.text("CAST("), .argument(i), .text(" AS double precision)")] }
        guard arguments.allSatisfy(isSimpleOperand) else {
            // Each operand computed once: the guard reads them several times. `OFFSET 0` keeps the planner from
            // pulling the sub-select up, which would copy each operand into every place the guard reads it: a
            // chain of 60 operations grew as 8^60 (the server process was killed for its memory).
            return [.text("(SELECT ")] + realGuard(op, [.text("strata_a")], [.text("strata_b")])
                + [.text(" FROM (SELECT ")] + double(0) + [.text(" AS strata_a, ")] + double(1)
                + [.text(" AS strata_b OFFSET 0) AS strata_real)")]
        }
        return realGuard(op, double(0), double(1))
    }

    /// A column, a bound value, or a conversion of one: cheap to read again.
    static func isSimpleOperand(_ sql: SQLText) -> Bool {
        guard sql.pieces.count == 1 else { return false }
        switch sql.pieces[0] {
        case .identifier, .value: return true
        case .function(let function, let arguments):
            switch function {
            case .native, .storage, .castReal, .integerOperand: return arguments.count == 1 && isSimpleOperand(arguments[0])
            default: return false
            }
        default: return false
        }
    }

    /// Powers of two as double constants, written in their shortest exact decimal form.
    private static func power(_ exponent: Int) -> String {
        let digits: String
        switch exponent {
        case 1022: digits = "4.49423283715579e+307"
        case 1023: digits = "8.98846567431158e+307"
        case -1021: digits = "4.450147717014403e-308"
        case -512: digits = "7.458340731200207e-155"
        case 537: digits = "4.4989137945431964e+161"
        case -537: digits = "2.2227587494850775e-162"
        case -50: digits = "8.881784197001252e-16"
        default: preconditionFailure("no constant for 2^\(exponent)")
        }
        return "CAST('" + digits + "' AS double precision)"
    }

    /// The largest finite double.
    private static let largest = "CAST('1.7976931348623157e+308' AS double precision)"

    /// The `CASE` over the operands `a` and `b` (each read as a double).
    static func realGuard(_ op: SQLFunction.Arithmetic, _ a: [Part], _ b: [Part]) -> [Part] {
        let absA: [Part] = [.text("abs(")] + a + [.text(")")], absB: [Part] = [.text("abs(")] + b + [.text(")")]
        let result: [Part] = a + [.text(" " + op.rawValue + " ")] + b
        switch op {
        case .add, .subtract:
            let half = { (x: [Part], absX: [Part]) -> [Part] in
                [.text("CASE WHEN ")] + absX + [.text(" < " + power(-1021) + " THEN 0 ELSE ")] + x + [.text(" * 0.5 END")]
            }
            return [.text("CASE WHEN ")] + absA + [.text(" < " + power(1022) + " AND ")] + absB + [.text(" < " + power(1022) + " THEN ")]
                + result + [.text(" WHEN abs(")] + half(a, absA) + [.text(" " + op.rawValue + " ")] + half(b, absB)
                + [.text(") < " + power(1023) + " THEN ")] + result + [.text(" END")]
        case .multiply:
            return [.text("CASE WHEN ")] + absA + [.text(" > 1 AND ")] + absB + [.text(" > 1 THEN CASE WHEN (")] + absA
                + [.text(" * " + power(-512) + ") * (")] + absB + [.text(" * " + power(-512) + ") < 1 THEN ")] + result
                + [.text(" END WHEN ")] + absA + [.text(" < 1 AND ")] + absB + [.text(" < 1 AND least(")] + absA + [.text(", ")] + absB
                + [.text(") < " + power(-537) + " THEN CASE WHEN (")] + absA + [.text(" * " + power(537) + ") * (")] + absB
                + [.text(" * " + power(537) + ") > 0.5 THEN ")] + result + [.text(" ELSE 0 END WHEN ")] + absA
                + [.text(" > " + largest + " OR ")] + absB + [.text(" > " + largest + " THEN NULL ELSE ")] + result + [.text(" END")]
        case .divide:
            return [.text("CASE WHEN ")] + b + [.text(" = 0 OR ")] + absA + [.text(" > " + largest + " THEN NULL WHEN ")] + absB
                + [.text(" < 1 THEN CASE WHEN ")] + absA + [.text(" < " + power(-1021) + " THEN ")] + result + [.text(" WHEN ")] + absA
                + [.text(" * 0.5 >= ")] + absB + [.text(" * " + power(1023) + " THEN NULL ELSE ")] + result + [.text(" END WHEN ")] + absB
                + [.text(" > 1 THEN CASE WHEN ")] + absA + [.text(" >= " + power(-50) + " THEN ")] + result + [.text(" WHEN (")] + absA
                + [.text(" * " + power(537) + ") * " + power(537) + " <= ")] + absB + [.text(" * 0.5 THEN 0 ELSE ")] + result
                + [.text(" END ELSE ")] + result + [.text(" END")]
        }
    }
}
