import ConformanceModel
import ConformanceSimulation
import Foundation

/// A relying party's session on a web target: its server is the adapter's session, and its app is
/// the page in the browser. The user's actions go to the page's driver; the page's requests reach
/// the server through `session.webRequest`; a held platform answer reaches the page when the
/// runner delivers it; a timer fires in the page.
final class WebSession: RelyingPartySession, Sendable {
    let inner: any RelyingPartySession
    let backend: WebBackend
    let page: WebPage

    init(inner: any RelyingPartySession, backend: WebBackend, page: WebPage) {
        self.inner = inner
        self.backend = backend
        self.page = page
    }

    func setUp(accounts: [AccountFixture]) async throws { try await inner.setUp(accounts: accounts) }
    func addCredential(_ credential: CredentialFixture) async throws { try await inner.addCredential(credential) }
    func inspectAccount(username: String) async throws -> AccountSnapshot { try await inner.inspectAccount(username: username) }
    func inspectSession() async throws -> SessionSnapshot { try await inner.inspectSession() }
    func injectFault(_ fault: Fault) async throws { try await inner.injectFault(fault) }
    func webRequest(_ request: WebRequest) async throws -> WebResponse { try await inner.webRequest(request) }

    /// The user acts on the page: its clock first moves to the harness's time.
    func perform(_ action: UserAction) async throws -> ActionOutcome {
        try await backend.addPasskeys(to: page)
        try await page.clock?.move(to: backend.now())
        guard let driver = page.driver else { throw SystemIssue("the page has no driver installed") }
        return try await driver.perform(action)
    }

    /// A held answer the scenario released reaches the page (the browser made the rest).
    func platformCompleted(operation: OperationID, outcome: PlatformOutcome) async throws {
        backend.deliver(operation)
    }

    /// The page's timer fires at the harness's time.
    func timerFired(_ timer: TimerID) async throws {
        guard let pageID = backend.pageTimer(timer) else { return }
        try await page.clock?.fire(pageID, at: backend.now())
    }

    func close() async {
        _ = await closeReportingFault()
    }

    func closeReportingFault() async -> RunFault? {
        backend.detach()
        let fault = await inner.closeReportingFault()
        await backend.platforms.checkin(page)
        return fault
    }
}
