/// The Core Data-style code of a validation violation (SPEC §7).
public enum AuditCode: Int, CaseIterable, Sendable, Codable, Hashable, Comparable, CustomStringConvertible {
    /// An entity validation predicate is false (NSManagedObjectValidationError).
    case predicate = 1550
    /// Two or more objects share the values of a uniqueness constraint (NSManagedObjectConstraintValidationError).
    case uniqueness = 1551
    /// A non-optional attribute or relationship is nil or empty.
    case missingMandatory = 1570
    case tooFew = 1580
    case tooMany = 1590
    case tooLarge = 1610
    case tooSmall = 1620
    case dateTooLate = 1630
    case dateTooSoon = 1640
    case tooLong = 1660
    case tooShort = 1670
    case pattern = 1680
    /// A reference to an object that does not exist (Strata's own code; noAction relationships).
    case danglingReference = 1700

    /// A short phrase: `missing mandatory value`, `number too large`, ...
    public var summary: String {
        switch self {
        case .predicate: return "validation predicate failed"
        case .uniqueness: return "duplicate values"
        case .missingMandatory: return "missing mandatory value"
        case .tooFew: return "too few related objects"
        case .tooMany: return "too many related objects"
        case .tooLarge: return "number too large"
        case .tooSmall: return "number too small"
        case .dateTooLate: return "date too late"
        case .dateTooSoon: return "date too soon"
        case .tooLong: return "string too long"
        case .tooShort: return "string too short"
        case .pattern: return "string does not match pattern"
        case .danglingReference: return "dangling reference"
        }
    }

    public var description: String { String(rawValue) }

    public static func < (a: AuditCode, b: AuditCode) -> Bool { a.rawValue < b.rawValue }
}
