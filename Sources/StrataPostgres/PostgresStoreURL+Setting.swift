extension PostgresStoreURL {
    /// One server setting of the URL's `options=` (else the service's, else `PGOPTIONS`), libpq's list of
    /// `-c NAME=VALUE` and `--NAME=VALUE` (a backslash escapes the next character, a space for instance).
    /// Strata sends them in the startup packet as libpq does, so they hold from the login on; Strata's own
    /// `application_name`, `search_path` (set after the login) and `lock_timeout` (set in each transaction)
    /// take their place.
    public struct Setting: Hashable, Sendable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            (self.name, self.value) = (name, value)
        }

        /// The settings of an `options` text.
        /// - Throws: the reason the text is malformed: a word that is not `-c`, `-cNAME=VALUE` or
        ///   `--NAME=VALUE`, a `-c` without a setting after it, a setting without `=` or without a name.
        static func settings(of text: String) throws(Malformed) -> [Setting] {
            var words: [String] = []
            var word: String?
            var escaped = false
            for scalar in text.unicodeScalars {   // by scalar: a combining mark after `\` must not hide it
                if escaped {
                    word = (word ?? "") + String(scalar)
                    escaped = false
                } else if scalar == "\\" {
                    escaped = true
                    word = word ?? ""
                } else if scalar.properties.isWhitespace {
                    if let done = word { words.append(done) }
                    word = nil
                } else {
                    word = (word ?? "") + String(scalar)
                }
            }
            if let done = word { words.append(done) }
            var settings: [Setting] = []
            var index = 0
            while index < words.count {
                let word = words[index]
                let setting: String
                if word == "-c" {
                    guard index + 1 < words.count else { throw Malformed(reason: "'-c' is not followed by NAME=VALUE") }
                    index += 1
                    setting = words[index]
                } else if word.hasPrefix("--") {
                    setting = String(word.dropFirst(2))
                } else if word.hasPrefix("-c") {
                    setting = String(word.dropFirst(2))
                } else {
                    throw Malformed(reason: "'\(word)' is not -c NAME=VALUE or --NAME=VALUE (the only switches Strata passes on)")
                }
                guard let equals = setting.firstIndex(of: "="), equals != setting.startIndex else {
                    throw Malformed(reason: "'\(setting)' is not NAME=VALUE")
                }
                // As the server reads a long option: dashes in the name are underscores.
                let name = setting[..<equals].replacingOccurrences(of: "-", with: "_")
                settings.append(Setting(name: name, value: String(setting[setting.index(after: equals)...])))
                index += 1
            }
            return settings
        }

        /// `settings` as libpq's options text: `-c NAME=VALUE` each, backslashes and white space escaped.
        static func optionsText(_ settings: [Setting]) -> String {
            settings.map { setting in
                var escaped = ""
                for character in setting.name + "=" + setting.value {
                    if character == "\\" || character.isWhitespace { escaped.append("\\") }
                    escaped.append(character)
                }
                return "-c " + escaped
            }.joined(separator: " ")
        }

        /// Why an `options` text cannot be read.
        struct Malformed: Error, Equatable {
            let reason: String
        }
    }
}
