import ConformanceBrowser
import ConformanceModel
import Foundation
import Synchronization
import Testing

/// The page's timers and dates on the harness's virtual clock, in the real browser.
@Suite("A page's time on the virtual clock", .serialized, .timeLimit(.minutes(5)))
struct PageClockTests {
    static let skipNote: Comment = RealBrowserTests.skipNote
    static let page = """
        <!doctype html><title>start</title>
        <script>
        globalThis.log = [];
        globalThis.started = Date.now();
        globalThis.later = setTimeout((word) => { log.push(word + " " + (Date.now() - started)); }, 60000, "timeout");
        globalThis.tick = setInterval(() => { log.push("tick " + performance.now()); }, 1000);
        globalThis.dropped = setTimeout(() => { log.push("dropped"); }, 500);
        clearTimeout(dropped);
        </script>
        """

    @Test(
        "timers are reported, never fire by themselves, and fire at the virtual time the harness chooses",
        .enabled(if: RealBrowserTests.executable != nil, skipNote))
    func timers() async throws {
        let route = BrowserPage.Route(origin: RealBrowserTests.origin) { _, _, _ in
            BrowserPage.Response(contentType: "text/html", body: Data(Self.page.utf8))
        }
        let installed = Mutex<PageClock?>(nil)
        try await BrowserFixture.withPage(
            routes: [route], loading: RealBrowserTests.origin + "/",
            prepare: { page in
                let clock = try await PageClock.install(on: page)
                installed.withLock { $0 = clock }
            }
        ) { _, page in
            let clock = try #require(installed.withLock { $0 })
            // The page's dates start at the fixed epoch; the cleared timer is gone.
            #expect(try await page.evaluate("started").numberValue == Double(PageClock.epochMillis))
            #expect(try await page.evaluate("new Date().getTime()").numberValue == Double(PageClock.epochMillis))
            let pending = clock.pending
            #expect(pending.map(\.dueMillis) == [1000, 60000], "\(pending)")
            // Nothing has fired on its own.
            #expect(try await page.evaluate("log.length").numberValue == 0)
            let tick = try #require(pending.first)
            try await clock.fire(tick.id, at: 1000)
            // The interval comes back for its next turn.
            #expect(clock.pending.map(\.dueMillis) == [2000, 60000])
            let timeout = try #require(clock.pending.last)
            try await clock.fire(timeout.id, at: 60000)
            #expect(try await page.evaluate("log").arrayValue?.compactMap(\.stringValue) == ["tick 1000", "timeout 60000"])
            #expect(try await page.evaluate("Date.now()").numberValue == Double(PageClock.epochMillis + 60000))
            // A fired timeout does not fire twice.
            try await clock.fire(timeout.id, at: 70000)
            #expect(try await page.evaluate("log.length").numberValue == 2)
        }
    }
}
