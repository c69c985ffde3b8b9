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
    /// The `.xcmappingmodel` folders inside the bundle and beside it (where Xcode creates them).
    var mappingModels: [String] = []

    static func open(path rawPath: String, orderFile: String?) throws(DiagnosticList) -> CoreDataBundle {
        let fm = FileManager.default
        let path = rawPath.count > 1 && rawPath.hasSuffix("/") ? String(rawPath.dropLast()) : rawPath
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw DiagnosticList([.error("'\(path)' does not exist", hint: "pass the .xcdatamodeld bundle (or one .xcdatamodel) of your Xcode project")])
        }
        let url = URL(fileURLWithPath: path)
        if !isDirectory.boolValue {
            // A `contents` file given directly: one version named after its folder.
            let folder = url.deletingLastPathComponent().path
            let name = url.lastPathComponent == "contents" ? stem(url.deletingLastPathComponent().lastPathComponent) : stem(url.lastPathComponent)
            return CoreDataBundle(path: path, versions: [Version(name: name, folder: folder, number: trailingNumber(name) ?? 1)])
        }
        if url.pathExtension == "xcdatamodel" || fm.fileExists(atPath: path + "/contents") {
            let name = stem(url.lastPathComponent)
            return CoreDataBundle(path: path, versions: [Version(name: name, folder: path, number: trailingNumber(name) ?? 1)])
        }
        let items = ((try? fm.contentsOfDirectory(atPath: path)) ?? []).sorted { $0.localizedStandardCompare($1) == .orderedAscending }
        var bundle = CoreDataBundle(path: path, versions: [])
        // Mapping models sit inside the bundle or, as Xcode creates them, beside it.
        let parent = (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent
        let siblings = ((try? fm.contentsOfDirectory(atPath: parent)) ?? []).sorted { $0.localizedStandardCompare($1) == .orderedAscending }
        for (folder, list) in [(path, items), (parent, siblings)] {
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

    /// `--order FILE`: version names, oldest first, one per line (`#` comments and blank lines ignored).
    static func order(file: String, names: [String]) throws(DiagnosticList) -> [String: Int] {
        guard let data = FileManager.default.contents(atPath: file), let text = String(data: data, encoding: .utf8) else {
            throw DiagnosticList([.error("cannot read the order file '\(file)'", hint: "pass a text file with one version name per line")])
        }
        let known = Set(names)
        var numbers: [String: Int] = [:]
        var diagnostics: [Diagnostic] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
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
        return content[..<range.lowerBound].reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
    }

    /// `Model 2.xcdatamodel` → `Model 2`.
    static func stem(_ name: String) -> String {
        for suffix in [".xcdatamodeld", ".xcdatamodel"] where name.hasSuffix(suffix) { return String(name.dropLast(suffix.count)) }
        return name
    }
}
