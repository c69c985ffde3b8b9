import Foundation

/// Writes a large Xcode model bundle: `versions` versions of `entities` entities, each version adding one
/// attribute and every tenth renaming one (through Xcode's `elementID`), as a long-lived app's model grows.
enum CoreDataBundleGenerator {
    static func write(versions: Int, entities: Int, into directory: String) throws -> String {
        let path = directory + "/Big.xcdatamodeld"
        for v in 1...versions {
            let folder = path + "/Big \(v).xcdatamodel"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try xml(version: v, entities: entities).write(toFile: folder + "/contents", atomically: false, encoding: .utf8)
        }
        try """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>Big \(versions).xcdatamodel</string></dict></plist>
            """.write(toFile: path + "/.xccurrentversion", atomically: false, encoding: .utf8)
        return path
    }

    static func xml(version v: Int, entities: Int) -> String {
        var out = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22522" systemVersion="23A344" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">

            """
        for e in 0..<entities {
            let next = (e + 1) % entities
            out += "    <entity name=\"Entity\(e)\" representedClassName=\"Entity\(e)\" syncable=\"YES\" codeGenerationType=\"class\">\n"
            // Renamed at version 10, 20, …: title → title10 → title20 (elementID keeps the old name).
            let titleName = v >= 10 && e == 0 ? "title\(v / 10 * 10)" : "title"
            let titleID = titleName == "title" ? "" : " elementID=\"title\""
            out += "        <attribute name=\"\(titleName)\" attributeType=\"String\" defaultValueString=\"Untitled\"\(titleID)/>\n"
            out += "        <attribute name=\"count\" optional=\"YES\" attributeType=\"Integer 64\" defaultValueString=\"0\" usesScalarValueType=\"YES\"/>\n"
            out += "        <attribute name=\"created\" optional=\"YES\" attributeType=\"Date\" defaultDateTimeInterval=\"700000000\" usesScalarValueType=\"NO\"/>\n"
            out += "        <attribute name=\"flag\" attributeType=\"Boolean\" defaultValueString=\"NO\" usesScalarValueType=\"YES\"/>\n"
            out += "        <attribute name=\"id\" optional=\"YES\" attributeType=\"UUID\" usesScalarValueType=\"NO\"/>\n"
            out += "        <attribute name=\"price\" optional=\"YES\" attributeType=\"Decimal\" defaultValueString=\"0.0\"/>\n"
            out += "        <attribute name=\"score\" optional=\"YES\" attributeType=\"Double\" minValueString=\"0\" maxValueString=\"100\" usesScalarValueType=\"YES\"/>\n"
            for added in stride(from: e + 1, through: v, by: entities) {
                out += "        <attribute name=\"extra\(added)\" optional=\"YES\" attributeType=\"String\"/>\n"
            }
            out += "        <relationship name=\"next\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Nullify\" destinationEntity=\"Entity\(next)\" inverseName=\"previous\" inverseEntity=\"Entity\(next)\"/>\n"
            let previous = (e + entities - 1) % entities
            out += "        <relationship name=\"previous\" optional=\"YES\" toMany=\"YES\" deletionRule=\"Cascade\" destinationEntity=\"Entity\(previous)\" inverseName=\"next\" inverseEntity=\"Entity\(previous)\"/>\n"
            out += "        <fetchIndex name=\"byCount\">\n            <fetchIndexElement property=\"count\" type=\"Binary\" order=\"ascending\"/>\n        </fetchIndex>\n"
            out += "    </entity>\n"
        }
        return out + "</model>\n"
    }
}
