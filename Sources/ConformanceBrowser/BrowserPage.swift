import ConformanceModel
import Foundation
import Synchronization

/// One page of the browser, attached over a flattened DevTools session: it routes its origins,
/// runs scripts, and holds the WebAuthn virtual authenticator its credential calls reach.
public final class BrowserPage: Sendable {
    /// An origin the page answers itself, and how: `answer` gets the request's method, URL and body
    /// and returns the status, content type and body (`nil`: the request fails as the network would).
    public struct Route: Sendable {
        /// The origin, e.g. `https://login.example.com`.
        public var origin: String
        /// The answer to a request under the origin.
        public var answer: @Sendable (_ method: String, _ url: String, _ body: Data?) async -> Response?

        /// A route for `origin`.
        public init(origin: String, answer: @escaping @Sendable (_ method: String, _ url: String, _ body: Data?) async -> Response?) {
            self.origin = origin
            self.answer = answer
        }
    }

    /// A routed request's answer.
    public struct Response: Sendable {
        /// The HTTP status.
        public var status: Int
        /// The content type.
        public var contentType: String
        /// The body.
        public var body: Data

        /// An answer with a status, a content type and a body.
        public init(status: Int = 200, contentType: String, body: Data) {
            self.status = status
            self.contentType = contentType
            self.body = body
        }
    }

    let pipe: DevToolsPipe
    /// The page's DevTools session.
    public let session: String
    let target: String
    let context: String
    let routes: [Route]
    private let waiters = Mutex<[(method: String, slot: OneShot)]>([])
    private let observers = Mutex<[@Sendable (DevToolsPipe.Event) -> Void]>([])

    init(pipe: DevToolsPipe, session: String, target: String, context: String, routes: [Route]) {
        self.pipe = pipe
        self.session = session
        self.target = target
        self.context = context
        self.routes = routes
    }

    /// Sends a command to this page.
    @discardableResult
    public func send(_ method: String, _ params: [String: JSONValue] = [:]) async throws -> JSONValue {
        try await pipe.send(method, params, session: session)
    }

    /// Turns on what every page needs: page events, the routes, the runtime.
    func start() async throws {
        try await send("Page.enable")
        try await send("Runtime.enable")
        let patterns = routes.map { JSONValue.object(["urlPattern": .string($0.origin + "/*"), "requestStage": .string("Request")]) }
        if !patterns.isEmpty { try await send("Fetch.enable", ["patterns": .array(patterns)]) }
    }

    /// Calls `observer` with every event of this page (after the page's own handling).
    public func observe(_ observer: @escaping @Sendable (DevToolsPipe.Event) -> Void) {
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
        let route = routes.first { url == $0.origin || url.hasPrefix($0.origin + "/") }
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

    /// Waits for the next event `method` of this page, listened for before `action` runs.
    public func next(_ method: String, after action: () async throws -> Void) async throws -> JSONValue {
        let slot = OneShot()
        waiters.withLock { $0.append((method, slot)) }
        do {
            try await action()
        } catch {
            waiters.withLock { $0.removeAll { $0.slot === slot } }
            throw error
        }
        return await slot.value()
    }

    /// Loads `url` and returns once its load event fired.
    public func navigate(_ url: String) async throws {
        _ = try await next("Page.loadEventFired") {
            let result = try await send("Page.navigate", ["url": .string(url)])
            if let error = result["errorText"]?.stringValue {
                throw DevToolsPipe.Failure(description: "the page \(url) did not load: \(error)")
            }
        }
    }

    /// Evaluates `expression` in the page, awaiting a promise; returns its value as JSON. A thrown
    /// exception comes back as a failure with its text.
    public func evaluate(_ expression: String) async throws -> JSONValue {
        let result = try await send(
            "Runtime.evaluate", ["expression": .string(expression), "awaitPromise": .bool(true), "returnByValue": .bool(true)])
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
    public func addVirtualAuthenticator(backedUp: Bool = true) async throws -> String {
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

/// A value that arrives once, perhaps before anybody waits for it.
final class OneShot: Sendable {
    private let state = Mutex<(value: JSONValue?, waiting: CheckedContinuation<JSONValue, Never>?)>((nil, nil))

    /// Gives the value to the waiter, or keeps it for the one to come.
    func fill(_ value: JSONValue) {
        let waiting = state.withLock { state -> CheckedContinuation<JSONValue, Never>? in
            if let waiting = state.waiting {
                state.waiting = nil
                return waiting
            }
            state.value = value
            return nil
        }
        waiting?.resume(returning: value)
    }

    /// The value, once it has come.
    func value() async -> JSONValue {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> JSONValue? in
                if let value = state.value { return value }
                state.waiting = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
