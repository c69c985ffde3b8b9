import Foundation

extension PostgresStoreURL {
    /// The hosts and ports to try, as libpq pairs them: `host` and `port` are comma-separated lists; one port
    /// applies to every host, else there is one port per host. An empty host is libpq's default socket
    /// directory (``defaultSocketDirectories``, each tried); an empty port is 5432; no `host` at all is one
    /// empty host, no `port` one empty port. An IPv6 address may be written in brackets.
    /// - Throws: `PostgresStoreError.invalidURL` (exit 2) when the counts do not match, a port is not a
    ///   number between 1 and 65535, or a socket path is longer than the system takes.
    static func endpoints(host: Given?, port: Given?, invalid: (String) -> PostgresStoreError) throws(PostgresStoreError) -> [(String, Int)] {
        func list(_ given: Given?) -> [String] {
            given.map { $0.value.split(separator: ",", omittingEmptySubsequences: false).map(String.init) } ?? [""]
        }
        let hosts = list(host), portTexts = list(port)
        guard portTexts.count == 1 || portTexts.count == hosts.count else {
            throw invalid("it names \(hosts.count) hosts (\(host?.quoted ?? "")) and \(portTexts.count) ports (\(port?.quoted ?? "")): "
                          + "give one port for all hosts, or one port for each host")
        }
        var ports: [Int] = []
        for text in portTexts {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty {
                ports.append(5432)
            } else if let number = Int(trimmed), (1...65535).contains(number) {
                ports.append(number)
            } else if let port, port.source == .authority {
                throw invalid(Int(trimmed) != nil ? "port \(trimmed) is not between 1 and 65535"
                              : "port '\(text)' is not a number between 1 and 65535")
            } else {
                let given = port!
                throw invalid(portTexts.count == 1 ? "\(given.quoted) is not a port between 1 and 65535"
                              : "\(given.quoted): '\(text)' is not a port between 1 and 65535")
            }
        }
        var endpoints: [(String, Int)] = []
        for (index, name) in hosts.enumerated() {
            let port = ports[portTexts.count == 1 ? 0 : index]
            let unbracketed = name.hasPrefix("[") && name.hasSuffix("]") ? String(name.dropFirst().dropLast()) : name
            for host in unbracketed.isEmpty ? defaultSocketDirectories : [unbracketed] {
                if host.hasPrefix("/") {
                    let socket = socketPath(directory: host, port: port)
                    guard socket.utf8.count <= maximumSocketPathBytes else {
                        throw invalid("the Unix-domain socket path '\(socket)' is longer than \(maximumSocketPathBytes) bytes, the most the system takes")
                    }
                }
                endpoints.append((host, port))
            }
        }
        return endpoints
    }
}
