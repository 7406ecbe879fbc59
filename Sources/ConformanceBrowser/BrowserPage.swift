import ConformanceModel
import Foundation
import Synchronization

/// One page of the browser, attached over a flattened DevTools session: it routes its origins,
/// runs scripts, and holds the WebAuthn virtual authenticator its credential calls reach.
package final class BrowserPage: Sendable {
    /// An origin the page answers itself, and how: `answer` gets the request's method, URL and body
    /// and returns the status, content type and body (`nil`: the request fails as the network would).
    package struct Route: Sendable {
        /// The origin, e.g. `https://login.example.com`.
        package var origin: String
        /// The answer to a request under the origin.
        package var answer: @Sendable (_ method: String, _ url: String, _ body: Data?) async -> Response?

        /// A route for `origin`.
        package init(origin: String, answer: @escaping @Sendable (_ method: String, _ url: String, _ body: Data?) async -> Response?) {
            self.origin = origin
            self.answer = answer
        }
    }

    /// A routed request's answer.
    package struct Response: Sendable {
        /// The HTTP status.
        package var status: Int
        /// The content type.
        package var contentType: String
        /// The body.
        package var body: Data

        /// An answer with a status, a content type and a body.
        package init(status: Int = 200, contentType: String, body: Data) {
            self.status = status
            self.contentType = contentType
            self.body = body
        }
    }

    let pipe: DevToolsPipe
    /// The page's DevTools session.
    package let session: String
    let target: String
    let context: String
    private let routes: Mutex<[Route]>
    private let waiters = Mutex<[(method: String, slot: OneShot)]>([])
    private let observers = Mutex<[@Sendable (DevToolsPipe.Event) -> Void]>([])

    init(pipe: DevToolsPipe, session: String, target: String, context: String, routes: [Route]) {
        self.pipe = pipe
        self.session = session
        self.target = target
        self.context = context
        self.routes = Mutex(routes)
    }

    /// Replaces the page's routes (a pooled page serves the next test case's relying party).
    package func route(_ routes: [Route]) {
        self.routes.withLock { $0 = routes }
    }

    /// Sends a command to this page (failing after `deadline` without an answer).
    @discardableResult
    package func send(_ method: String, _ params: [String: JSONValue] = [:], deadline: Duration = DevToolsPipe.answerDeadline) async throws -> JSONValue {
        try await pipe.send(method, params, session: session, deadline: deadline)
    }

    /// Turns on what every page needs: page events, the runtime, and every request paused so that
    /// the routes answer it or it fails.
    func start() async throws {
        try await send("Page.enable")
        try await send("Runtime.enable")
        try await send("Fetch.enable", ["patterns": .array([.object(["urlPattern": .string("*"), "requestStage": .string("Request")])])])
    }

    /// Calls `observer` with every event of this page (after the page's own handling).
    package func observe(_ observer: @escaping @Sendable (DevToolsPipe.Event) -> Void) {
        observers.withLock { $0.append(observer) }
    }

    func handle(_ event: DevToolsPipe.Event) {
        if event.method == "Fetch.requestPaused" {
            Task { await fulfil(event.params) }
        }
        let ready = waiters.withLock { waiters in
            let matching = waiters.filter { $0.method == event.method }
            waiters.removeAll { $0.method == event.method }
            return matching
        }
        for waiter in ready { waiter.slot.fill(event.params) }
        for observer in observers.withLock({ $0 }) { observer(event) }
    }

    /// Answers a request paused by `Fetch`: from its route, or as a network failure.
    private func fulfil(_ params: JSONValue) async {
        guard let id = params["requestId"]?.stringValue, let request = params["request"], let url = request["url"]?.stringValue else { return }
        let method = request["method"]?.stringValue ?? "GET"
        let body = request["postData"]?.stringValue.map { Data($0.utf8) }
        let route = routes.withLock { $0.first { url == $0.origin || url.hasPrefix($0.origin + "/") } }
        if let route, let answer = await route.answer(method, url, body) {
            _ = try? await send(
                "Fetch.fulfillRequest",
                [
                    "requestId": .string(id), "responseCode": .number(Double(answer.status)),
                    "responseHeaders": .array([.object(["name": .string("Content-Type"), "value": .string(answer.contentType)])]),
                    "body": .string(answer.body.base64EncodedString()),
                ])
        } else {
            _ = try? await send("Fetch.failRequest", ["requestId": .string(id), "errorReason": .string("AddressUnreachable")])
        }
    }

    /// Waits for the next event `method` of this page, listened for before `action` runs; fails
    /// when none comes within `deadline` (a guard against a page that never loads).
    package func next(
        _ method: String, deadline: Duration = DevToolsPipe.answerDeadline, after action: () async throws -> Void
    ) async throws -> JSONValue {
        let slot = OneShot()
        waiters.withLock { $0.append((method, slot)) }
        do {
            try await action()
        } catch {
            waiters.withLock { $0.removeAll { $0.slot === slot } }
            throw error
        }
        let guardTask = Task { [weak self] in
            guard (try? await Task.sleep(for: deadline)) != nil else { return }
            self?.waiters.withLock { $0.removeAll { $0.slot === slot } }
            slot.fail(DevToolsPipe.Failure(description: "no \(method) event within \(deadline)"))
        }
        defer { guardTask.cancel() }
        return try await slot.value()
    }

    /// Loads `url` and returns once its load event fired.
    package func navigate(_ url: String) async throws {
        _ = try await next("Page.loadEventFired") {
            let result = try await send("Page.navigate", ["url": .string(url)])
            if let error = result["errorText"]?.stringValue {
                throw DevToolsPipe.Failure(description: "the page \(url) did not load: \(error)")
            }
        }
    }

    /// Evaluates `expression` in the page, awaiting a promise; returns its value as JSON. A thrown
    /// exception comes back as a failure with its text; a promise that never settles fails after
    /// `deadline`.
    package func evaluate(_ expression: String, deadline: Duration = DevToolsPipe.answerDeadline) async throws -> JSONValue {
        let result = try await send(
            "Runtime.evaluate", ["expression": .string(expression), "awaitPromise": .bool(true), "returnByValue": .bool(true)], deadline: deadline)
        if let exception = result["exceptionDetails"] {
            let text = exception["exception"]?["description"]?.stringValue ?? exception["text"]?.stringValue ?? "\(exception)"
            throw DevToolsPipe.Failure(description: "the page threw: \(text)")
        }
        return result["result"]?["value"] ?? .null
    }

    /// Adds the page's virtual authenticator: a platform (internal) CTAP2 authenticator with
    /// resident keys and user verification that is present and verifies without anybody
    /// touching it, and whose passkeys are backup eligible and backed up as a synced credential
    /// manager's are (unless `backedUp` is false). Returns its id.
    package func addVirtualAuthenticator(backedUp: Bool = true) async throws -> String {
        try await send("WebAuthn.enable", ["enableUI": .bool(false)])
        let options: JSONValue = .object([
            "protocol": .string("ctap2"), "ctap2Version": .string("ctap2_1"), "transport": .string("internal"), "hasResidentKey": .bool(true),
            "hasUserVerification": .bool(true), "isUserVerified": .bool(true), "automaticPresenceSimulation": .bool(true),
            "defaultBackupEligibility": .bool(backedUp), "defaultBackupState": .bool(backedUp),
        ])
        guard let id = try await send("WebAuthn.addVirtualAuthenticator", ["options": options])["authenticatorId"]?.stringValue else {
            throw DevToolsPipe.Failure(description: "WebAuthn.addVirtualAuthenticator gave no id")
        }
        return id
    }
}

