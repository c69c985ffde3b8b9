/// The URL's `target_session_attrs=` (else `PGTARGETSESSIONATTRS`): which server of the URL's hosts Strata
/// keeps, with libpq's meaning. The hosts are tried in order; a server that accepts the login but is not of
/// the kind asked for is left, and the next host tried.
///
/// - `any` (the default): the first server that accepts the login.
/// - `read-write`: one whose sessions are not read-only (`SHOW transaction_read_only` is `off`).
/// - `read-only`: one whose sessions are read-only.
/// - `primary`: one not in recovery (`pg_is_in_recovery()` is false).
/// - `standby`: one in recovery (a hot standby).
/// - `prefer-standby`: a standby when one of the hosts is; else, in a second pass, any.
public enum PostgresTargetSessionAttrs: String, CaseIterable, Hashable, Sendable {
    case any
    case readWrite = "read-write"
    case readOnly = "read-only"
    case primary
    case standby
    case preferStandby = "prefer-standby"
}
