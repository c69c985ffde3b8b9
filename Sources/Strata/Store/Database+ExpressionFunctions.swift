import Foundation
import GRDB
import StrataCore

extension Database {
    /// The functions behind expression values (SPEC §11.1, §11.4): each a thin wrapper over
    /// `ExpressionRuntime` / `DecimalArithmetic`, so literals folded by the compiler and stored values
    /// converted per row agree. All deterministic except `strata_uuid`. NULL in, NULL out.
    static let expressionFunctions: [StrataSQLFunction] = [
        strataCast, strataInt64, strataRound, strataSubstring2, strataSubstring3, strataTrim, strataUUID,
        decimalOperator("strata_decimal_add", .add), decimalOperator("strata_decimal_sub", .subtract),
        decimalOperator("strata_decimal_mul", .multiply), decimalOperator("strata_decimal_div", .divide),
        strataDecimalAbs, decimalExtreme("strata_decimal_min", keepsSmaller: true), decimalExtreme("strata_decimal_max", keepsSmaller: false),
    ]

    /// `strata_cast(x, 'fromType', 'toType')`: the value converted, NULL when it does not convert.
    static let strataCast = StrataSQLFunction("strata_cast", argumentCount: 3, pure: true) { values in
        guard let from = String.fromDatabaseValue(values[1]).flatMap(AttributeType.init(rawValue:)),
              let to = String.fromDatabaseValue(values[2]).flatMap(AttributeType.init(rawValue:)) else { return nil }
        return ExpressionRuntime.cast(Value(databaseValue: values[0]), from: from, to: to).databaseValue
    }

    /// `strata_int64(x)`: an integer as is; the REAL SQLite yields when integer arithmetic overflowed
    /// becomes NULL (SPEC §11.4: an int64 overflow gives nil).
    static let strataInt64 = StrataSQLFunction("strata_int64", argumentCount: 1, pure: true) { values in
        if case .int64 = values[0].storage { return values[0] }
        return nil
    }

    /// `strata_round(x, places)`: half away from zero, by storage class (integer, real, decimal text).
    static let strataRound = StrataSQLFunction("strata_round", argumentCount: 2, pure: true) { values in
        guard let places = Int64.fromDatabaseValue(values[1]) else { return nil }
        return ExpressionRuntime.round(Value(databaseValue: values[0]), places: places).databaseValue
    }

    /// `strata_substring(s, start[, length])`: Unicode scalars, from 1.
    static let strataSubstring2 = StrataSQLFunction("strata_substring", argumentCount: 2, pure: true) { values in
        guard let s = StrataFunctionText.text(values[0]), let start = Int64.fromDatabaseValue(values[1]) else { return nil }
        return ExpressionRuntime.substring(s, start: start, length: nil)
    }

    static let strataSubstring3 = StrataSQLFunction("strata_substring", argumentCount: 3, pure: true) { values in
        guard let s = StrataFunctionText.text(values[0]), let start = Int64.fromDatabaseValue(values[1]),
              let length = Int64.fromDatabaseValue(values[2]) else { return nil }
        return ExpressionRuntime.substring(s, start: start, length: length)
    }

    /// `strata_trim(s)`: White_Space removed at both ends.
    static let strataTrim = StrataSQLFunction("strata_trim", argumentCount: 1, pure: true) { values in
        StrataFunctionText.text(values[0]).map(ExpressionRuntime.trim)
    }

    /// `strata_uuid()`: a new random UUID per call (per row), lowercase. Not deterministic, so SQLite
    /// never factors it out of a statement.
    static let strataUUID = StrataSQLFunction("strata_uuid", argumentCount: 0, pure: false) { _ in
        UUID().uuidString.lowercased()
    }

    /// `strata_decimal_abs(x)`
    static let strataDecimalAbs = StrataSQLFunction("strata_decimal_abs", argumentCount: 1, pure: true) { values in
        StrataFunctionText.decimalText(values[0]).flatMap(DecimalArithmetic.abs)
    }

    /// `strata_decimal_add(a, b)` and its siblings: exact decimal arithmetic on canonical text.
    static func decimalOperator(_ name: String, _ op: DecimalArithmetic.Operator) -> StrataSQLFunction {
        StrataSQLFunction(name, argumentCount: 2, pure: true) { values in
            guard let a = StrataFunctionText.decimalText(values[0]), let b = StrataFunctionText.decimalText(values[1]) else { return nil }
            return DecimalArithmetic.apply(op, a, b)
        }
    }

    /// `strata_decimal_min(a, b)` / `strata_decimal_max(a, b)`: compared numerically; NULL if either is.
    static func decimalExtreme(_ name: String, keepsSmaller: Bool) -> StrataSQLFunction {
        StrataSQLFunction(name, argumentCount: 2, pure: true) { values in
            guard let a = StrataFunctionText.decimalText(values[0]).flatMap(DecimalText.canonical),
                  let b = StrataFunctionText.decimalText(values[1]).flatMap(DecimalText.canonical) else { return nil }
            let aIsSmaller = (TextFolding.compareDecimals(a, b) ?? 0) <= 0
            return aIsSmaller == keepsSmaller ? a : b
        }
    }
}