/// A value that arrives once, perhaps before anybody waits for it, or a failure in its place.
final class OneShot: Sendable {
    private let state = Mutex<(result: Result<JSONValue, DevToolsPipe.Failure>?, waiting: CheckedContinuation<JSONValue, any Error>?)>((nil, nil))

    /// Gives the value to the waiter, or keeps it for the one to come; the first result stands.
    func fill(_ value: JSONValue) { settle(.success(value)) }

    /// Fails the waiter, unless a value came first.
    func fail(_ failure: DevToolsPipe.Failure) { settle(.failure(failure)) }

    private func settle(_ result: Result<JSONValue, DevToolsPipe.Failure>) {
        let waiting = state.withLock { state -> CheckedContinuation<JSONValue, any Error>? in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.waiting = nil }
            return state.waiting
        }
        waiting?.resume(with: result.mapError { $0 as any Error })
    }

    /// The value, once it has come.
    func value() async throws -> JSONValue {
        try await withCheckedThrowingContinuation { continuation in
            let ready = state.withLock { state -> Result<JSONValue, DevToolsPipe.Failure>? in
                if let result = state.result { return result }
                state.waiting = continuation
                return nil
            }
            if let ready { continuation.resume(with: ready.mapError { $0 as any Error }) }
        }
    }
}
