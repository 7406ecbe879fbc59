/// A report format: the name the command line gives it, the files it writes in a report directory
/// and its line in `--format`'s help. Each renderer declares its own (`ReportRenderer.format`); the
/// registry (`ReportFormat.registry`) lists the renderers, and the command line, the report
/// directory, evidence bundles and help texts all read it from there.
package struct ReportFormat: Sendable, Hashable, RawRepresentable, CustomStringConvertible {
    /// The format's name on the command line and in `--format` (`json`, `md`, `junit`, `html`).
    package let rawValue: String
    /// Other names `--format` accepts for it (`markdown`, `xml`).
    package let aliases: [String]
    /// Every file it writes, the main one first.
    package let fileNames: [String]
    /// How `--format`'s help names it (`md (report.md, a summary, and report.details.md)`).
    package let help: String

    /// A format; `help` is `rawValue` unless given.
    package init(_ rawValue: String, aliases: [String] = [], fileNames: [String], help: String? = nil) {
        self.rawValue = rawValue
        self.aliases = aliases
        self.fileNames = fileNames
        self.help = help ?? rawValue
    }

    /// The registered format called `rawValue` (or one of its aliases).
    package init?(rawValue: String) {
        guard let format = Self.allCases.first(where: { $0.rawValue == rawValue || $0.aliases.contains(rawValue) }) else { return nil }
        self = format
    }

    /// The main file in the report directory (for `markdown`, the summary's).
    package var fileName: String { fileNames[0] }

    /// The name.
    package var description: String { rawValue }

    /// Formats are the same when their names are.
    package static func == (left: ReportFormat, right: ReportFormat) -> Bool { left.rawValue == right.rawValue }
    /// Hashes the name.
    package func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
}

/// A renderer of one report format: the format it declares and the files it renders from a run's
/// report model. A new format is a type conforming to this and one line in `ReportFormat.registry`.
protocol ReportRenderer {
    /// The format, with its names and files.
    static var format: ReportFormat { get }
    /// The files of the report, named as `format.fileNames` says, in that order.
    static func files(_ model: ReportModel) throws -> [(path: String, bytes: [UInt8])]
}

extension ReportFormat {
    /// Every renderer, in the order a report set is written: the one place a format is registered.
    static let registry: [any ReportRenderer.Type] = [JSONReporter.self, MarkdownReporter.self, JUnitReporter.self, HTMLReporter.self]

    /// Every format, in the registry's order; all of them are written by default.
    package static var allCases: [ReportFormat] { registry.map { $0.format } }

    /// The renderer of a format.
    static func renderer(of format: ReportFormat) -> (any ReportRenderer.Type)? {
        registry.first { $0.format == format }
    }

    /// The files of `model`'s report in this format, named as `fileNames` says.
    package func files(of model: ReportModel) throws -> [(path: String, bytes: [UInt8])] {
        try Self.renderer(of: self)?.files(model) ?? []
    }

    /// The versioned JSON report, `report.json`.
    package static var json: ReportFormat { JSONReporter.format }
    /// The Markdown reports: the summary for a pull-request comment, `report.md`, and the full detail
    /// for auditors, `report.details.md`.
    package static var markdown: ReportFormat { MarkdownReporter.format }
    /// JUnit XML for CI systems, `report.junit.xml`.
    package static var junit: ReportFormat { JUnitReporter.format }
    /// One self-contained HTML page, `report.html`: no network, no script.
    package static var html: ReportFormat { HTMLReporter.format }

    /// The full Markdown report beside the summary.
    package static var detailsFileName: String { markdown.fileNames[1] }

    /// `json,md,junit,html`: the names for a usage line.
    package static var usageList: String { allCases.map(\.rawValue).joined(separator: ",") }

    /// `--format`'s help: every format with its files, and the default.
    package static var optionHelp: String { "Report formats: " + allCases.map(\.help).joined(separator: ", ") + " (default: all)." }

    /// A usage error's list: `json, md, junit or html`.
    package static var choiceList: String {
        let names = allCases.map(\.rawValue)
        return names.dropLast().joined(separator: ", ") + (names.count > 1 ? " or " : "") + (names.last ?? "")
    }
}
