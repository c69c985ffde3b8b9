/// A function call whose spelling depends on the SQL dialect. Pure.
///
/// On SQLite, Strata registers its own functions (`strata_casefold`, `strata_decimal_compare`, …) and
/// stores values in SQLite's storage forms (a bool as 0/1, a date as seconds since 1970, a decimal as its
/// canonical text). PostgreSQL has neither: ``PostgresRenderer`` writes native SQL for each call, or
/// refuses the ones it has no equivalent for. Planners build one statement; the renderer decides.
///
/// ```swift
/// let folded = SQLText.strata(.casefold, ["\(ColumnName("name", qualifier: "t"))"])
/// folded.sql                                    // strata_casefold(t."name")
/// try PostgresRenderer().rendering(folded).sql  // lower(t."name" COLLATE "und-x-icu")
/// ```
public enum SQLFunction: Hashable, Sendable {
    /// `strata_<name>(…)`, a function Strata registers on SQLite connections.
    case strata(StrataFunction)
    /// A value in SQLite's storage form converted to the attribute type's native PostgreSQL type (for
    /// assignments); the value itself on SQLite.
    case native(AttributeType)
    /// A native PostgreSQL column read in SQLite's storage form (for predicates and expressions, which
    /// compute on storage forms); the column itself on SQLite.
    case storage(AttributeType)
    /// A date in SQLite's storage form (seconds since 1970) as the operand of a comparison with a date: the
    /// value itself on SQLite. On PostgreSQL `to_timestamp(x)`, a value outside `timestamptz`'s range (4713 BC
    /// to 294276 AD) becoming `-infinity` or `infinity`, which compare as SQLite compares the number
    /// (`lastUsed >= $NOW - $DAYS days` with a huge `$DAYS` matches every dated row) instead of stopping the
    /// statement with "timestamp out of range".
    case comparedDate
    /// `CAST(x AS REAL)`: a double on both engines (PostgreSQL's `real` is single precision).
    case castReal
    /// An integer operand of `+ - *` or of a sign change, computed in 64 bits as SQLite computes every
    /// integer: the value itself on SQLite. On PostgreSQL `CAST(x AS bigint)`, so that `smallint` and
    /// `integer` columns do not overflow at their own width; `CAST(x AS numeric)` when the result may
    /// leave the 64-bit range (`mayOverflow`), where bigint arithmetic would stop the statement and SQLite
    /// gives a REAL: computed exactly, then settled to nil by `strata_int64` (SPEC §11.4). bigint where it
    /// suffices: a 1,000,000-row `UPDATE … SET x = x + 1` took 6.0–6.8 s through numeric against
    /// 4.4–5.1 s in bigint (PostgreSQL 15, this project's benchmark host).
    case integerOperand(mayOverflow: Bool)
    /// `int64(a / b)` of two integers: the quotient truncated toward zero, computed exactly, where `a / b` is a
    /// double (rounded past 2^53). nil for a zero divisor; the one quotient past int64 (its minimum / -1) is
    /// settled to nil by `strata_int64` where it is used. SQLite divides integers so: `(a / b)`; PostgreSQL
    /// `div(CAST(a AS numeric), NULLIF(CAST(b AS numeric), 0))`.
    case integerQuotient
    /// `a op b` computed as doubles (`/` divides any two numbers), nil where IEEE arithmetic gives no finite
    /// number (SPEC §11.4, as an integer overflow gives nil). On SQLite `(a op b)`, `(CAST(a AS REAL) / b)`:
    /// SQLite gives NULL for `x / 0` and for a NaN, and an infinity, which it carries on, is settled to nil
    /// by ``finiteReal`` where the value is used. PostgreSQL stops the statement instead ("value out of range:
    /// overflow", "… underflow", "division by zero"), so there the operation runs under a `CASE` that decides
    /// from the operands, with exact power-of-two scalings that cannot fail, whether the IEEE result would be
    /// infinite (nil), a product or quotient rounded to zero (0, as SQLite gives) or neither (computed); an
    /// operand that is not a column or a bound value is computed once, in a sub-select.
    case realArithmetic(Arithmetic)
    /// A double that ``realArithmetic`` computed, used as a value (assigned, compared, passed to a function,
    /// divided by): `NULLIF(NULLIF(x, 9e999), -9e999)` on SQLite, where an infinity becomes nil; `x` on
    /// PostgreSQL, whose operations already gave nil.
    case finiteReal
    /// `min(a, b, …)` / `max(a, b, …)` as SQLite's scalar functions: nil when any argument is nil.
    case extreme(isMinimum: Bool)
    /// `round(x, places)` of a value of the type (`int64`, `double` or `decimal`), half away from zero:
    /// `strata_round(x, places)` on SQLite (`ExpressionRuntime.round`). On PostgreSQL a double is rounded
    /// through its shortest text, as SQLite's (`CAST(x AS numeric)` keeps 15 significant digits, and near the
    /// largest double gave a numeric no double holds), a result past the doubles is an infinity, a decimal with
    /// more than 38 significant digits is nil, and `places` outside -999…999 gives nil, as on SQLite.
    case round(AttributeType)
    /// `json_each(x)`: the elements of a bound JSON array (long `IN` lists), as a `FROM` item with one column
    /// `value`; the elements are values of the attribute type's storage form (PostgreSQL casts them to it).
    case jsonEach(AttributeType)
    /// `string()` of an integer: `CASE WHEN typeof(x) = 'integer' THEN CAST(x AS TEXT) ELSE <conversion> END` on
    /// SQLite (its own CAST writes the same digits, faster than the function); the conversion on PostgreSQL.
    /// Arguments: the value, the conversion.
    case integerText
    /// The `_pk` the last insert into the table gave its row: `last_insert_rowid()` on SQLite; on PostgreSQL
    /// the current value of the table's identity sequence in this session.
    case lastInsertedKey(table: String)
    /// Whether a text's length in Characters may differ from its code points (it is not all ASCII, or
    /// holds a CR): `(length(CAST(x AS BLOB)) <> length(x) OR instr(x, char(13)) > 0)` on SQLite.
    case mayDifferInCharacters
    /// A text's length in Characters where the engine can count them: `strata_length(CAST(x AS BLOB))` on
    /// SQLite (the whole text, a NUL included); on PostgreSQL
    /// `char_length(x)` for ASCII text without CR and NULL for other text (the audit counts those Characters
    /// in Swift, SPEC §14.2).
    case auditCharacters
    /// Whether a text may have more Characters than a bound (its code points do; Characters never outnumber
    /// them). Arguments: the text, the bound. `length(x) > b` on PostgreSQL. SQLite's `length` stops at the
    /// first NUL, so there: `length(CAST(x AS BLOB)) > b AND (length(x) > b OR instr(CAST(x AS BLOB), x'00') > 0)`
    /// (the byte count, known without reading the text, bounds the code points; a NUL below them is looked
    /// for only in the rows whose bytes pass the bound).
    case mayExceedCharacters
    /// Whether a text surely has fewer Characters than a bound. Arguments: the text, the bound.
    /// `length(x) < b` on PostgreSQL; `length(CAST(x AS BLOB)) < b` on SQLite, whose `length` stops at the
    /// first NUL (fewer bytes than the bound means fewer Characters; the others are
    /// ``mayDifferInCharacters``, counted).
    case surelyFewerCharacters
    /// A text whole where it is read back through GRDB (an audit sample), which reads a text only up to its
    /// first NUL: `CAST(x AS BLOB)` on SQLite (bytes, decoded as UTF-8); `x` on PostgreSQL. (Strata's own
    /// `strata_` functions read a text argument whole: `StrataSQLFunction`.)
    case wholeText
    /// `DO E'…'`: a PL/pgSQL block run once on the server, its one argument (identifiers and text, no bound
    /// values) written as a string constant, quotes and backslashes escaped (PostgreSQL only: Strata sends it
    /// only to a PostgreSQL store; SQLite's spelling is `DO` and the body, never run).
    case plpgsqlBlock

