/// A report format, with the file name `ReportWriter` gives it.
public enum ReportFormat: String, Sendable, Hashable, Codable, CaseIterable {
    /// The versioned JSON report, `report.json`.
    case json
    /// The Markdown report for auditors, `report.md`.
    case markdown
    /// JUnit XML for CI systems, `report.junit.xml`.
    case junit

    /// The file name in the report directory.
    public var fileName: String {
        switch self {
        case .json: "report.json"
        case .markdown: "report.md"
        case .junit: "report.junit.xml"
        }
    }
}
