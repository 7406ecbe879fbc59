/// A report format, with the file name `ReportWriter` gives it.
public enum ReportFormat: String, Sendable, Hashable, Codable, CaseIterable {
    /// The versioned JSON report, `report.json`.
    case json
    /// The Markdown reports: the summary for a pull-request comment, `report.md`, and the full
    /// detail for auditors, `report.details.md`.
    case markdown
    /// JUnit XML for CI systems, `report.junit.xml`.
    case junit
    /// One self-contained HTML page, `report.html`: no network, no script.
    case html

    /// The file name in the report directory (for `markdown`, the summary's).
    public var fileName: String {
        switch self {
        case .json: "report.json"
        case .markdown: "report.md"
        case .junit: "report.junit.xml"
        case .html: "report.html"
        }
    }

    /// Every file the format writes, in order.
    public var fileNames: [String] {
        self == .markdown ? [fileName, Self.detailsFileName] : [fileName]
    }

    /// The full Markdown report beside the summary.
    public static let detailsFileName = "report.details.md"
}
