import ConformanceBrowser
import Foundation
import Testing

/// A browser and one page for a test: Chromium launched, the page opened with its routes,
/// `prepare` run before the page loads `url` (instrumentation, a clock, an authenticator), and
/// everything closed afterwards, whether the test's body passed or threw.
enum BrowserFixture {
    static func withPage(
        routes: [BrowserPage.Route], loading url: String, prepare: (BrowserPage) async throws -> Void = { _ in },
        _ body: (Browser, BrowserPage) async throws -> Void
    ) async throws {
        let browser = try Browser.launch(executable: try #require(RealBrowserTests.executable))
        do {
            let page = try await browser.openPage(routes: routes)
            try await prepare(page)
            try await page.navigate(url)
            try await body(browser, page)
            await browser.close(page)
        } catch {
            await browser.close()
            throw error
        }
        await browser.close()
    }
}
