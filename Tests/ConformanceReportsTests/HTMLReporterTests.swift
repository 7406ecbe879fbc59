import ConformanceKit
@testable import ConformanceReports
import ConformanceTestSupport
import Foundation
import Testing

/// What `report.html` shows beyond the matrix: the waivers, the causes with their observed values,
/// and a run fault told once.
@Suite("HTML reporter")
struct HTMLReporterTests {
    /// The text between `<h2 id="<id>">` and the next `<h2`.
    static func section(_ html: String, id: String) -> String {
        guard let start = html.range(of: "<h2 id=\"\(id)\">") else { return "" }
        let rest = html[start.lowerBound...]
        let end = rest.dropFirst(4).range(of: "<h2")?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }

    @Test("the waivers: id, status, owner, expiry, reason and the test cases each waived, then the problems, all escaped")
    func waivers() {
        let file = WaiverFile(
            path: "ci/<waivers>.json",
            waivers: [
                ReportFixtures.waiver("N2.6-AC04", "apple-17.4", reason: "lands in <b>4.2</b> & later"),
                ReportFixtures.waiver("N2.6-X01", "*", expires: "2026-02-01", owner: "server-team", reason: "UV check fix in review"),
                ReportFixtures.waiver("N2.6-AC01", "android-15-gpm", expires: "2026-01-01", owner: "android-team", reason: "old"),
                ReportFixtures.waiver("N3.2-AC02", "android-15-gpm", owner: "web-team", reason: "not run here"),
            ])
        let evaluation = file.evaluate(against: ReportFixtures.run, today: ReportFixtures.today)
        let html = Self.section(HTMLReporter.render(ReportFixtures.run, waivers: evaluation), id: "waivers")
        #expect(html.hasPrefix("<h2 id=\"waivers\">Waivers</h2>\n"), "report.html has no waiver section")
        #expect(
            html.contains(
                "<p>Waivers from <code>ci/&lt;waivers&gt;.json</code>, 4 waivers, evaluated on 2026-01-15. A waiver holds through its expiry day.</p>"))
        #expect(html.contains("<tr><th>Waiver</th><th>Status</th><th>Owner</th><th>Expires</th><th>Reason</th><th>Waived test cases</th></tr>"))
        #expect(
            html.contains(
                "<tr><td><code>N2.6-AC04@apple-17.4</code></td><td>active</td><td>ios-team</td><td>2026-03-31</td>"
                    + "<td>lands in &lt;b&gt;4.2&lt;/b&gt; &amp; later</td>"
                    + "<td><details><summary>1</summary><code>N2.6-AC04/apple-exclusion@apple-17.4</code></details></td></tr>"))
        #expect(
            html.contains(
                "<tr><td><code>N2.6-X01@*</code></td><td><strong>stale</strong> (the failure no longer happens)</td><td>server-team</td>"
                    + "<td>2026-02-01</td><td>UV check fix in review</td><td>0</td></tr>"))
        #expect(html.contains("<td><code>N2.6-AC01@android-15-gpm</code></td><td><strong>expired</strong></td><td>android-team</td><td>2026-01-01</td>"))
        #expect(html.contains("<td><code>N3.2-AC02@android-15-gpm</code></td><td>not exercised in this run</td>"))
        #expect(html.contains("<p>Waiver problems (each makes the run fail):</p>"))
        #expect(
            html.contains(
                "<li><strong>expired</strong> <code>N2.6-AC01@android-15-gpm</code>: expired on 2026-01-01 (owner android-team); "
                    + "the failures it covered count as failures again. Fix them, or renew the waiver with a new date.</li>"))
        #expect(html.contains("<li><strong>stale</strong> <code>N2.6-X01@*</code>: N2.6-X01 no longer fails on any target"))
        #expect(!html.contains("<b>"), "text from the waiver file is escaped")
    }

    @Test("without a waiver file the page says every failure counts; with no problem, that there is none")
    func noWaivers() {
        #expect(Self.section(HTMLReporter.render(ReportFixtures.run), id: "waivers").contains("<p>No waiver file was used: every failure counts.</p>"))
        let live = WaiverFile(path: "w.json", waivers: [ReportFixtures.waiver("N2.6-AC04", "apple-17.4")]).evaluate(
            against: ReportFixtures.run, today: ReportFixtures.today)
        #expect(Self.section(HTMLReporter.render(ReportFixtures.run, waivers: live), id: "waivers").contains("<p>No waiver problems.</p>"))
    }

    @Test("a cause's header keeps the values its test cases observed, not the grouping key's placeholders")
    func causeKeepsObservedValues() {
        let run = MarkdownReporterTests.activePasskeys([2, 4, 3])
        let html = HTMLReporter.render(run)
        #expect(
            html.contains("the server holds 2–4 active passkey(s) for alice@example.com, expected 1 (3 test cases on apple-18, android-15-gpm, apple-17.4)"))
        #expect(!html.contains("holds N active"))
    }

    @Test("a run fault is told once: the fault, the adapter's standard error line by line, the first thing to check")
    func runFault() {
        var run = ReportFixtures.run(replacing: [.failed: .passed, .undefined: .passed, .notVerified: .passed])
        let fault = RunFault(
            kind: .processExited, message: "while starting the adapter: the adapter process exited with status 1", method: "adapter.hello",
            excerpt: "stderr: Traceback (most recent call last):\n  File \"a.py\", line 1, in <module>\nModuleNotFoundError: No module named 'x'\u{1B}[0m")
        run.metadata.fault = fault
        run.metadata.adapter.command = "python3 a.py"
        let html = HTMLReporter.render(run)
        #expect(
            html.contains(
                "<p><strong>Run fault:</strong> process-exited in adapter.hello: while starting the adapter: the adapter process exited with status 1; no test case ran.</p>"
            ))
        #expect(
            html.contains(
                "<pre>Traceback (most recent call last):\n  File &quot;a.py&quot;, line 1, in &lt;module&gt;\nModuleNotFoundError: No module named &#39;x&#39;\\u{1B}[0m</pre>"
            ))
        #expect(
            html.contains(
                "<p><strong>First thing to check:</strong> run the adapter command by hand: `python3 a.py`; it must speak JSON-RPC on stdin/stdout</p>"))
    }
}
