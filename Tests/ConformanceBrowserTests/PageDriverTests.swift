import ConformanceBrowser
import ConformanceModel
import Foundation
import Synchronization
import Testing

/// A page's user actions through its driver, and what it shows and records, in the real browser.
@Suite("A page driven as its user would", .serialized, .timeLimit(.minutes(5)))
struct PageDriverTests {
    static let page = """
        <!doctype html><title>sign in</title>
        <script>
        globalThis.pkcDriver = {
          perform: async (action) => {
            if (action.kind === "password-sign-in") {
              if (action.password !== "correct horse") {
                pkc.show("error", "Wrong password.");
                return { status: "rejected", message: "wrong password" };
              }
              pkc.show("screen", "home");
              pkc.telemetry("signed-in", { method: "password", attempts: 1 });
              return { status: "signed-in" };
            }
            if (action.kind === "sign-out") return { status: "rejected?" };
            throw new Error("not on this page: " + action.kind);
          },
        };
        </script>
        """
    static let route = BrowserPage.Route(origin: RealBrowserTests.origin) { _, _, _ in
        BrowserPage.Response(contentType: "text/html", body: Data(page.utf8))
    }

    @Test(
        "actions reach the page's driver; what it shows and records comes back in order",
        .enabled(if: RealBrowserTests.executable != nil, RealBrowserTests.skipNote))
    func drives() async throws {
        let shown = Mutex<[UIEvent]>([])
        let recorded = Mutex<[TelemetryEvent]>([])
        let installed = Mutex<PageDriver?>(nil)
        try await BrowserFixture.withPage(
            routes: [Self.route], loading: RealBrowserTests.origin + "/",
            prepare: { page in
                let driver = try await PageDriver.install(
                    on: page, shown: { event in shown.withLock { $0.append(event) } }, recorded: { event in recorded.withLock { $0.append(event) } })
                installed.withLock { $0 = driver }
            }
        ) { _, _ in
            let driver = try #require(installed.withLock { $0 })
            let wrong = try await driver.perform(.passwordSignIn(username: "alice@example.com", password: "wrong"))
            #expect(wrong == ActionOutcome(.rejected, message: "wrong password"))
            let right = try await driver.perform(.passwordSignIn(username: "alice@example.com", password: "correct horse"))
            #expect(right.status == .signedIn)
            #expect(shown.withLock { $0 } == [UIEvent(.error, "Wrong password."), UIEvent(.screen, "home")])
            #expect(recorded.withLock { $0 } == [TelemetryEvent("signed-in", ["method": "password", "attempts": "1"])])
            // A driver that throws, or answers what is not an outcome, is a failure naming the action.
            await #expect(throws: PageDriver.Failure.self) { try await driver.perform(.relaunch) }
            await #expect(throws: PageDriver.Failure.self) { try await driver.perform(.signOut) }
        }
    }
}
