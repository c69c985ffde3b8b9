extension PostgresStoreURL {
    /// One connection keyword's value and where it was given, for messages that name it.
    struct Given: Equatable {
        enum Source: Equatable {
            /// The URL's user information, hosts and ports, or path.
            case authority
            /// The URL's query (`?keyword=value`).
            case query
            /// The service file's section `service`, at `file` line `line`.
            case service(name: String, file: String, line: Int)
            /// libpq's environment variable.
            case environment(String)
        }

        let keyword: String
        let value: String
        let source: Source

        /// How messages name the keyword: `port=`, `PGPORT`, `port= (service 'shop', 'FILE' line 3)`.
        var label: String {
            switch source {
            case .authority, .query: "\(keyword)="
            case .environment(let variable): variable
            case .service(let name, let file, let line): "\(keyword)= (service '\(name)', '\(file)' line \(line))"
            }
        }

        /// The keyword and its value for messages: `port='x'`, `PGPORT='x'`, `port='x' (service …)`.
        var quoted: String {
            switch source {
            case .authority, .query: "\(keyword)='\(value)'"
            case .environment(let variable): "\(variable)='\(value)'"
            case .service(let name, let file, let line): "\(keyword)='\(value)' (service '\(name)', '\(file)' line \(line))"
            }
        }
    }

    /// The environment variable `name`, or nil when it is unset or empty (libpq counts an empty one as unset).
    static func variable(_ name: String, in environment: [String: String]) -> String? {
        environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Every connection keyword given, with libpq's precedence: the URL (its query over its authority and
    /// path), then the service's section (`service=`, else `PGSERVICE`), then the environment. Keywords Strata
    /// ignores are dropped; `application_name` is refused in the URL and not read from elsewhere.
    /// - Throws: `PostgresStoreError.invalidURL` (exit 2) for an unknown query parameter, an empty value, a
    ///   service that cannot be read, a keyword Strata refuses, or a value of one it cannot honour.
    static func given(_ parts: PostgresURLText, environment: [String: String],
                      invalid: (String) -> PostgresStoreError) throws(PostgresStoreError) -> [String: Given] {
        let env = { (name: String) in variable(name, in: environment) }
        var given: [String: Given] = [:]
        for (keyword, value) in [("user", parts.user), ("password", parts.password), ("host", parts.hosts),
                                 ("port", parts.ports), ("dbname", parts.database)] {
            if let value { given[keyword] = Given(keyword: keyword, value: value, source: .authority) }
        }
        for (spelled, written) in parts.query {
            // libpq's JDBC spelling: `ssl=true` is `sslmode=require`.
            let (name, value) = spelled == "ssl" && written == "true" ? ("sslmode", "require") : (spelled, written)
            guard let keyword = PostgresConnectionKeyword.byName[name] else {
                throw invalid("unknown parameter '\(name)' (the parameters are " + PostgresConnectionKeyword.urlParameterList + ")")
            }
            if value.isEmpty && keyword.use == .read && name != "sslmode" {   // an empty sslmode is refused with the valid ones
                throw invalid("\(name)= names no \(emptyNames[name] ?? "value")")
            }
            given[name] = Given(keyword: name, value: value, source: .query)
        }
        if let service = given["service"] ?? env("PGSERVICE").map({ Given(keyword: "service", value: $0, source: .environment("PGSERVICE")) }) {
            let entries: [String: PostgresServiceFile.Entry]
            do {
                entries = try PostgresServiceFile.settings(of: service.value, environment: environment)
            } catch {
                throw invalid(error.reason)
            }
            for (keyword, entry) in entries where given[keyword] == nil && !entry.value.isEmpty {
                given[keyword] = Given(keyword: keyword, value: entry.value, source: .service(name: service.value, file: entry.file, line: entry.line))
            }
        }
        for keyword in PostgresConnectionKeyword.all where given[keyword.name] == nil {
            if let variable = keyword.variable, let value = env(variable) {
                given[keyword.name] = Given(keyword: keyword.name, value: value, source: .environment(variable))
            }
        }
        for keyword in PostgresConnectionKeyword.all {
            guard let value = given[keyword.name] else { continue }
            switch keyword.use {
            case .read:
                if let accepted = PostgresConnectionKeyword.acceptedValues[keyword.name], !accepted.values.contains(value.value) {
                    throw invalid("\(value.quoted) is not supported: \(accepted.refusal)")
                }
            case .ignored:
                given[keyword.name] = nil
            case .refused(let reason):
                if keyword.name == "application_name" && value.source != .query {
                    given[keyword.name] = nil   // PGAPPNAME and a service's name are not read: Strata names its sessions
                } else {
                    throw invalid("\(value.label) \(reason)")
                }
            }
        }
        return given
    }

    /// What an empty query parameter names no (`schema= names no schema`).
    static let emptyNames = [
        "schema": "schema", "host": "host", "port": "port", "user": "user", "password": "password", "dbname": "database",
        "service": "service", "connect_timeout": "number of seconds", "sslrootcert": "file", "sslcert": "file", "sslkey": "file",
        "passfile": "file",
    ]
}
