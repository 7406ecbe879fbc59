import ConformanceBrowser
import ConformanceModel
import ConformanceSimulation
import Foundation
import Synchronization
import Testing
import WebAuthn

/// A page's credential calls through the instrumentation, in the real browser: the harness's
/// provider model decides a conditional creation, the browser fulfils it, and every call and
/// signal is reported with its outcome.
@Suite("An instrumented page in a real browser", .serialized, .timeLimit(.minutes(5)))
struct InstrumentedPageTests {
    static let skipNote: Comment = RealBrowserTests.skipNote
    static let origin = RealBrowserTests.origin
    static let target = TargetCatalog.all.first { $0.platform == .android && $0.has(.conditionalCreate) }

    /// The relying party's page: a conditional creation after sign-in, as an automatic upgrade asks for it.
    static let page = """
        <!doctype html><title>signed in</title>
        <script>
        globalThis.upgrade = async () => {
          try {
            const credential = await navigator.credentials.create({ mediation: "conditional", publicKey: {
              challenge: new Uint8Array(16).fill(9), rp: { id: "login.example.com", name: "Example" },
              user: { id: new Uint8Array([1, 2, 3, 4]), name: "alice@example.com", displayName: "Alice" },
              pubKeyCredParams: [{ type: "public-key", alg: -7 }], excludeCredentials: [] } });
            return { created: credential.toJSON() };
          } catch (error) {
            return { error: error.name };
          }
        };
        </script>
        """

    /// Opens the page with the instrumentation; the provider model (`provider`) decides each
    /// conditional creation, and its UP=0/UV=0 bytes come from the override bits.
    static func withPage(
        provider: ProviderState, surface: PageInstrumentation.APISurface = .full, _ body: (BrowserPage, PageInstrumentation) async throws -> Void
    ) async throws {
        let route = BrowserPage.Route(origin: origin) { _, _, _ in BrowserPage.Response(contentType: "text/html", body: Data(page.utf8)) }
        let model = Mutex(provider)
        let target = try #require(Self.target)
        let installed = Mutex<PageInstrumentation?>(nil)
        try await BrowserFixture.withPage(
            routes: [route], loading: origin + "/",
            prepare: { page in
                let authenticator = try await page.addVirtualAuthenticator()
                let instrumentation = try await PageInstrumentation.install(on: page, surface: surface) { call in
                    guard call.kind == "create" else { return .proceed }
                    let conditional = call.body["conditional"]?.boolValue == true
                    let view: RegistrationView
                    switch WebRequestReading.registration(call.body["publicKey"], conditional: conditional, origin: origin) {
                    case .failure(let error): return .refuse(name: "TypeError", message: error.message)
                    case .success(let read): view = read
                    }
                    var notes: [PlatformSimulator.Note] = []
                    let decision = model.withLock {
                        $0.decideRegistration(view, target: target, associatedRPIDs: ["login.example.com"], now: 1, notes: &notes)
                    }
                    guard case .make(let flags) = decision else {
                        return .refuse(name: "NotAllowedError", message: "the credential manager created nothing")
                    }
                    _ = try? await page.send(
                        "WebAuthn.setResponseOverrideBits",
                        ["authenticatorId": .string(authenticator), "isBadUP": .bool(!flags.userPresent), "isBadUV": .bool(!flags.userVerified)])
                    return .proceed
                }
                installed.withLock { $0 = instrumentation }
            }
        ) { _, page in
            try await body(page, try #require(installed.withLock { $0 }))
        }
    }

    @Test(
        "after a recent autofill the provider model creates: the page gets a passkey without UP and UV",
        .enabled(if: RealBrowserTests.executable != nil, skipNote))
    func conditionalCreated() async throws {
        var provider = ProviderState()
        provider.lastAutofill = ProviderState.Autofill(username: "alice@example.com", rpID: "login.example.com", atMillis: 0)
        try await Self.withPage(provider: provider) { page, instrumentation in
            let answer = try await page.evaluate("upgrade()")
            let bytes = try #require(answer["created"]?["response"]?["attestationObject"]?.stringValue.flatMap(Base64URL.decodeIfValid), "\(answer)")
            let data = try AuthenticatorData(bytes: AttestationObject(bytes: bytes).authenticatorData)
            #expect(!data.flags.contains(.userPresent) && !data.flags.contains(.userVerified))
            #expect(data.flags.contains(.backupEligible) && data.flags.contains(.backupState))
            let kinds = instrumentation.reported.map(\.kind)
            #expect(kinds == ["create", "created"], "\(kinds)")
            #expect(instrumentation.reported.first?.body["conditional"]?.boolValue == true)
        }
    }

    @Test(
        "without an autofill the provider model declines: the page's promise rejects with NotAllowedError",
        .enabled(if: RealBrowserTests.executable != nil, skipNote))
    func conditionalDeclined() async throws {
        try await Self.withPage(provider: ProviderState()) { page, instrumentation in
            let answer = try await page.evaluate("upgrade()")
            #expect(answer["error"]?.stringValue == "NotAllowedError", "\(answer)")
            #expect(instrumentation.reported.map(\.kind) == ["create", "failed"])
        }
    }

    @Test("a signal is reported with its options and its outcome", .enabled(if: RealBrowserTests.executable != nil, skipNote))
    func signalReported() async throws {
        try await Self.withPage(provider: ProviderState()) { page, instrumentation in
            let answer = try await page.evaluate(
                """
                PublicKeyCredential.signalAllAcceptedCredentials({ rpId: "login.example.com", userId: "AQIDBA", allAcceptedCredentialIds: [] })
                  .then(() => "sent", (error) => error.name)
                """)
            #expect(answer.stringValue == "sent")
            let signal = try #require(instrumentation.reported.first { $0.kind == "signal" })
            #expect(signal.body["method"]?.stringValue == "signalAllAcceptedCredentials")
            #expect(signal.body["options"]?["userId"]?.stringValue == "AQIDBA")
            #expect(instrumentation.reported.contains { $0.kind == "signalled" })
        }
    }

    @Test(
        "a browser without the signal methods and conditional creation: the page sees neither, and its conditional create is a modal one",
        .enabled(if: RealBrowserTests.executable != nil, skipNote))
    func reducedSurface() async throws {
        try await Self.withPage(provider: ProviderState(), surface: .init(signals: false, conditionalCreate: false)) { page, instrumentation in
            #expect(try await page.evaluate("typeof PublicKeyCredential.signalUnknownCredential").stringValue == "undefined")
            #expect(try await page.evaluate("'signalAllAcceptedCredentials' in PublicKeyCredential").boolValue == false)
            let capabilities = try await page.evaluate("PublicKeyCredential.getClientCapabilities()")
            #expect(capabilities["conditionalCreate"]?.boolValue == false && capabilities["signalCurrentUserDetails"]?.boolValue == false)
            // The page asks conditionally; this browser shows its modal sheet, and the user confirms.
            let answer = try await page.evaluate("upgrade()")
            let bytes = try #require(answer["created"]?["response"]?["attestationObject"]?.stringValue.flatMap(Base64URL.decodeIfValid), "\(answer)")
            let flags = try AuthenticatorData(bytes: AttestationObject(bytes: bytes).authenticatorData).flags
            #expect(flags.contains(.userPresent) && flags.contains(.userVerified))
            let create = try #require(instrumentation.reported.first { $0.kind == "create" })
            #expect(create.body["unsupportedMediation"]?.boolValue == true && create.body["conditional"]?.boolValue == false)
            #expect(create.body["mediation"]?.stringValue == "conditional")
        }
    }
}
