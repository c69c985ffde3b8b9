import ArgumentParser
import Strata

// Option defaults: an `@Option` declares no default value (`var auditOption: AuditMode?` and
// `var audit: AuditMode { auditOption ?? .touched }`), and its help text says the default. For a declared
// default, ArgumentParser asks the Swift runtime whether the value's type is `CaseIterable & RawRepresentable`
// (and describes an `Int` or `Double` through `String(describing:)`) each time it builds the command, and the
// runtime answers a first question about a type by scanning every conformance record in the binary (about
// 9,900). Measured with callgrind on the add-column migrate of Benchmarks/small_command.py: 59.2 → 54.9 M
// instructions, argument parsing 26.4 → 22.0 M (Docs/performance.md, "Where a small command's time goes").
// `OptionDefaultsTests` checks each default against its help. Likewise every option and flag spells its name
// (`.customLong("lock-timeout")`): `.long` derives it from the property's name, a `Character` by `Character` pass
// ArgumentParser repeats at each build of the command, 0.86 M of the same run (51.0 → 50.2 M); the help of every
// subcommand is byte-identical.

/// An option value from a closed set of names (`--format text|json`, `--audit touched|full|none`): each value
/// is its raw value on the command line, in help and in completions.
///
/// These are ArgumentParser's own answers for such a type, given directly: its default implementations reach
/// each name through a key path and `String(describing:)`, which the Swift runtime resolves on first use
/// (generic key-path instantiation, conformance lookups), and `migrate` builds its options three times per run.
/// (Public only because the public enums below must witness the public protocol.) Measured with callgrind
/// on the add-column migrate of `Benchmarks/small_command.py` (Docs/performance.md,
/// "Where a small command's time goes").
protocol NamedOptionValue: ExpressibleByArgument, CaseIterable, RawRepresentable where RawValue == String {}

extension NamedOptionValue {
    public static var allValueStrings: [String] { allCases.map { $0.rawValue } }
    /// None: a value's description is its name.
    public static var allValueDescriptions: [String: String] { [:] }
    public var defaultValueDescription: String { rawValue }
}

extension ReportFormat: NamedOptionValue {}
extension AuditMode: NamedOptionValue {}
extension ViolationPolicy: NamedOptionValue {}
extension SQLDialect: NamedOptionValue {}
