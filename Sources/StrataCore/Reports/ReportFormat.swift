/// The formats a report renders to (`--report-format`).
public enum ReportFormat: String, CaseIterable, Sendable, Codable {
    case text, json, junit, markdown, html

    public var renderer: any ReportRenderer {
        switch self {
        case .text: return TextReport()
        case .json: return JSONReport()
        case .junit: return JUnitReport()
        case .markdown: return MarkdownReport()
        case .html: return HTMLReport()
        }
    }

    /// The usual file extension of a report file.
    public var fileExtension: String {
        switch self {
        case .text: return "txt"
        case .json: return "json"
        case .junit: return "xml"
        case .markdown: return "md"
        case .html: return "html"
        }
    }
}
