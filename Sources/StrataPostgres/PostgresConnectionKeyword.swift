/// libpq's connection keywords (the URL's query parameters, a service file's keys) with their environment
/// variables, and what Strata does with each: reads it, ignores it (harmless here), or refuses it (exit 2)
/// because it cannot do what libpq would, naming why. `schema` is Strata's own (the URL's only).
struct PostgresConnectionKeyword {
    enum Use: Equatable {
        /// Strata reads the value (PostgresStoreURL).
        case read
        /// Accepted and without effect, for the reason given.
        case ignored(String)
        /// Refused (exit 2), for the reason given.
        case refused(String)
    }

    let name: String
    /// libpq's environment variable for it, if any.
    let variable: String?
    let use: Use

    static let all: [PostgresConnectionKeyword] = [
        .init("schema", nil, .read),
        .init("service", "PGSERVICE", .read),
        .init("user", "PGUSER", .read),
        .init("password", "PGPASSWORD", .read),
        .init("passfile", "PGPASSFILE", .read),
        .init("dbname", "PGDATABASE", .read),
        .init("host", "PGHOST", .read),
        .init("port", "PGPORT", .read),
        .init("connect_timeout", "PGCONNECT_TIMEOUT", .read),
        .init("options", "PGOPTIONS", .read),
        .init("sslmode", "PGSSLMODE", .read),
        .init("sslrootcert", "PGSSLROOTCERT", .read),
        .init("sslcert", "PGSSLCERT", .read),
        .init("sslkey", "PGSSLKEY", .read),
        .init("sslpassword", nil, .read),
        .init("ssl_min_protocol_version", "PGSSLMINPROTOCOLVERSION", .read),
        .init("ssl_max_protocol_version", "PGSSLMAXPROTOCOLVERSION", .read),
        .init("target_session_attrs", "PGTARGETSESSIONATTRS", .read),
        .init("load_balance_hosts", "PGLOADBALANCEHOSTS", .read),
        .init("application_name", "PGAPPNAME", .refused(
            "cannot be set: Strata names its sessions 'strata <version> pid@host', the name a run that finds the store busy quotes")),
        .init("fallback_application_name", nil, .ignored("Strata names its sessions")),
        .init("client_encoding", "PGCLIENTENCODING", .ignored("Strata always talks UTF8 to the server")),
        .init("keepalives", nil, .ignored("the system's TCP keepalive settings apply")),
        .init("keepalives_idle", nil, .ignored("the system's TCP keepalive settings apply")),
        .init("keepalives_interval", nil, .ignored("the system's TCP keepalive settings apply")),
        .init("keepalives_count", nil, .ignored("the system's TCP keepalive settings apply")),
        .init("tcp_user_timeout", nil, .ignored("the system's TCP settings apply")),
        .init("sslcompression", "PGSSLCOMPRESSION", .ignored("TLS compression is never used")),
        .init("sslsni", "PGSSLSNI", .ignored("the host name is always sent in TLS")),
        .init("krbsrvname", "PGKRBSRVNAME", .ignored("Strata does not use Kerberos")),
        .init("gsslib", "PGGSSLIB", .ignored("Strata does not use GSSAPI")),
        .init("gssdelegation", "PGGSSDELEGATION", .ignored("Strata does not use GSSAPI")),
        .init("gssencmode", "PGGSSENCMODE", .read),
        .init("channel_binding", "PGCHANNELBINDING", .read),
        .init("sslnegotiation", "PGSSLNEGOTIATION", .read),
        .init("sslcertmode", "PGSSLCERTMODE", .read),
        .init("hostaddr", "PGHOSTADDR", .refused("is not supported: Strata connects by host name or socket directory; name the address in host=")),
        .init("sslcrl", "PGSSLCRL", .refused(crlReason)),
        .init("sslcrldir", "PGSSLCRLDIR", .refused(crlReason)),
        .init("requirepeer", "PGREQUIREPEER", .refused("is not supported: the connection library Strata uses (PostgresNIO) cannot check the peer of a Unix-domain socket")),
        .init("require_auth", "PGREQUIREAUTH", .refused("is not supported: the connection library Strata uses (PostgresNIO) answers whichever authentication the server asks for and cannot be restricted")),
        .init("replication", nil, .refused("is not supported: Strata is not a replication client")),
    ]

    /// Why `sslcrl` and `sslcrldir` are refused.
    static let crlReason = "is not supported: certificate revocation lists cannot be checked: the TLS library Strata uses (swift-nio-ssl) has no CRL support"

    /// Each keyword by its name.
    static let byName: [String: PostgresConnectionKeyword] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

    /// The keywords Strata reads, for the message of an unknown one.
    static var urlParameterList: String {
        let names = all.filter { $0.use == .read }.map(\.name)
        return names.dropLast().joined(separator: ", ") + " and " + names.last!
    }

    /// The values accepted for the keywords whose value decides whether Strata can honour them, and why the
    /// others are refused: `gssencmode`, `channel_binding` and `sslnegotiation` at what Strata does anyway,
    /// `sslcertmode` at `allow` (the default) or `disable` (no client certificate is offered).
    static let acceptedValues: [String: (values: [String], refusal: String)] = [
        "gssencmode": (["disable", "prefer"], "Strata does not do GSSAPI encryption (gssencmode may be disable or prefer)"),
        "channel_binding": (["disable", "prefer"],
                            "the connection library Strata uses (PostgresNIO) does not do SCRAM channel binding (channel_binding may be disable or prefer)"),
        "sslnegotiation": (["postgres"], "Strata negotiates TLS the PostgreSQL way, not directly (sslnegotiation may be postgres)"),
        "sslcertmode": (["allow", "disable"],
                        "Strata cannot make sure the server asks for the client certificate (sslcertmode may be allow or disable)"),
    ]

    init(_ name: String, _ variable: String?, _ use: Use) {
        (self.name, self.variable, self.use) = (name, variable, use)
    }
}
