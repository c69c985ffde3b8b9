/// The tool's version, recorded in each migration history row.
public enum StrataVersion {
    public static let current = "0.1.0"
}
