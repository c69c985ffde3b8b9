import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// One element of a Core Data model's XML (`<entity>`, `<attribute>`, …) with where it starts.
struct XMLNode: Sendable {
    var name: String
    var attributes: [String: String]
    var children: [XMLNode] = []
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

/// Reads a model's `contents` file into a tree of `XMLNode`s (entities and CDATA resolved by the parser).
/// Malformed XML is an error at `file:line:column`.
enum CoreDataXML {
    static func parse(_ data: Data, file: String) throws(DiagnosticList) -> XMLNode {
        let parser = XMLParser(data: data)
        let builder = TreeBuilder()
        parser.delegate = builder
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        let ok = parser.parse()
        if !ok || builder.error != nil {
            let (line, column, message) = builder.error
                ?? (max(parser.lineNumber, 1), max(parser.columnNumber, 1), parser.parserError.map(describe) ?? "unreadable XML")
            throw DiagnosticList([.error("malformed model XML: \(message)", at: SourceLocation(file: file, line: line, column: column),
                                         hint: "open the model in Xcode and save it again, or fix the XML by hand")])
        }
        guard let root = builder.root else {
            throw DiagnosticList([.error("the model XML has no root element", at: SourceLocation(file: file, line: 1, column: 1))])
        }
        return root
    }

    static func describe(_ error: Error) -> String {
        let text = (error as NSError).localizedDescription
        return text.isEmpty ? "XML error \((error as NSError).code)" : text
    }

    /// Collects elements into a tree; text content is not used by the model format.
    final class TreeBuilder: NSObject, XMLParserDelegate {
        var stack: [XMLNode] = []
        var root: XMLNode?
        var error: (Int, Int, String)?

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
            stack.append(XMLNode(name: elementName, attributes: attributeDict,
                                 line: max(parser.lineNumber, 1), column: max(parser.columnNumber, 1)))
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
            guard let node = stack.popLast() else { return }
            if stack.isEmpty { root = node } else { stack[stack.count - 1].children.append(node) }
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
