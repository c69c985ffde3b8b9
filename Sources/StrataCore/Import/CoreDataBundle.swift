import Foundation

/// The versions of an Xcode model bundle (`.xcdatamodeld` with `<name>.xcdatamodel/contents` per version, or a
/// single `.xcdatamodel`) and the Strata version number of each (SPEC §12).
struct CoreDataBundle {
    struct Version: Sendable {
        var name: String
        var folder: String
        var number: Int
    }

    var path: String
    var versions: [Version]
    /// The bundle's name without `.xcdatamodeld` (`Model`), from its resolved path: what the model paths a mapping
    /// model records name it by.
    var name = ""
    /// The `.xcmappingmodel` folders inside the bundle and beside it (where Xcode creates them).
    var mappingModels: [String] = []

    static func open(path rawPath: String, orderFile: String?) throws(DiagnosticList) -> CoreDataBundle {
        let fm = FileManager.default
        let path = tidy(rawPath)
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: path, isDirectory: &isDirectory), let real = PathText.resolved(path) else {
            throw DiagnosticList([.error("'\(path)' does not exist", hint: "pass the .xcdatamodeld bundle (or one .xcdatamodel) of your Xcode project")])
        }
        // Names come from the resolved path: `.` inside `App/Model.xcdatamodeld` is the bundle `Model.xcdatamodeld`.
        let name = real.split(separator: "/").last.map(String.init) ?? "/"
        if !isDirectory.boolValue {
            // A `contents` file given directly: one version named after its folder.
            let folderName = real.split(separator: "/").dropLast().last.map(String.init) ?? ""
            let version = stem(name == "contents" ? folderName : name)
            return CoreDataBundle(path: path, versions: [Version(name: version, folder: path, number: trailingNumber(version) ?? 1)])
        }
        if name.hasSuffix(".xcdatamodel") || fm.fileExists(atPath: path + "/contents") {
            let version = stem(name)
            return CoreDataBundle(path: path, versions: [Version(name: version, folder: path, number: trailingNumber(version) ?? 1)])
        }
        let items = folders(in: path)
        var bundle = CoreDataBundle(path: path, versions: [], name: stem(name))
        // Mapping models sit inside the bundle or, as Xcode creates them, beside it (not twice when the bundle is `/`).
        var places = [(path, items)]
        if let parent = parent(of: path), PathText.resolved(parent) != real { places.append((parent, folders(in: parent))) }
        for (folder, list) in places {
            bundle.mappingModels += list.filter { $0.hasSuffix(".xcmappingmodel") }.map { folder + "/" + $0 }
        }
        let names = items.filter { $0.hasSuffix(".xcdatamodel") }.map(stem)
        guard !names.isEmpty else {
            throw DiagnosticList([.error("'\(path)' holds no model versions (*.xcdatamodel)",
                                         hint: "pass the .xcdatamodeld bundle (or one .xcdatamodel) of your Xcode project")])
        }
        let numbers: [String: Int]
        if let orderFile { numbers = try order(file: orderFile, names: names) } else { numbers = try trailingNumbers(names) }
        bundle.versions = names.map { Version(name: $0, folder: path + "/" + $0 + ".xcdatamodel", number: numbers[$0]!) }
            .sorted { $0.number < $1.number }
        try bundle.checkCurrentVersion(usingOrder: orderFile != nil)
        return bundle
    }

    /// `path` without empty and `.` components (`M.xcdatamodeld/.` and `M.xcdatamodeld//` are `M.xcdatamodeld`,
    /// `./` is `.`). `..` is kept: after a symbolic link it is not the folder the text names.
    static func tidy(_ path: String) -> String {
        guard !path.isEmpty else { return path }
        let joined = path.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
        return path.hasPrefix("/") ? "/" + joined : joined.isEmpty ? "." : joined
    }

    /// The folder holding a tidy `path`, spelled from it (`..` beside `.` and `..`); nil for `/`.
    static func parent(of path: String) -> String? {
        let parts = path.split(separator: "/")
        if path == "." || parts.last == ".." { return path == "." ? ".." : path + "/.." }
        if parts.count > 1 { return (path.hasPrefix("/") ? "/" : "") + parts.dropLast().joined(separator: "/") }
        return parts.isEmpty ? nil : path.hasPrefix("/") ? "/" : "."
    }

    /// The folders in `path`, in Finder's order. Plain files (the `._Model 2.xcdatamodel` AppleDouble files that
    /// macOS archives carry) and `._` names are not versions or mapping models.
    static func folders(in path: String) -> [String] {
        let fm = FileManager.default
        return ((try? fm.contentsOfDirectory(atPath: path)) ?? []).filter { item in
            var isDirectory: ObjCBool = false
            return !item.hasPrefix("._") && fm.fileExists(atPath: path + "/" + item, isDirectory: &isDirectory) && isDirectory.boolValue
        }.sorted { $0.localizedStandardCompare($1) == .orderedAscending }
    }

    /// `Model 12` → 12; a name without a trailing number is version 1. Collisions and 0 are errors.
    static func trailingNumbers(_ names: [String]) throws(DiagnosticList) -> [String: Int] {
        var numbers: [String: Int] = [:]
        var byNumber: [Int: [String]] = [:]
        var diagnostics: [Diagnostic] = []
        for name in names {
            let digits = String(name.reversed().prefix { $0.isASCIIDigit }.reversed())
            guard digits.isEmpty || Int(digits).map({ $0 >= 1 }) == true else {
                diagnostics.append(.error("version '\(name)' has no usable number (\(digits.count > 18 ? "too large" : "0"))",
                                          hint: "pass --order FILE listing the version names, oldest first"))
                continue
            }
            let n = Int(digits) ?? 1
            numbers[name] = n
            byNumber[n, default: []].append(name)
        }
        for (n, list) in byNumber.sorted(by: { $0.key < $1.key }) where list.count > 1 {
            diagnostics.append(.error("versions \(list.sorted().map { "'\($0)'" }.joined(separator: ", ")) would all be version \(n)",
                                      hint: "pass --order FILE listing the version names, oldest first (one per line)"))
        }
        if !diagnostics.isEmpty { throw DiagnosticList(diagnostics) }
        return numbers
    }

    static func trailingNumber(_ name: String) -> Int? {
        let digits = String(name.reversed().prefix { $0.isASCIIDigit }.reversed())
        return Int(digits).flatMap { $0 >= 1 ? $0 : nil }
    }

    /// `--order FILE`: version names, oldest first, one per line (`#` comments and blank lines ignored). Lines end
    /// in `\n`, `\r\n` (a file saved on Windows) or `\r`.
    static func order(file: String, names: [String]) throws(DiagnosticList) -> [String: Int] {
        guard let data = FileManager.default.contents(atPath: file), let decoded = String(data: data, encoding: .utf8) else {
            throw DiagnosticList([.error("cannot read the order file '\(file)'", hint: "pass a text file with one version name per line")])
        }
        let text = decoded.hasPrefix("\u{FEFF}") ? String(decoded.dropFirst()) : decoded   // the byte-order mark Notepad writes
        let known = Set(names)
        var numbers: [String: Int] = [:]
        var diagnostics: [Diagnostic] = []
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: isLineBreak).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            let name = stem(line)
            let at = SourceLocation(file: file, line: index + 1, column: 1)
            if !known.contains(name) {
                diagnostics.append(Diagnostic(.error, "'\(name)' is not a version of the bundle", at: at,
                                              hint: NameSuggestion.hint(for: name, in: names) ?? "versions: \(names.joined(separator: ", "))")
                    .withSource(text))
            } else if numbers[name] != nil {
                diagnostics.append(Diagnostic(.error, "'\(name)' is listed twice", at: at, hint: "list each version once").withSource(text))
            } else {
                numbers[name] = numbers.count + 1
            }
        }
        let missing = names.filter { numbers[$0] == nil }
        if !missing.isEmpty && diagnostics.isEmpty {
            diagnostics.append(.error("the order file does not list \(missing.map { "'\($0)'" }.joined(separator: ", "))",
                                      at: SourceLocation(file: file, line: 1, column: 1), hint: "list every version of the bundle, oldest first"))
        }
        if !diagnostics.isEmpty { throw DiagnosticList(diagnostics) }
        return numbers
    }

    /// `.xccurrentversion` (a plist naming `_XCCurrentVersionName`) must name the newest version.
    func checkCurrentVersion(usingOrder: Bool) throws(DiagnosticList) {
        let file = path + "/.xccurrentversion"
        guard let data = FileManager.default.contents(atPath: file) else { return }
        let plist = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        guard let current = (plist as? [String: Any])?["_XCCurrentVersionName"] as? String else {
            throw DiagnosticList([.error("cannot read _XCCurrentVersionName from the property list",
                                         at: SourceLocation(file: file, line: 1, column: 1),
                                         hint: "Xcode writes it when you pick the current model version")])
        }
        let name = Self.stem(current)
        let at = SourceLocation(file: file, line: Self.line(of: current, in: data), column: 1)
        guard let version = versions.first(where: { $0.name == name }) else {
            throw DiagnosticList([.error("the current version '\(name)' is not in the bundle", at: at,
                                         hint: "versions: \(versions.map(\.name).joined(separator: ", "))")])
        }
        guard let newest = versions.last, version.number == newest.number else {
            let listing = versions.map { "'\($0.name)' = \($0.number)" }.joined(separator: ", ")
            throw DiagnosticList([.error("the current version '\(name)' (\(version.number)) is not the newest (\(listing))", at: at,
                                         hint: usingOrder ? "list '\(name)' last in the order file"
                                                          : "pass --order FILE listing the version names, oldest first")])
        }
    }

    static func line(of text: String, in data: Data) -> Int {
        let content = String(decoding: data, as: UTF8.self)
        guard let range = content.range(of: text) else { return 1 }
        return content[..<range.lowerBound].reduce(1) { isLineBreak($1) ? $0 + 1 : $0 }
    }

    /// `\r\n` is one `Character`, so splitting at `"\n"` alone keeps a Windows file on one line.
    static func isLineBreak(_ c: Character) -> Bool { c == "\n" || c == "\r\n" || c == "\r" }

    /// `Model 2.xcdatamodel` → `Model 2`.
    static func stem(_ name: String) -> String {
        for suffix in [".xcdatamodeld", ".xcdatamodel"] where name.hasSuffix(suffix) { return String(name.dropLast(suffix.count)) }
        return name
    }
}
