import ConformanceModel
import ConformanceSimulation
import Foundation
import Synchronization
import WebAuthn

/// The backend of one test case on a web target: the relying party's page runs in Chromium, and
/// every credential call it makes is the browser's own. The harness keeps the transcript, the
/// virtual clock and the provider model (`core`, the bookkeeping of a simulated platform) and
/// decides only what the browser leaves to a credential manager: whether a conditional create
/// succeeds, which passkey a sign-in uses, and what the scenario holds back. What the page got is
/// read back from the page and recorded as the operation's outcome.
final class WebBackend: PlatformBackend, Sendable {
    let platforms: BrowserPlatforms
    /// The transcript, clock, operations and provider model.
    let core: SimulationHost

    private struct State: Sendable {
        var page: WebPage?
        var origin = ""
        /// The page's call number → the operation it started.
        var operations: [Int: (id: OperationID, decision: SimulationHost.RealDecision, held: Bool)] = [:]
        /// Held calls' answers, waiting for the scenario to release them.
        var released: Set<OperationID> = []
        var waitingForRelease: [OperationID: CheckedContinuation<Void, Never>] = [:]
        /// Decisions the page is owed and has not yet received.
        var owed = 0
        var owedWaiters: [CheckedContinuation<Void, Never>] = []
        /// The page's timers and the clock's ids for them.
        var timers: [Int: TimerID] = [:]
        var pageTimers: [TimerID: Int] = [:]
        /// Passkeys made for the scenario, not yet put into the browser's authenticator.
        var passkeysToAdd: [(id: Data, rpID: String, userHandle: Data, userName: String, displayName: String)] = []
        /// The accounts (RP ID and user handle) whose resident passkey the authenticator holds.
        var resident: Set<String> = []
        /// The first fault of the relying party's web front end (an answer it could not give).
        var fault: String?
    }
    private let state = Mutex(State())

    init(platforms: BrowserPlatforms, core: SimulationHost) {
        self.platforms = platforms
        self.core = core
    }

    // MARK: PlatformBackend

    var target: Target { core.target }
    var platformHost: any PlatformHost { core }
    var keepsPayloads: Bool { core.keepsPayloads }
    /// The browser makes every response.
    var buildsResponses: Bool { false }
    @discardableResult
    func record(_ channel: TranscriptEntry.Channel, _ name: String, _ summary: String, payload: @autoclosure () -> JSONValue?) -> Int {
        core.record(channel, name, summary, payload: payload())
    }
    func now() -> Int64 { core.now() }
    var transcriptCount: Int { core.transcriptCount }
    var snapshot: PlatformSnapshot { core.snapshot }
    func popDueTimer(notAfter limit: Int64) -> VirtualClock.Timer? { core.popDueTimer(notAfter: limit) }
    func popDueTimer(notAfter limit: Int64, deferring: (VirtualClock.Timer) -> Bool) -> VirtualClock.Timer? {
        core.popDueTimer(notAfter: limit, deferring: deferring)
    }
    func moveClock(to millis: Int64) { core.moveClock(to: millis) }
    func takeDeliverable() -> PlatformOperation? { core.takeDeliverable() }
    @discardableResult
    func release(_ kind: PlatformOperation.Kind, onlyFirst: Bool) -> Int { core.release(kind, onlyFirst: onlyFirst) }
    func count(_ kind: PlatformOperation.Kind, in status: PlatformOperation.Status) -> Int { core.count(kind, in: status) }
    func withProvider<R>(_ body: (inout ProviderState) -> R) -> R { core.withProvider(body) }

    /// Makes the passkey in the provider model (and its key), and puts it into the browser's
    /// authenticator before the page next acts.
    func makeProviderPasskey(rpID: String, userHandle: Data, userName: String, displayName: String) throws -> ProviderPasskey {
        let passkey = try core.makeProviderPasskey(rpID: rpID, userHandle: userHandle, userName: userName, displayName: displayName)
        state.withLock { $0.passkeysToAdd.append((passkey.id, rpID, userHandle, userName, displayName)) }
        return passkey
    }

