/// A relying party under test, reached through some transport (in-process Swift or JSON-RPC).
///
/// The runner opens one session per test case, so that every test case starts from a fresh app and
/// server. The runner does not know which transport it drives.
public protocol RelyingPartyAdapter: Sendable {
    /// What the adapter supports: targets, capabilities, RP IDs.
    func describe() async throws -> AdapterDescription
    /// Starts a fresh app and server for one test case; `host` is the platform it calls.
    func openSession(_ context: SessionContext, host: any PlatformHost) async throws -> any RelyingPartySession
    /// Releases everything the adapter holds (child processes); called once after the run.
    func shutdown() async
    /// Where the runner should run test cases, if the adapter has a better place than the
    /// cooperative pool: a transport whose answers all arrive on one thread offers that thread, so a
    /// test case resumes there after each answer without waking another thread. `nil` by default.
    var preferredTaskExecutor: (any TaskExecutor)? { get }
}

extension RelyingPartyAdapter {
    /// No preference: test cases run on the cooperative pool.
    public var preferredTaskExecutor: (any TaskExecutor)? { nil }
}

/// One fresh instance of the relying party (app and server) for one test case.
///
/// Every method may throw only for a fault of the adapter or its transport; a relying party that
/// behaves wrongly answers normally and the harness judges what it did.
public protocol RelyingPartySession: Sendable {
    /// Creates the accounts on the server.
    func setUp(accounts: [AccountFixture]) async throws
    /// Stores a passkey record on the server.
    func addCredential(_ credential: CredentialFixture) async throws
    /// Performs a user action in the app and returns what the app shows.
    func perform(_ action: UserAction) async throws -> ActionOutcome
    /// The server's record of an account.
    func inspectAccount(username: String) async throws -> AccountSnapshot
    /// The app's current session.
    func inspectSession() async throws -> SessionSnapshot
    /// The app's session and the server's record of the accounts `usernames`, in that order, read
    /// together (`session.inspect`, 1.4). The default asks `inspectSession()` and then
    /// `inspectAccount(username:)` for each account; a relying party need not implement it.
    func inspect(usernames: [String]) async throws -> StateSnapshot
    /// Injects a fault into the server or the network.
    func injectFault(_ fault: Fault) async throws
    /// Delivers the outcome of a platform operation the app started.
    func platformCompleted(operation: OperationID, outcome: PlatformOutcome) async throws
    /// Fires a timer the app scheduled.
    func timerFired(_ timer: TimerID) async throws
    /// Answers a request of the relying party's page on a web target (protocol 1.3): the page's
    /// requests to the relying party's origins reach its server here.
    func webRequest(_ request: WebRequest) async throws -> WebResponse
    /// Ends the session.
    func close() async
    /// Ends the session and returns the fault of the adapter or its transport when closing failed
    /// (a hang, a JSON-RPC error), so that the runner records it against the test case as `error`.
    /// The default calls `close()` and reports nothing.
    func closeReportingFault() async -> RunFault?
}

extension RelyingPartySession {
    /// `inspectSession()`, then `inspectAccount(username:)` for each account.
    public func inspect(usernames: [String]) async throws -> StateSnapshot {
        try await inspectSeparately(usernames: usernames)
    }

    /// `inspectSession()`, then `inspectAccount(username:)` for each account: what `inspect` is
    /// made of where the relying party has no single call for it.
    public func inspectSeparately(usernames: [String]) async throws -> StateSnapshot {
        let session = try await inspectSession()
        var accounts: [AccountSnapshot] = []
        for username in usernames { accounts.append(try await inspectAccount(username: username)) }
        return StateSnapshot(session: session, accounts: accounts)
    }
}

extension RelyingPartySession {
    /// No web front end: the request fails, naming the session that has none.
    public func webRequest(_ request: WebRequest) async throws -> WebResponse {
        throw WebFrontEndMissing(url: request.url)
    }

    /// Calls `close()`; a transport that can tell a failed close implements this itself.
    public func closeReportingFault() async -> RunFault? {
        await close()
        return nil
    }
}

/// An error that knows its typed form for the reports: fault kind, message, method, excerpt.
public protocol ReportableFault: Error {
    /// The error as the reports carry it.
    var runFault: RunFault { get }
}

/// What the relying party's app calls during a test case: the platform's credential APIs, the
/// virtual clock, the user's screen and telemetry. The harness implements it.
///
/// Platform calls return at once with an operation id; the outcome arrives later through
/// `RelyingPartySession.platformCompleted`, as with the asynchronous APIs of both platforms.
///
/// Every method is `async`: behind a JSON-RPC adapter each one is a round trip to the harness, and
/// the caller suspends instead of holding a thread. The harness's in-process host answers at once
/// (its synchronous methods satisfy these requirements).
public protocol PlatformHost: Sendable {
    /// `CredentialManager.createCredential` / `ASAuthorizationController.performRequests` with a registration request.
    func createCredential(_ request: CreateCredentialRequest) async -> OperationID
    /// `CredentialManager.getCredential` / an assertion request.
    func getCredential(_ request: GetCredentialRequest) async -> OperationID
    /// `CredentialManager.signalCredentialState` / an Apple report method.
    func signal(_ request: SignalRequest) async -> OperationID
    /// The virtual time in milliseconds since the test case started.
    func now() async -> Int64
    /// Schedules a timer on the virtual clock.
    func scheduleTimer(afterMillis: Int64, label: String) async -> TimerID
    /// Cancels a timer.
    func cancelTimer(_ timer: TimerID) async
    /// Records something the app showed the user.
    func show(_ event: UIEvent) async
    /// Records a telemetry event of the app.
    func telemetry(_ event: TelemetryEvent) async
}

/// The error of a session without a web front end asked for a page's request.
public struct WebFrontEndMissing: Error, CustomStringConvertible, Sendable {
    /// The URL the page asked for.
    public var url: String
    /// The error in a sentence.
    public var description: String { "the relying party has no web front end to answer \(url)" }
}
