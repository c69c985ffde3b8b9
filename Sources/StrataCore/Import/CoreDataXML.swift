import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// One element of a Core Data model's XML (`<entity>`, `<attribute>`, …) with where it starts.
struct XMLNode: Sendable {
    var name: String
    var attributes: [String: String]
    var children: [XMLNode] = []
    /// Text content (entities and CDATA resolved), kept only when the parse asks for it.
    var text = ""
    var line: Int
    var column: Int

    subscript(_ key: String) -> String? { attributes[key] }

    /// `YES`/`NO` (and the `true`/`false`/`1`/`0` some tools write); nil when absent or unreadable.
    func flag(_ key: String) -> Bool? {
        guard let text = attributes[key]?.trimmingCharacters(in: .whitespaces).lowercased() else { return nil }
        switch text {
        case "yes", "true", "1": return true
        case "no", "false", "0": return false
        default: return nil
        }
    }
}

/// Reads a model's `contents` file (or a mapping model's `xcmapping.xml`) into a tree of `XMLNode`s (entities
/// and CDATA resolved by the parser). Malformed XML is an error at `file:line:column`.
enum CoreDataXML {
    /// - Parameters:
    ///   - keepingText: keep elements' text content (the mapping format stores values as text; the model format does not).
    ///   - what: the kind of file, for the error message (`model`, `mapping model`).
    static func parse(_ data: Data, file: String, keepingText: Bool = false, what: String = "model") throws(DiagnosticList) -> XMLNode {
        let parser = XMLParser(data: data)
        let builder = TreeBuilder()
        builder.keepsText = keepingText
        parser.delegate = builder
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        let ok = parser.parse()
        if !ok || builder.error != nil {
            let (line, column, message) = builder.error
                ?? (max(parser.lineNumber, 1), max(parser.columnNumber, 1), parser.parserError.map(describe) ?? "unreadable XML")
            throw DiagnosticList([.error("malformed \(what) XML: \(message)", at: SourceLocation(file: file, line: line, column: column),
                                         hint: "open the model in Xcode and save it again, or fix the XML by hand")])
        }
        guard let root = builder.root else {
            throw DiagnosticList([.error("the \(what) XML has no root element", at: SourceLocation(file: file, line: 1, column: 1))])
        }
        return root
    }

    /// Where the element whose start tag the parser reported at `line`:`column` begins (its `<`). The parser gives
    /// a position inside or at the end of the start tag (`<entity name="A"/>` is reported at its `/`), so a refusal
    /// located at the element points at its `<` instead: the start tag is searched backwards, across lines (an
    /// attribute value cannot hold a `<`). Positions outside `data` come back unchanged.
    static func elementStart(in data: Data, line: Int, column: Int) -> (line: Int, column: Int) {
        let bytes = [UInt8](data)
        var starts = [0]
        for (i, b) in bytes.enumerated() where b == UInt8(ascii: "\n") { starts.append(i + 1) }
        guard line >= 1, line <= starts.count else { return (line, column) }
        var offset = min(starts[line - 1] + max(column - 1, 0), bytes.count - 1)
        while offset >= 0, bytes[offset] != UInt8(ascii: "<") { offset -= 1 }
        guard offset >= 0 else { return (line, column) }
        let startLine = starts.lastIndex { $0 <= offset }!
        let prefix = bytes[starts[startLine]..<offset]
        return (startLine + 1, String(decoding: prefix, as: UTF8.self).count + 1)
    }

    /// The parser's error codes (libxml2's) in words.
    static func describe(_ error: Error) -> String {
        let code = (error as NSError).code
        let known: [Int: String] = [
            4: "the document is empty", 5: "extra content after the end of the document, or the document ends too early",
            9: "invalid character", 23: "an entity reference is missing its ';'", 26: "undeclared entity (only &amp; &lt; &gt; &quot; &apos; and &#N; are defined)",
            34: "a quoted string is not closed", 38: "'<' inside an attribute value", 39: "an attribute value must start with a quote",
            40: "an attribute value is not closed", 41: "an attribute has no value", 42: "an attribute is given twice",
            45: "a comment is not closed", 63: "a CDATA section is not closed", 65: "a space is required here",
            68: "a name is required here", 73: "'>' is required here", 75: "'=' is required after an attribute name",
            76: "the end tag does not match its start tag", 77: "an element is not closed",
        ]
        return known[code] ?? "XML error \(code)"
    }

    /// The model format nests at most 4 levels below `<model>` (entity, fetchedProperty, fetchRequest; entity,
    /// uniquenessConstraints, uniquenessConstraint, constraint): deeper elements are not kept, so a hostile
    /// file cannot build a tree deep enough to overflow the stack when it is released.
    static let maximumDepth = 8

    /// Collects elements into a tree, with their text when `keepsText`.
    final class TreeBuilder: NSObject, XMLParserDelegate {
        var keepsText = false
        var stack: [XMLNode] = []
        var root: XMLNode?
        var error: (Int, Int, String)?
        /// Open elements below `maximumDepth`, not kept.
        var ignored = 0

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
            guard stack.count < CoreDataXML.maximumDepth, ignored == 0 else { ignored += 1; return }
            stack.append(XMLNode(name: elementName, attributes: attributeDict,
                                 line: max(parser.lineNumber, 1), column: max(parser.columnNumber, 1)))
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
            if ignored > 0 { ignored -= 1; return }
            guard let node = stack.popLast() else { return }
            if stack.isEmpty { root = node } else { stack[stack.count - 1].children.append(node) }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard keepsText, ignored == 0, !stack.isEmpty else { return }
            stack[stack.count - 1].text += string
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
            guard keepsText, ignored == 0, !stack.isEmpty else { return }
            stack[stack.count - 1].text += String(decoding: CDATABlock, as: UTF8.self)
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
            if error == nil {
                error = (max(parser.lineNumber, 1), max(parser.columnNumber, 1), CoreDataXML.describe(parseError))
            }
        }

        func parser(_ parser: XMLParser, validationErrorOccurred validationError: Error) {
            parseErrorOccurred(parser, validationError)
        }

        private func parseErrorOccurred(_ parser: XMLParser, _ e: Error) { self.parser(parser, parseErrorOccurred: e) }
    }
}
