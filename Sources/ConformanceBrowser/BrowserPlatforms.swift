import ConformanceModel
import ConformanceSimulation
import Foundation
import Synchronization

/// The web family's backends: one Chromium for the run, started at the first web test case, and
/// a pool of pages reset between test cases (a fresh browser context costs about nine times a
/// reset page; `browser-bench` measures both). Where no Chromium is installed, every web target
/// is unavailable, and its test cases are not verified with the reason.
package final class BrowserPlatforms: PlatformBackendFactory, Sendable {
    /// The Chromium executable, or `nil` when none was found.
    package let executable: String?
    private struct State: Sendable {
        var launching: Task<(Browser, String), any Error>?
        var idle: [PageInstrumentation.APISurface: [WebPage]] = [:]
        var closed = false
    }
    private let state = Mutex(State())

    /// The factory of the Chromium at `executable` (by default the first one found; see
    /// `DevToolsPipe.findBrowser`).
    package init(executable: String? = DevToolsPipe.findBrowser()) {
        self.executable = executable
    }

    /// The web targets.
    package func serves(_ target: Target) -> Bool { target.platform == .web }

    /// Why no web target can run here: no Chromium.
    package func unavailability(of target: Target) -> String? {
        guard executable == nil else { return nil }
        return "no Chromium is installed (looked for \(DevToolsPipe.candidates.joined(separator: ", ")); "
            + "PASSKEY_CONFORMANCE_CHROMIUM names another)"
    }

    /// A backend for one web test case: the provider model and the transcript of a simulated
    /// platform, with the browser fulfilling every call.
    package func makeBackend(for target: Target, associatedRPIDs: [String], seed: UInt64, keepsPayloads: Bool) throws -> any PlatformBackend {
        guard serves(target) else { throw SystemIssue("the browser serves web targets only, not \(target.id)") }
        let simulator = try PlatformSimulator(target: target, associatedRPIDs: associatedRPIDs, seed: seed)
        return WebBackend(platforms: self, core: SimulationHost(simulator: simulator, keepsPayloads: keepsPayloads))
    }

    /// The browser, started once, and its product and version.
    func browser() async throws -> (Browser, String) {
        guard let executable else { throw SystemIssue(unavailability(of: TargetCatalog.web[0]) ?? "no Chromium") }
        let task = try state.withLock { state -> Task<(Browser, String), any Error> in
            guard !state.closed else { throw SystemIssue("the browser of this run has been closed") }
            if let launching = state.launching { return launching }
            let launching = Task {
                let browser = try Browser.launch(executable: executable)
                return (browser, try await browser.version())
            }
            state.launching = launching
            return launching
        }
        return try await task.value
    }

    /// A page showing `surface`: a pooled one, or a new one.
    func checkout(surface: PageInstrumentation.APISurface) async throws -> WebPage {
        if let page = state.withLock({ $0.idle[surface]?.popLast() }) { return page }
        let (browser, version) = try await browser()
        return try await WebPage.open(in: browser, surface: surface, version: version)
    }

    /// Resets a page and keeps it for the next test case; a page that cannot be reset is closed.
    func checkin(_ page: WebPage) async {
        page.detach()
        do {
            try await page.reset()
            let kept = state.withLock { state -> Bool in
                guard !state.closed else { return false }
                state.idle[page.surface, default: []].append(page)
                return true
            }
            if !kept, let (browser, _) = try? await browser() { await browser.close(page.page) }
        } catch {
            if let (browser, _) = try? await browser() { await browser.close(page.page) }
        }
    }

    /// Closes the browser (after the run); later web test cases fail to start.
    package func shutdown() async {
        let launching = state.withLock { state -> Task<(Browser, String), any Error>? in
            state.closed = true
            state.idle = [:]
            return state.launching
        }
        if let (browser, _) = try? await launching?.value { await browser.close() }
    }
}