    /// Opens the relying party's session with the adapter, routes the page's origins to it, and
    /// loads the start page.
    func openSession(on adapter: any RelyingPartyAdapter, context: SessionContext, description: AdapterDescription) async throws
        -> any RelyingPartySession
    {
        guard description.implements(.webFrontEnd), let web = description.web else {
            throw SystemIssue("the adapter declares the web target \(target.id) but no web front end (`web` in its description, protocol 1.3)")
        }
        guard let start = URL(string: web.startURL), let scheme = start.scheme, let host = start.host else {
            throw SystemIssue("the web front end's start URL \"\(web.startURL)\" is not an absolute URL")
        }
        let origin = "\(scheme)://\(host)" + (start.port.map { ":\($0)" } ?? "")
        let surface = PageInstrumentation.APISurface(signals: target.has(.signals), conditionalCreate: target.has(.conditionalCreateAPI))
        let page = try await platforms.checkout(surface: surface)
        var context = context
        context.device.browser = page.version
        let inner: any RelyingPartySession
        do {
            inner = try await adapter.openSession(context, host: core)
        } catch {
            await platforms.checkin(page)
            throw error
        }
        state.withLock { state in
            state.page = page
            state.origin = origin
        }
        let origins = Array(Set(web.origins + [origin])).sorted()
        page.served.withLock { $0 = origins }
        page.page.route(origins.map { served in BrowserPage.Route(origin: served) { [self] method, url, body in await answer(method, url, body, inner) } })
        page.attach(self)
        let session = WebSession(inner: inner, backend: self, page: page)
        do {
            page.countFromZero()
            try await page.page.navigate(web.startURL)
            core.record(.platform, "web.page", "the browser (\(page.version)) loaded \(web.startURL)")
            try await settle()
        } catch {
            await session.close()
            throw error
        }
        return session
    }

    /// A request of the page, answered by the relying party's session.
    private func answer(_ method: String, _ url: String, _ body: Data?, _ session: any RelyingPartySession) async -> BrowserPage.Response? {
        let request = WebRequest(method: method, url: url, body: body.map { String(decoding: $0, as: UTF8.self) })
        let path = URL(string: url).map { $0.path + ($0.query.map { "?" + $0 } ?? "") } ?? url
        do {
            let response = try await session.webRequest(request)
            core.record(.harnessToRP, "web.request", "\(method) \(path): \(response.status)")
            return BrowserPage.Response(status: response.status, contentType: response.contentType, body: Data(response.body.utf8))
        } catch {
            core.record(.harnessToRP, "web.request", "\(method) \(path): no answer: \(error)")
            state.withLock { $0.fault = $0.fault ?? "session.webRequest for \(method) \(path) failed: \(error)" }
            return nil
        }
    }

