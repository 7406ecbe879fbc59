import ConformanceModel
import Foundation
import Synchronization

/// One Chromium of a run and the pages opened in it, each in a browser context of its own (no
/// cookie, storage or credential crosses from one test case to another).
///
/// The browser reaches no network: every host resolves to nothing, and each page answers the
/// requests of the origins it routes itself (`BrowserPage.Route`), so a relying party's page is
/// served at its real origin (`https://login.example.com`) with no DNS, certificate or socket.
package final class Browser: Sendable {
    /// The pipe to the browser.
    package let pipe: DevToolsPipe
    private let listeners = Mutex<[String: @Sendable (DevToolsPipe.Event) -> Void]>([:])

    private init(pipe: DevToolsPipe) {
        self.pipe = pipe
    }

    /// Starts the browser at `executable` (see `DevToolsPipe.findBrowser`).
    package static func launch(executable: String) throws -> Browser {
        let router = EventRouter()
        let pipe = try DevToolsPipe.launch(executable: executable) { event in router.deliver(event) }
        let browser = Browser(pipe: pipe)
        router.browser.withLock { $0 = browser }
        return browser
    }

    /// Passes an event to the page whose session it belongs to.
    private final class EventRouter: Sendable {
        let browser = Mutex<Browser?>(nil)
        func deliver(_ event: DevToolsPipe.Event) {
            guard let session = event.sessionID, let browser = browser.withLock({ $0 }) else { return }
            browser.listeners.withLock { $0[session] }?(event)
        }
    }

    /// The browser's product and version, e.g. `Chrome/156.0.8078.114`.
    package func version() async throws -> String {
        try await pipe.send("Browser.getVersion")["product"]?.stringValue ?? "unknown"
    }

    /// Opens a blank page in a fresh browser context; requests to the routes' origins are answered
    /// by `routes`, every other request fails as the network would.
    package func openPage(routes: [BrowserPage.Route]) async throws -> BrowserPage {
        let context = try await pipe.send("Target.createBrowserContext", ["disposeOnDetach": .bool(true)])["browserContextId"]?.stringValue
        guard let context else { throw DevToolsPipe.Failure(description: "Target.createBrowserContext gave no context id") }
        let target = try await pipe.send("Target.createTarget", ["url": .string("about:blank"), "browserContextId": .string(context)])["targetId"]?.stringValue
        guard let target else { throw DevToolsPipe.Failure(description: "Target.createTarget gave no target id") }
        let session = try await pipe.send("Target.attachToTarget", ["targetId": .string(target), "flatten": .bool(true)])["sessionId"]?.stringValue
        guard let session else { throw DevToolsPipe.Failure(description: "Target.attachToTarget gave no session id") }
        let page = BrowserPage(pipe: pipe, session: session, target: target, context: context, routes: routes)
        listeners.withLock { $0[session] = { event in page.handle(event) } }
        try await page.start()
        return page
    }

    /// Forgets a closed page's events.
    func forget(_ page: BrowserPage) {
        _ = listeners.withLock { $0.removeValue(forKey: page.session) }
    }

    /// Closes a page and its browser context.
    package func close(_ page: BrowserPage) async {
        forget(page)
        _ = try? await pipe.send("Target.closeTarget", ["targetId": .string(page.target)])
        _ = try? await pipe.send("Target.disposeBrowserContext", ["browserContextId": .string(page.context)])
    }

    /// Closes the browser.
    package func close() async {
        await pipe.close()
    }
}
