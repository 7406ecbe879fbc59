import ConformanceModel
import Foundation
import Synchronization

/// Watches and steers a page's credential calls from a script installed before any of the page's
/// own: `navigator.credentials.create` and `get`, the three signal methods of
/// `PublicKeyCredential`, and `getClientCapabilities`.
///
/// Each call is reported to the harness with its arguments as JSON (byte buffers as
/// `{"$bytes": "<base64url>"}`). A `create` or `get` waits for the harness's decision: refuse with
/// a `DOMException` of a given name, or go on to the browser. A conditional `create` that goes on
/// is passed to the browser as a modal one (Chromium leaves conditional creation to a credential
/// manager that automation cannot reach; the harness is that credential manager, and the response
/// override bits of the virtual authenticator give the bytes a conditional creation has). What
/// the browser answered is reported back, so the harness sees every call's outcome as the page did.
package final class PageInstrumentation: Sendable {
    /// A call the page made, as the script reported it.
    package struct Call: Sendable {
        /// The script's number of the call; `0` for a report that waits for nothing.
        package var id: Int
        /// `create`, `get`, `created`, `got`, `failed`, `signal`, `signalled`, `signalFailed` or `capabilities`.
        package var kind: String
        /// Everything else the script reported (the options, the result, the error's name).
        package var body: JSONValue
    }

    /// The harness's answer to a `create` or `get`.
    package enum Decision: Sendable {
        /// Let the browser fulfil it.
        case proceed
        /// Let the browser fulfil a `get` with only this credential allowed (base64url): the
        /// credential manager's choice among the passkeys it offers.
        case proceedWith(credentialID: String)
        /// Refuse it with a `DOMException` of this name and message.
        case refuse(name: String, message: String)
    }

    /// What of the browser's WebAuthn API the page sees: all of it (`full`), or the API of a browser
    /// without some of it, for the targets that stand for such browsers.
    package struct APISurface: Sendable, Hashable {
        /// The three signal methods of `PublicKeyCredential`. Without them the methods are gone and
        /// `getClientCapabilities()` reports them false.
        package var signals: Bool
        /// Conditional creation. Without it `getClientCapabilities()` reports `conditionalCreate`
        /// false, and a create with `mediation: "conditional"` is taken as a browser that does not
        /// know the member takes it: as a modal creation (reported with `unsupportedMediation`).
        package var conditionalCreate: Bool

        /// A surface with or without each part.
        package init(signals: Bool = true, conditionalCreate: Bool = true) {
            self.signals = signals
            self.conditionalCreate = conditionalCreate
        }

        /// The browser's whole API.
        package static let full = APISurface()
    }

    /// The name of the page's binding; the script removes it from the page's reach once it has it.
    static let binding = "__pkcReport"

    let page: BrowserPage
    private let note: @Sendable (Call) -> Void
    private let decide: @Sendable (Call) async -> Decision
    private let answered: @Sendable (Call) -> Void
    private let calls = Mutex<[Call]>([])

    private init(
        page: BrowserPage, note: @escaping @Sendable (Call) -> Void, decide: @escaping @Sendable (Call) async -> Decision,
        answered: @escaping @Sendable (Call) -> Void
    ) {
        self.page = page
        self.note = note
        self.decide = decide
        self.answered = answered
    }

    /// Installs the script into `page` (for every document it loads from now on), with the API
    /// `surface` the page sees; `decide` answers each `create` and `get`.
    ///
    /// `note` hears of every report at once, in the page's order, before any answer is sought (a
    /// backend records the call there, so that nothing the page did is missed by a check that
    /// follows); `decide` then answers each `create` and `get`, and `answered` hears when the page
    /// has the answer.
    package static func install(
        on page: BrowserPage, surface: APISurface = .full, note: @escaping @Sendable (Call) -> Void = { _ in },
        answered: @escaping @Sendable (Call) -> Void = { _ in }, decide: @escaping @Sendable (Call) async -> Decision
    ) async throws -> PageInstrumentation {
        let instrumentation = PageInstrumentation(page: page, note: note, decide: decide, answered: answered)
        page.observe { event in
            guard event.method == "Runtime.bindingCalled", event.params["name"]?.stringValue == binding,
                let payload = event.params["payload"]?.stringValue, let json = try? JSONValue.parse(Data(payload.utf8)),
                let id = json["id"]?.numberValue, let kind = json["kind"]?.stringValue
            else { return }
            instrumentation.received(Call(id: Int(id), kind: kind, body: json))
        }
        try await page.send("Runtime.addBinding", ["name": .string(binding)])
        let source = "globalThis.__pkcSurface = { signals: \(surface.signals), conditionalCreate: \(surface.conditionalCreate) };\n" + script
        try await page.send("Page.addScriptToEvaluateOnNewDocument", ["source": .string(source), "runImmediately": .bool(true)])
        return instrumentation
    }

    /// Every call reported so far, in the order the page made them.
    package var reported: [Call] { calls.withLock { $0 } }

    /// Forgets the calls reported so far (a pooled page starts the next test case).
    package func forget() {
        calls.withLock { $0 = [] }
    }

    /// Waits until the page has nothing in flight: no request of its own (`fetch`, a response's
    /// body), no credential call the browser is fulfilling, no signal, no capability query; a call waiting for the
    /// harness's decision does not count. Each part counts until a task after it ended, so that
    /// what the page does with its result has run too.
    ///
    /// Returns how many reports the page's scripts (this one, the clock's and the driver's) had
    /// sent by then: a report may reach the harness after the answer to this call, so a caller that
    /// must have heard everything waits until it has received that many.
    package func idle() async throws -> Int {
        let sent = try await page.evaluate(
            "globalThis.__pkcIdle ? globalThis.__pkcIdle().then(() => globalThis.__pkcSent ? globalThis.__pkcSent.count : 0) : 0")
        return Int(sent.numberValue ?? 0)
    }

    /// The names of the bindings whose calls `idle()` counts.
    package static let countedBindings: Set<String> = [binding, PageClock.binding, PageDriver.binding]

    private func received(_ call: Call) {
        calls.withLock { $0.append(call) }
        note(call)
        guard call.id != 0 else { return }
        Task {
            let decision = await decide(call)
            let answer: String
            switch decision {
            case .proceed: answer = #"{"proceed":true}"#
            case .proceedWith(let id):
                answer = String(
                    decoding: (try? JSONEncoder().encode(JSONValue.object(["proceed": .bool(true), "allow": .string(id)]))) ?? Data("{}".utf8), as: UTF8.self)
            case .refuse(let name, let message):
                let encoded = (try? JSONEncoder().encode(JSONValue.object(["refuse": .string(name), "message": .string(message)]))) ?? Data("{}".utf8)
                answer = String(decoding: encoded, as: UTF8.self)
            }
            _ = try? await page.evaluate("globalThis.__pkcResolve(\(call.id), \(answer))")
            answered(call)
        }
    }

    /// The script. It keeps references to the browser's own functions before the page's scripts
    /// run, and hands the page wrappers that report, wait for the harness where it decides, and
    /// call through.
    static let script = #"""
        (() => {
          const binding = globalThis.__pkcReport;
          if (typeof binding !== "function" || globalThis.__pkcResolve) return;
          delete globalThis.__pkcReport;
          // Every report of the page's scripts is counted in one place, so that the harness can
          // tell it has heard all of them (see PageInstrumentation.idle).
          const sent = globalThis.__pkcSent || Object.defineProperty(globalThis, "__pkcSent", { value: { count: 0 } }).__pkcSent;
          const report = (text) => { sent.count++; binding(text); };
          const surface = globalThis.__pkcSurface || { signals: true, conditionalCreate: true };
          delete globalThis.__pkcSurface;
          const signalMethods = ["signalUnknownCredential", "signalAllAcceptedCredentials", "signalCurrentUserDetails"];
          const pending = new Map();
          let next = 1;
          // What the page has in flight; `done` counts down a task later, once its continuations ran.
          let busy = 0;
          const idleWaiters = [];
          const channel = new MessageChannel();
          const afterTask = [];
          channel.port1.onmessage = () => {
            const ready = afterTask.splice(0);
            for (const run of ready) run();
          };
          const later = (run) => { afterTask.push(run); channel.port2.postMessage(0); };
          const settleIdle = () => { if (busy === 0) for (const resolve of idleWaiters.splice(0)) resolve(true); };
          const start = () => { busy++; };
          const done = () => later(() => { busy--; settleIdle(); });
          const tracked = (promise) => { start(); return promise.then((value) => { done(); return value; }, (error) => { done(); throw error; }); };
          Object.defineProperty(globalThis, "__pkcIdle", {
            value: () => new Promise((resolve) => { idleWaiters.push(resolve); later(settleIdle); }),
          });
          const realFetch = globalThis.fetch;
          if (realFetch) globalThis.fetch = (...args) => tracked(realFetch.apply(globalThis, args));
          if (globalThis.Response) {
            for (const method of ["json", "text", "arrayBuffer", "blob", "formData"]) {
              const original = Response.prototype[method];
              if (typeof original === "function") Response.prototype[method] = function (...args) { return tracked(original.apply(this, args)); };
            }
          }
          const bytes = (value) => {
            const view = value instanceof ArrayBuffer ? new Uint8Array(value) : new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
            let text = "";
            for (const byte of view) text += String.fromCharCode(byte);
            return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
          };
          const unbytes = (text) => {
            const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4));
            return Uint8Array.from(binary, (character) => character.charCodeAt(0));
          };
          const plain = (value) => {
            if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) return { $bytes: bytes(value) };
            if (Array.isArray(value)) return value.map(plain);
            if (value && typeof value === "object" && !(value instanceof AbortSignal)) {
              const out = {};
              for (const key of Object.keys(value)) out[key] = plain(value[key]);
              return out;
            }
            return value;
          };
          Object.defineProperty(globalThis, "__pkcResolve", {
            value: (id, decision) => {
              const resolve = pending.get(id);
              pending.delete(id);
              if (!resolve) return;
              // A call that goes on is in flight again until its result has been handled.
              if (decision && decision.proceed) start();
              resolve(decision);
            },
          });
          const ask = (kind, body) => new Promise((resolve) => {
            const id = next++;
            pending.set(id, resolve);
            report(JSON.stringify({ ...body, id, kind }));
          });
          const tell = (kind, body) => report(JSON.stringify({ ...body, id: 0, kind }));
          const credentials = navigator.credentials;
          const create = credentials.create.bind(credentials);
          const get = credentials.get.bind(credentials);
          const through = async (kind, original, options, conditional) => {
            const call = next;
            // A browser without conditional creation does not know the member: a modal creation.
            const unsupportedMediation = kind === "create" && conditional && !surface.conditionalCreate;
            if (unsupportedMediation) conditional = false;
            const decision = await ask(kind, {
              conditional, unsupportedMediation, mediation: options && options.mediation, publicKey: plain(options && options.publicKey) });
            if (decision.refuse) {
              tell("failed", { call, name: decision.refuse, message: decision.message });
              throw new DOMException(decision.message, decision.refuse);
            }
            let passed = options;
            if (kind === "create" && (conditional || unsupportedMediation)) {
              passed = { ...options };
              delete passed.mediation;
            }
            if (kind === "get" && decision.allow) {
              passed = { ...options, publicKey: { ...options.publicKey, allowCredentials: [{ type: "public-key", id: unbytes(decision.allow) }] } };
              delete passed.mediation;
            }
            try {
              const result = await original(passed);
              tell(kind === "create" ? "created" : "got", { call, result: result ? result.toJSON() : null });
              return result;
            } catch (error) {
              tell("failed", { call, name: error.name, message: error.message });
              throw error;
            } finally {
              done();
            }
          };
          credentials.create = (options) => through("create", create, options, !!options && options.mediation === "conditional");
          credentials.get = (options) => through("get", get, options, !!options && options.mediation === "conditional");
          const PKC = globalThis.PublicKeyCredential;
          if (PKC) {
            for (const method of signalMethods) {
              if (!surface.signals) {
                delete PKC[method];
                continue;
              }
              const original = PKC[method];
              if (typeof original !== "function") continue;
              PKC[method] = (options) => {
                const call = next++;
                tell("signal", { call, method, options: plain(options) });
                return tracked(original.call(PKC, options)).then(
                  (value) => { tell("signalled", { call, method }); return value; },
                  (error) => { tell("signalFailed", { call, method, name: error.name, message: error.message }); throw error; });
              };
            }
            const capabilities = PKC.getClientCapabilities;
            if (typeof capabilities === "function") {
              PKC.getClientCapabilities = () => tracked(capabilities.call(PKC)).then((value) => {
                const seen = { ...value };
                if (!surface.conditionalCreate) seen.conditionalCreate = false;
                if (!surface.signals) for (const method of signalMethods) seen[method] = false;
                tell("capabilities", { value: seen });
                return seen;
              });
            }
          }
        })();
        """#
}