    /// Waits until the page has nothing in flight and every decision it is owed has reached it;
    /// then throws the web front end's first fault, if it had one. The page may have called the
    /// platform meanwhile, so the answer is always `true`.
    @discardableResult
    func settle() async throws -> Bool {
        guard let page = state.withLock({ $0.page }) else { return false }
        try await addPasskeys(to: page)
        while true {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Bool in
                    if state.owed == 0 { return true }
                    state.owedWaiters.append(continuation)
                    return false
                }
                if ready { continuation.resume() }
            }
            guard let sent = try await page.instrumentation?.idle() else { break }
            // A report the page sent before it went idle may reach the harness after the answer.
            await page.heard(sent)
            if state.withLock({ $0.owed == 0 }) { break }
        }
        if let fault = state.withLock({ $0.fault }) { throw SystemIssue("the relying party's web front end: \(fault)") }
        return true
    }

    /// Puts the passkeys made since the last time into the browser's authenticator.
    func addPasskeys(to page: WebPage) async throws {
        let passkeys = state.withLock { state in
            defer { state.passkeysToAdd = [] }
            return state.passkeysToAdd
        }
        for passkey in passkeys {
            guard let key = core.signingKey(of: passkey.id) else { continue }
            // A CTAP2 authenticator keeps one resident passkey per account: a second one of the same
            // account goes in as a server-side credential, which a sign-in reaches through the
            // credential manager's choice (its allow list).
            let account = passkey.rpID + " " + Base64URL.encode(passkey.userHandle)
            let resident = state.withLock { $0.resident.insert(account).inserted }
            try await BrowserPasskeys.add(
                to: page.page, authenticator: page.authenticator, credentialID: passkey.id, key: key, rpID: passkey.rpID,
                userHandle: passkey.userHandle, userName: passkey.userName, displayName: passkey.displayName, resident: resident)
        }
    }

    // MARK: The page's reports

    /// A report of the page, in the page's order: a call is recorded before anything else happens.
    func noted(_ call: PageInstrumentation.Call) {
        let origin = state.withLock { $0.origin }
        switch call.kind {
        case "create":
            let conditional = call.body["conditional"]?.boolValue == true
            var notes: [PlatformSimulator.Note] = []
            if call.body["unsupportedMediation"]?.boolValue == true {
                notes.append(
                    .init(
                        kind: .unsupportedCall,
                        text: "this browser has no conditional creation: it took mediation \"conditional\" as a modal request and showed its sheet"))
            }
            let request = WebCreateRequest(
                publicKeyJson: Wire.jsonString(Self.webAuthnJSON(call.body["publicKey"] ?? .null)), mediation: conditional ? "conditional" : nil,
                origin: origin)
            let begun = core.beginRealCreate(.web(request), notes: notes)
            noteBegun(call.id, begun)
        case "get":
            let request = WebGetRequest(
                publicKeyJson: Wire.jsonString(Self.webAuthnJSON(call.body["publicKey"] ?? .null)), mediation: call.body["mediation"]?.stringValue,
                origin: origin)
            noteBegun(call.id, core.beginRealGet(.web(request)))
        case "signal":
            guard let method = call.body["method"]?.stringValue.flatMap(WebSignalMethod.init(rawValue:)), let number = call.body["call"]?.numberValue
            else { return }
            let request = WebSignalRequest(method: method, optionsJson: Wire.jsonString(Self.webAuthnJSON(call.body["options"] ?? .null)), origin: origin)
            let begun = core.beginRealSignal(.web(request))
            state.withLock { $0.operations[Int(number)] = (begun.id, begun.decision, false) }
        case "created", "got", "failed", "signalled", "signalFailed":
            guard let number = call.body["call"]?.numberValue, let id = state.withLock({ $0.operations[Int(number)]?.id }) else { return }
            let outcome: PlatformOutcome
            switch call.kind {
            case "created": outcome = .webRegistration(responseJson: Wire.jsonString(call.body["result"] ?? .null))
            case "got": outcome = .webAuthentication(responseJson: Wire.jsonString(call.body["result"] ?? .null))
            case "signalled": outcome = .signalAccepted
            default:
                outcome = .failure(.general(name: call.body["name"]?.stringValue ?? "Error", message: call.body["message"]?.stringValue ?? ""))
            }
            core.finishRealCall(id, outcome: outcome)
            if call.kind == "created", case .create(_, let view?)? = core.operation(id)?.call {
                // The browser made a resident passkey of the account: a later one goes in beside it.
                _ = state.withLock { $0.resident.insert(view.rpID + " " + Base64URL.encode(view.userHandle)) }
            }
        case "capabilities":
            core.record(
                .rpToPlatform, "platform.getClientCapabilities", "the page read the browser's capabilities",
                payload: call.body["value"] ?? .null)
        default:
            return
        }
    }

    private func noteBegun(_ number: Int, _ begun: SimulationHost.RealCall) {
        state.withLock { state in
            state.operations[number] = (begun.id, begun.decision, begun.held)
            if !begun.held { state.owed += 1 }
        }
    }

    /// The harness's answer to a `create` or `get`: at once, or when the scenario releases it.
    func decide(_ call: PageInstrumentation.Call) async -> PageInstrumentation.Decision {
        guard let (id, decision, held) = state.withLock({ $0.operations[call.id] }) else {
            return .refuse(name: "NotAllowedError", message: "the harness has no record of this call")
        }
        if held {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Bool in
                    if state.released.contains(id) { return true }
                    state.waitingForRelease[id] = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        }
        switch decision {
        case .refuse(let error):
            return .refuse(name: error.name, message: error.message)
        case .proceed(let flags, let passkey, let change):
            if let change, change != .invalidSignature {
                core.recordPlatformNote(
                    "\(id): the browser makes a response as it is; the scenario's change (\(change)) is not made on a web target", kind: .decision)
            }
            if let page = state.withLock({ $0.page }) {
                let flags = flags ?? ProviderState.modalFlags
                _ = try? await page.page.send(
                    "WebAuthn.setResponseOverrideBits",
                    [
                        "authenticatorId": .string(page.authenticator), "isBadUP": .bool(!flags.userPresent), "isBadUV": .bool(!flags.userVerified),
                        "isBogusSignature": .bool(change == .invalidSignature),
                    ])
            }
            return passkey.map { .proceedWith(credentialID: Base64URL.encode($0)) } ?? .proceed
        }
    }

    /// The page has the answer to a call.
    func answered(_ call: PageInstrumentation.Call) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.owed -= 1
            guard state.owed == 0 else { return [] }
            defer { state.owedWaiters = [] }
            return state.owedWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// The runner delivers a held call that the scenario released: the page gets its answer now.
    func deliver(_ operation: OperationID) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.released.contains(operation) else { return nil }
            state.released.insert(operation)
            guard state.operations.values.contains(where: { $0.id == operation && $0.held }) else { return nil }
            state.owed += 1
            return state.waitingForRelease.removeValue(forKey: operation)
        }
        waiter?.resume()
    }

    // MARK: Time

    /// The page set a timer: it is scheduled on the virtual clock.
    func timerSet(_ timer: PageClock.Timer) {
        let id = core.scheduleTimer(afterMillis: max(0, timer.dueMillis - core.now()), label: "page timer \(timer.id)")
        state.withLock { state in
            if let old = state.timers[timer.id] { state.pageTimers[old] = nil }
            state.timers[timer.id] = id
            state.pageTimers[id] = timer.id
        }
    }

    /// The page cleared a timer.
    func timerCleared(_ pageID: Int) {
        guard
            let id = state.withLock({ state -> TimerID? in
                guard let id = state.timers.removeValue(forKey: pageID) else { return nil }
                state.pageTimers[id] = nil
                return id
            })
        else { return }
        core.cancelTimer(id)
    }

    /// The page's timer a clock timer stands for.
    func pageTimer(_ timer: TimerID) -> Int? {
        state.withLock { state in
            guard let pageID = state.pageTimers.removeValue(forKey: timer) else { return nil }
            if state.timers[pageID] == timer { state.timers[pageID] = nil }
            return pageID
        }
    }

    /// Forgets the page (the session closed).
    func detach() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.page = nil
            defer {
                state.waitingForRelease = [:]
                state.owedWaiters = []
            }
            return Array(state.waitingForRelease.values) + state.owedWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// The instrumentation's plain JSON (buffers as `{"$bytes": …}`) as WebAuthn JSON (buffers as
    /// base64url text).
    static func webAuthnJSON(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            if members.count == 1, let bytes = members["$bytes"]?.stringValue { return .string(bytes) }
            return .object(members.mapValues(webAuthnJSON))
        case .array(let items): return .array(items.map(webAuthnJSON))
        default: return value
        }
    }
}
