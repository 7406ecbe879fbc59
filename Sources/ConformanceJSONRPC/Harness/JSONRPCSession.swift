import ConformanceModel
import PasskeyConformanceAdapter

/// A session of a relying party behind a JSON-RPC adapter process: every call is forwarded as a
/// `session.*` request that carries the session id.
///
/// Each call waits at most the per-call time-out, and never past the test case's deadline (counted
/// from `session.open`). A call that cannot complete throws `AdapterFault`.
package struct JSONRPCSession: RelyingPartySession {
    /// The session id on the wire (`s1`, `s2`, …; unique for the run).
    package let id: String
    let connection: HarnessConnection
    let deadline: ContinuousClock.Instant
    /// Whether the adapter has `session.inspect` (1.4); without it `inspect(usernames:)` asks for
    /// the session and each account separately.
    let batchInspection: Bool

    init(connection: HarnessConnection, id: String, deadline: ContinuousClock.Instant, batchInspection: Bool) {
        self.connection = connection
        self.id = id
        self.deadline = deadline
        self.batchInspection = batchInspection
    }

    /// Sends `session.setUp` with the accounts to create.
    package func setUp(accounts: [AccountFixture]) async throws {
        _ = try await call(.sessionSetUp, JSONRPCParams.SetUp(session: id, accounts: accounts), returning: JSONRPCParams.Empty.self)
    }

    /// Sends `session.addCredential` with the passkey record to store.
    package func addCredential(_ credential: CredentialFixture) async throws {
        _ = try await call(.sessionAddCredential, JSONRPCParams.AddCredential(session: id, credential: credential), returning: JSONRPCParams.Empty.self)
    }

    /// Sends `session.perform` and returns the app's `ActionOutcome`.
    package func perform(_ action: UserAction) async throws -> ActionOutcome {
        try await call(.sessionPerform, JSONRPCParams.Perform(session: id, action: action), returning: ActionOutcome.self)
    }

    /// Sends `session.inspectAccount` and returns the server's record of the account.
    package func inspectAccount(username: String) async throws -> AccountSnapshot {
        try await call(.sessionInspectAccount, JSONRPCParams.InspectAccount(session: id, username: username), returning: AccountSnapshot.self)
    }

    /// Sends `session.inspect` (or, to an adapter older than 1.4, `session.inspectSession` and one
    /// `session.inspectAccount` per account) and returns the session and the accounts.
    package func inspect(usernames: [String]) async throws -> StateSnapshot {
        guard batchInspection else { return try await inspectSeparately(usernames: usernames) }
        let snapshot = try await call(.sessionInspect, JSONRPCParams.Inspect(session: id, usernames: usernames), returning: StateSnapshot.self)
        guard snapshot.accounts.count == usernames.count else {
            throw AdapterFault(
                .protocolViolation, "session.inspect answered \(snapshot.accounts.count) accounts for \(usernames.count) asked",
                method: JSONRPCMethod.sessionInspect.rawValue)
        }
        return snapshot
    }

    /// Sends `session.inspectSession` and returns the app's session.
    package func inspectSession() async throws -> SessionSnapshot {
        try await call(.sessionInspectSession, JSONRPCParams.Session(session: id), returning: SessionSnapshot.self)
    }

    /// Sends `session.injectFault` with the fault to inject.
    package func injectFault(_ fault: Fault) async throws {
        _ = try await call(.sessionInjectFault, JSONRPCParams.InjectFault(session: id, fault: fault), returning: JSONRPCParams.Empty.self)
    }

    /// Sends `session.platformCompleted` with the outcome of a platform operation.
    package func platformCompleted(operation: OperationID, outcome: PlatformOutcome) async throws {
        _ = try await call(
            .sessionPlatformCompleted, JSONRPCParams.PlatformCompleted(session: id, operation: operation, outcome: outcome),
            returning: JSONRPCParams.Empty.self)
    }

    /// Sends `session.timerFired` for a timer that is due.
    package func timerFired(_ timer: TimerID) async throws {
        _ = try await call(.sessionTimerFired, JSONRPCParams.TimerFired(session: id, timer: timer), returning: JSONRPCParams.Empty.self)
    }

    /// Sends `session.webRequest` with a request of the relying party's page.
    package func webRequest(_ request: WebRequest) async throws -> WebResponse {
        try await call(.sessionWebRequest, JSONRPCParams.WebRequestParams(session: id, request: request), returning: WebResponse.self)
    }

    /// Closes the session in the adapter (best effort, within the per-call time-out even when the
    /// test case's budget is spent) and forgets its host.
    package func close() async {
        _ = await closeReportingFault()
    }

    /// Ends the session and returns the fault when `session.close` failed (no answer within the
    /// call time-out, a JSON-RPC error, the process gone): the runner records it as `error`.
    package func closeReportingFault() async -> RunFault? {
        defer { connection.unregister(session: id) }
        guard connection.isAlive else { return nil }
        let budget = connection.configuration.callTimeout
        do {
            _ = try await connection.call(
                .sessionClose, params: JSONRPCParams.Session(session: id), returning: JSONRPCParams.Empty.self,
                deadline: .now + budget, deadlineIsTestCase: false, budget: budget)
            return nil
        } catch let fault as AdapterFault {
            return fault.during(JSONRPCMethod.sessionClose.rawValue).runFault
        } catch {
            return RunFault(kind: .protocolViolation, message: "\(error)", method: JSONRPCMethod.sessionClose.rawValue)
        }
    }

    /// One call within the session's limits; a fault attributed to the session fails it too.
    func call<Result: Decodable>(_ method: JSONRPCMethod, _ params: some Encodable, returning: Result.Type) async throws -> Result {
        if let fault = connection.fault(ofSession: id) { throw fault }
        let now = ContinuousClock.now
        let configuration = connection.configuration
        guard now < deadline else {
            throw AdapterFault(.testCaseTimeout, "the test case took longer than \(configuration.testCaseTimeout.shortDescription)", method: method.rawValue)
        }
        let callDeadline = now + configuration.callTimeout
        let result = try await connection.call(
            method, params: params, returning: Result.self, deadline: min(callDeadline, deadline),
            deadlineIsTestCase: deadline < callDeadline, budget: configuration.callTimeout)
        if let fault = connection.fault(ofSession: id) { throw fault }
        return result
    }
}
