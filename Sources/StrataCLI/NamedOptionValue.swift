import ArgumentParser
import Strata

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
