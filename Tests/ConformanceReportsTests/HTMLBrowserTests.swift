import ConformanceKit
@testable import ConformanceReports
import ConformanceTestSupport
import Foundation
import Testing
import Testing

/// The HTML report in a real headless browser (Debian's `chromium`): it renders to a screenshot,
/// and the text of the page it built holds every criterion. Skips with a note where chromium is absent.
@Suite("HTML report in headless Chromium", .heavy, .enabled(if: Chromium.executable != nil, "needs chromium (apt-get install chromium)"))
struct HTMLBrowserTests {
    /// Headless, no sandbox (CI runs as root), no GPU, nothing fetched in the background.
    static let flags = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run", "--disable-background-networking"]

    @Test("the page renders to a screenshot and its text holds every criterion id and the fidelity statement")
    func rendersInChromium() async throws {
        let browser = try #require(Chromium.executable)
        let directory = try ReportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try RenderedFiles.write(ReportFixtures.run, waivers: ReportFixtures.waivers, formats: [.html], to: directory.path)
        let page = directory.appendingPathComponent("report.html")
        let screenshot = directory.appendingPathComponent("report.png")

        let shot = try await ProcessRunner.run(
            browser, Self.flags + ["--screenshot=\(screenshot.path)", "--window-size=1200,1600", page.absoluteString], in: directory)
        #expect(shot.status == 0, "\(shot)")
        let png = try Data(contentsOf: screenshot)
        #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "a PNG file")
        #expect(png.count > 10_000, "a page with content, not a blank image (\(png.count) bytes)")

        let dom = try await ProcessRunner.run(browser, Self.flags + ["--dump-dom", page.absoluteString], in: directory)
        #expect(dom.status == 0, "\(dom)")
        for criterion in ReportFixtures.run.criteria { #expect(dom.stdout.contains(">\(criterion.criterion.id)<"), "\(criterion.criterion.id)") }
        #expect(dom.stdout.contains("SIMULATED"))
        #expect(dom.stdout.contains("<details id=\"cause-1\">"))
    }
}

/// Where Debian's `chromium` is.
enum Chromium {
    /// `chromium` on the `PATH`, if any.
    static let executable: URL? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { URL(fileURLWithPath: "\($0)/chromium") }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()
}
