import Foundation

/// libpq's connection service file: `service=NAME` in the URL (else `PGSERVICE`) takes the connection
/// keywords of section `[NAME]` of `PGSERVICEFILE` (default `~/.pg_service.conf`) or, when that file has no
/// such section, of `PGSYSCONFDIR/pg_service.conf` (default `/etc/postgresql-common/pg_service.conf`, Debian's
/// libpq's system directory). Lines are `KEY=VALUE` (as libpq, no spaces around `=`), `#` starts a comment
/// line, and the first line of a key wins.
///
/// ```text
/// # ~/.pg_service.conf
/// [shop]
/// host=db-1,db-2
/// dbname=shop
/// target_session_attrs=read-write
/// ```
enum PostgresServiceFile {
    /// One value of the service, where it was read.
    struct Entry: Equatable {
        let value: String
        let file: String
        let line: Int
    }

    /// Why the service cannot be used (exit 2).
    struct Failure: Error, Equatable {
        let reason: String
    }

    /// The files searched for a service, in order.
    static func files(environment: [String: String]) -> [String] {
        let env = { (name: String) in PostgresStoreURL.variable(name, in: environment) }
        let user = env("PGSERVICEFILE") ?? env("HOME").map { $0 + "/.pg_service.conf" }
        return (user.map { [$0] } ?? []) + [(env("PGSYSCONFDIR") ?? "/etc/postgresql-common") + "/pg_service.conf"]
    }

    /// The keywords of `service`, from the first of ``files(environment:)`` that defines it.
    /// - Throws: ``Failure`` when no file defines it (naming the files looked in), or a line of its section is
    ///   not `KEY=VALUE`, names a key libpq does not know, or names another service (naming file and line).
    static func settings(of service: String, environment: [String: String]) throws(Failure) -> [String: Entry] {
        let files = files(environment: environment)
        for file in files {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { continue }
            if let found = try settings(of: service, in: text, file: file) { return found }
        }
        throw Failure(reason: "service '\(service)' is not defined in " + files.map { "'\($0)'" }.joined(separator: " or "))
    }

    /// The keywords of section `[service]` of `text`, or nil when it has no such section.
    static func settings(of service: String, in text: String, file: String) throws(Failure) -> [String: Entry]? {
        var found: [String: Entry]?
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.drop { $0 == " " || $0 == "\t" }.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("[") {
                if found != nil { break }
                if line == "[\(service)]" { found = [:] }
                continue
            }
            guard found != nil else { continue }
            let place = "'\(file)' line \(index + 1)"
            guard let equals = line.firstIndex(of: "=") else {
                throw Failure(reason: "\(place): '\(line)' is not KEY=VALUE (service '\(service)')")
            }
            let key = String(line[..<equals]), value = String(line[line.index(after: equals)...])
            if key == "service" { throw Failure(reason: "\(place): a service cannot name another service (service '\(service)')") }
            guard key != "schema", PostgresConnectionKeyword.byName[key] != nil else {
                throw Failure(reason: "\(place): unknown key '\(key)' in service '\(service)'")
            }
            if found?[key] == nil { found?[key] = Entry(value: value, file: file, line: index + 1) }
        }
        return found
    }
}