/// One page of the pool with everything installed in it: the virtual authenticator, the
/// instrumentation of the credential calls, the page driver's reports and the virtual clock. Its
/// reports go to the backend of the test case it serves now.
final class WebPage: Sendable {
    let page: BrowserPage
    let authenticator: String
    let surface: PageInstrumentation.APISurface
    /// The browser as it names itself (`Chrome/156.0.…`).
    let version: String
    private let parts = Mutex<(instrumentation: PageInstrumentation?, driver: PageDriver?, clock: PageClock?)>((nil, nil, nil))
    private let current = Mutex<WebBackend?>(nil)
    /// The reports of the page's scripts received since the page last started loading a
    /// document, and who waits for a number of them.
    private let reports = Mutex<(received: Int, waiting: [(count: Int, continuation: CheckedContinuation<Void, Never>)])>((0, []))

    private init(page: BrowserPage, authenticator: String, surface: PageInstrumentation.APISurface, version: String) {
        self.page = page
        self.authenticator = authenticator
        self.surface = surface
        self.version = version
    }

    var instrumentation: PageInstrumentation? { parts.withLock { $0.instrumentation } }
    var driver: PageDriver? { parts.withLock { $0.driver } }
    var clock: PageClock? { parts.withLock { $0.clock } }
    var backend: WebBackend? { current.withLock { $0 } }

    static func open(in browser: Browser, surface: PageInstrumentation.APISurface, version: String) async throws -> WebPage {
        let page = try await browser.openPage(routes: [])
        let authenticator = try await page.addVirtualAuthenticator()
        let web = WebPage(page: page, authenticator: authenticator, surface: surface, version: version)
        let instrumentation = try await PageInstrumentation.install(
            on: page, surface: surface, note: { web.backend?.noted($0) }, answered: { web.backend?.answered($0) },
            decide: { call in await web.backend?.decide(call) ?? .refuse(name: "NotAllowedError", message: "no test case is running") })
        let driver = try await PageDriver.install(on: page, shown: { web.backend?.core.show($0) }, recorded: { web.backend?.core.telemetry($0) })
        let clock = try await PageClock.install(on: page, onTimer: { web.backend?.timerSet($0) }, onClear: { web.backend?.timerCleared($0) })
        web.parts.withLock { $0 = (instrumentation, driver, clock) }
        // Registered after the scripts' own observers: a report counts once it has been handled.
        page.observe { event in
            guard event.method == "Runtime.bindingCalled", let name = event.params["name"]?.stringValue,
                PageInstrumentation.countedBindings.contains(name)
            else { return }
            web.received()
        }
        return web
    }

    private func received() {
        let ready = reports.withLock { reports -> [CheckedContinuation<Void, Never>] in
            reports.received += 1
            let ready = reports.waiting.filter { $0.count <= reports.received }.map(\.continuation)
            reports.waiting.removeAll { $0.count <= reports.received }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    /// Starts counting the reports of a new document.
    func countFromZero() {
        reports.withLock { $0.received = 0 }
    }

    /// Waits until `count` reports of the current document have been handled.
    func heard(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let ready = reports.withLock { reports -> Bool in
                if reports.received >= count { return true }
                reports.waiting.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Releases whoever waits for reports (the page is being reset).
    func stopWaiting() {
        let waiting = reports.withLock { reports in
            defer { reports.waiting = [] }
            return reports.waiting.map(\.continuation)
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Sends the page's reports to `backend` from now on.
    func attach(_ backend: WebBackend) { current.withLock { $0 = backend } }

    /// Sends the page's reports nowhere.
    func detach() { current.withLock { $0 = nil } }

    /// The origins the page served in its last test case.
    let served = Mutex<[String]>([])

    /// Leaves the page without cookies, storage, passkeys or timers, and its requests unanswered.
    /// The document stays until the next test case loads its start page over it: a page of the
    /// same site keeps its renderer process, which a detour through `about:blank` would replace at
    /// a cost of about a third of a test case.
    func reset() async throws {
        page.route([])
        stopWaiting()
        try await page.send("WebAuthn.clearCredentials", ["authenticatorId": .string(authenticator)])
        try await page.send(
            "WebAuthn.setResponseOverrideBits",
            ["authenticatorId": .string(authenticator), "isBogusSignature": .bool(false), "isBadUV": .bool(false), "isBadUP": .bool(false)])
        try await page.send("Network.clearBrowserCookies")
        for origin in served.withLock({ $0 }) {
            try await page.send("Storage.clearDataForOrigin", ["origin": .string(origin), "storageTypes": .string("all")])
        }
        clock?.reset()
        instrumentation?.forget()
    }
}
