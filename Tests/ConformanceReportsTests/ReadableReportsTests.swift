import ConformanceKit
@testable import ConformanceReports
import ConformanceTestSupport
import Foundation
import Testing

/// The summary that fits a pull-request comment, failures grouped by cause, the fidelity statement
/// and the self-contained HTML page.
@Suite("Readable reports: summary, causes, fidelity, HTML")
struct ReadableReportsTests {
    /// A letters-only tag for `index`, so that normalising digits cannot merge two messages.
    static func word(_ index: Int) -> String {
        var value = index
        var text = ""
        repeat {
            text.append(Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8(value % 26))))
            value /= 26
        } while value > 0
        return text
    }

    /// `count` failures with pairwise different causes, each with a long message and evidence.
    static func manyCauses(_ count: Int) -> RunResult {
        let cases = (0..<count).map { index in
            ReportFixtures.testCase(
                ReportFixtures.ac04, "case-\(index)", "Scenario \(word(index))", line: 8, items: ["N2.6-AC04.V2"], target: ReportFixtures.targets[index % 3],
                verdict: .failed, message: "cause \(word(index)): " + String(repeating: "the app did something else ", count: 20),
                evidence: ReportFixtures.exclusionEvidence)
        }
        return ReportFixtures.makeRun(criteria: [ReportFixtures.ac04], cases: cases)
    }

    @Test("the summary stays well under a pull-request comment's 65,536 characters however many causes there are")
    func summaryFitsAComment() {
        let summary = MarkdownReporter.summary(Self.manyCauses(3_000))
        #expect(summary.utf8.count < 60_000, "\(summary.utf8.count) bytes")
        #expect(summary.contains("more causes, left out to keep this summary short"))
        #expect(summary.contains("| [cause-1](report.details.md#cause-1) |"))
    }

    @Test("failures that differ only by target and numbers are one cause, with one transcript and every test case listed")
    func identicalFailuresGrouped() {
        let cases = ReportFixtures.targets.enumerated().map { index, target in
            ReportFixtures.testCase(
                ReportFixtures.ac04, "same", "Same cause", line: 8 + index, items: ["N2.6-AC04.V2"], target: target, verdict: .failed,
                message: "line \(8 + index): \(index + 2) known ids missing on \(target)", evidence: ReportFixtures.exclusionEvidence)
        }
        let model = ReportModel(ReportFixtures.makeRun(criteria: [ReportFixtures.ac04], cases: cases), waivers: .none)
        #expect(model.groups.count == 1)
        #expect(model.groups.first?.cause == "line N: N known ids missing on <target>")
        #expect(model.groups.first?.targets == ReportFixtures.targets)
        let details = MarkdownReporter.render(model)
        #expect(details.components(separatedBy: "**Evidence** (transcript excerpt").count == 2, "one transcript for the cause")
        for item in cases { #expect(details.contains(item.id)) }
        let summary = MarkdownReporter.summary(model)
        #expect(summary.contains("1 cause behind 3 test cases"))
        #expect(summary.contains("apple-18, android-15-gpm, apple-17.4 | 3 |"))
    }

    @Test("the summary's matrix has one column per platform family, not per target")
    func familyMatrix() {
        let summary = MarkdownReporter.summary(ReportFixtures.run, waivers: ReportFixtures.waivers)
        #expect(summary.contains("| Criterion | Level | Gate | Overall | iOS (2) | Android (1) |"))
        #expect(summary.contains("| N2.6-AC04 | Core | gates | 🟡 | 🟡 1/2 | ✅ 1/1 |"))
    }

    @Test("every report says that the platforms are simulated, and what each target simulated")
    func fidelityEverywhere() throws {
        let run = ReportFixtures.run
        let summary = MarkdownReporter.summary(run)
        let details = MarkdownReporter.render(run)
        let html = HTMLReporter.render(run)
        let json = String(decoding: try JSONReporter.render(run), as: UTF8.self)
        let junit = JUnitReporter.render(run)
        for text in [summary, details, html, json, junit] {
            #expect(text.contains("SIMULATED"))
            #expect(text.contains(ReportFidelity.notes))
        }
        for report in [summary, details] {
            #expect(report.contains("> **What a pass proves.**"))
            #expect(
                report.contains("| apple-17.4 | Apple 17.4 (no conditional request style) | simulated iOS 17.4, iCloud Keychain; features: exclusion-list;"))
        }
        #expect(json.contains("\"passDoesNotProve\""))
    }

    @Test("the HTML page is one self-contained file: no script, no network, every criterion, collapsible transcripts")
    func htmlSelfContained() {
        let html = HTMLReporter.render(ReportFixtures.run, waivers: ReportFixtures.waivers)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        for forbidden in ["<script", "src=", "http://", "https://", "<link", "@import"] { #expect(!html.contains(forbidden), "\(forbidden)") }
        for criterion in ReportFixtures.run.criteria { #expect(html.contains(">\(criterion.criterion.id)<")) }
        #expect(html.contains("<details id=\"cause-1\">"))
        #expect(html.contains("class=\"cell o-failed\""))
        // Text from the run is escaped: the evidence's `<isConditional=true> &` stays text.
        #expect(html.contains("&lt;isConditional=true&gt; &amp;"))
    }

    @Test("the markdown format writes the summary and the details, html its page, in one set")
    func reportSet() throws {
        let directory = try ReportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let written = try RenderedFiles.write(ReportFixtures.run, formats: [.markdown, .html], to: directory.path)
        #expect(written.map { URL(fileURLWithPath: $0).lastPathComponent } == ["report.md", "report.details.md", "report.html"])
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(names == ["report.details.md", "report.html", "report.md"])
    }
}