    /// The operators of ``realArithmetic``.
    public enum Arithmetic: String, Hashable, Sendable {
        case add = "+", subtract = "-", multiply = "*", divide = "/"
    }

    /// Whether the call only converts between storage forms (its argument stands for the value).
    public var isConversion: Bool {
        switch self {
        case .native, .storage, .comparedDate: return true
        default: return false
        }
    }

    /// The attribute types whose SQLite storage form is not PostgreSQL's native value.
    public static func needsConversion(_ type: AttributeType) -> Bool {
        switch type {
        case .bool, .date, .decimal, .uuid: return true
        default: return false
        }
    }

    /// The call as SQLite text (exactly what Strata wrote before the call became a piece).
    func sqlite(_ arguments: [SQLText]) -> SQLText {
        switch self {
        case .strata(let function): return .call("strata_" + function.rawValue, arguments)
        case .native, .storage, .comparedDate: return arguments[0]
        case .castReal: return "CAST(" + arguments[0] + " AS REAL)"
        case .integerOperand: return arguments[0]
        case .integerQuotient: return "(" + arguments[0] + " / " + arguments[1] + ")"
        case .realArithmetic(.divide): return "(CAST(" + arguments[0] + " AS REAL) / " + arguments[1] + ")"
        case .realArithmetic(let op): return "(" + arguments[0] + " \(keyword: op.rawValue) " + arguments[1] + ")"
        case .finiteReal: return "NULLIF(NULLIF(" + arguments[0] + ", 9e999), -9e999)"
        case .extreme(let isMinimum): return .call(isMinimum ? "min" : "max", arguments)
        case .round: return .call("strata_round", arguments)
        case .jsonEach: return .call("json_each", arguments)
        case .lastInsertedKey: return .call("last_insert_rowid", [])
        case .integerText:
            return "CASE WHEN typeof(" + arguments[0] + ") = 'integer' THEN CAST(" + arguments[0] + " AS TEXT) ELSE " + arguments[1] + " END"
        case .mayDifferInCharacters:
            let x = arguments[0]
            return "(length(CAST(" + x + " AS BLOB)) <> length(" + x + ") OR instr(" + x + ", char(13)) > 0)"
        case .auditCharacters: return .call("strata_length", ["CAST(" + arguments[0] + " AS BLOB)"])
        case .mayExceedCharacters:
            let bytes: SQLText = "CAST(" + arguments[0] + " AS BLOB)"
            let codePoints: SQLText = "length(" + arguments[0] + ") > " + arguments[1]
            let holdsNUL: SQLText = "instr(" + bytes + ", x'00') > 0"
            return "(length(" + bytes + ") > " + arguments[1] + " AND (" + codePoints + " OR " + holdsNUL + "))"
        case .surelyFewerCharacters: return "length(CAST(" + arguments[0] + " AS BLOB)) < " + arguments[1]
        case .wholeText: return "CAST(" + arguments[0] + " AS BLOB)"
        case .plpgsqlBlock: return "DO " + arguments[0]
        }
    }
}

/// The SQL functions Strata registers on SQLite connections (`Strata/Store/Database+StrataFunctions.swift`
/// and the expression runtime), named without their `strata_` prefix.
public enum StrataFunction: String, Hashable, Sendable, CaseIterable {
    case casefold, unaccent, matches, beginswith, contains, endswith, like
    case decimal
    case decimalCompare = "decimal_compare"
    case decimalAdd = "decimal_add"
    case decimalSub = "decimal_sub"
    case decimalMul = "decimal_mul"
    case decimalDiv = "decimal_div"
    case decimalAbs = "decimal_abs"
    case decimalMin = "decimal_min"
    case decimalMax = "decimal_max"
    case substring, trim, uuid, length, lowercase, uppercase, cast, int64, abs, round
}
