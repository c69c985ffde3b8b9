import Foundation

/// The password file libpq reads (`~/.pgpass`, or `passfile=`, or `PGPASSFILE`): lines of
/// `hostname:port:database:username:password`, `*` matching anything, `\:` and `\\` escaped; the first
/// matching line wins. Like libpq, a file that the group or others can read is ignored.
///
/// A Unix-domain socket connection matches its directory as the host name, except libpq's default socket
/// directory (`/tmp` as PostgreSQL builds it, `/var/run/postgresql` as Debian's and Ubuntu's libpq do), which
/// matches `localhost` instead (libpq's `passwordFromFile`).
enum PostgresPasswordFile {
    /// The socket directories whose connections match `localhost`.
    static let defaultSocketDirectories = Set(PostgresStoreURL.defaultSocketDirectories)

    /// The password of the first line of the password file `path` matching the connection, or nil (no such
    /// line, or no such file, or a file others may read).
    static func password(host: String, port: Int, database: String, user: String, file path: String) -> String? {
        let host = defaultSocketDirectories.contains(host) ? "localhost" : host
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_mode & 0o077 == 0,
              let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return password(in: text, host: host, port: port, database: database, user: user)
    }

    /// The password of the first line matching the connection, or nil.
    static func password(in text: String, host: String, port: Int, database: String, user: String) -> String? {
        let wanted = [host, String(port), database, user]
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            let fields = split(String(line))
            guard fields.count == 5 else { continue }
            if zip(fields.prefix(4), wanted).allSatisfy({ $0 == "*" || $0 == $1 }) { return fields[4] }
        }
        return nil
    }

    /// The fields of one line: split at unescaped `:`, escapes removed.
    /// Scalar by scalar, as libpq reads bytes: a combining mark after `:` or `\` must not hide it.
    static func split(_ line: String) -> [String] {
        var fields = [String.UnicodeScalarView()]
        var escaped = false
        for scalar in line.unicodeScalars {
            if escaped {
                fields[fields.count - 1].append(scalar)
                escaped = false
            } else if scalar == "\\" {
                escaped = true
            } else if scalar == ":" && fields.count < 5 {
                fields.append(String.UnicodeScalarView())
            } else {
                fields[fields.count - 1].append(scalar)
            }
        }
        return fields.map(String.init)
    }
}
