@testable import ConformanceBrowser
import ConformanceModel
import Foundation
import Testing
import WebAuthn

/// Real Chromium over its DevTools pipe: the browser's own WebAuthn implementation and virtual
/// authenticator make the bytes, and the harness's WebAuthn module reads them. Skipped, with a
/// note, where no Chromium is installed (`.ci/run` installs Debian's).
@Suite("A real browser over the DevTools pipe", .serialized, .timeLimit(.minutes(5)))
struct RealBrowserTests {
    static let executable = DevToolsPipe.findBrowser()
    static let skipNote: Comment = "needs Chromium (apt-get install chromium, or PASSKEY_CONFORMANCE_CHROMIUM=<path>)"
    static let origin = "https://login.example.com"

    /// A page of the relying party, served at its real origin by the page's own route.
    static let route = BrowserPage.Route(origin: origin) { _, _, _ in
        BrowserPage.Response(contentType: "text/html", body: Data("<!doctype html><title>sign in</title><p>relying party</p>".utf8))
    }

    /// Registers a passkey for `user` through `navigator.credentials.create` and returns the
    /// result's JSON (`PublicKeyCredential.toJSON()`).
    static func register(_ page: BrowserPage, user: String) async throws -> JSONValue {
        try await page.evaluate(
            """
            (async () => {
              const credential = await navigator.credentials.create({ publicKey: {
                challenge: new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]),
                rp: { id: "login.example.com", name: "Example" },
                user: { id: new TextEncoder().encode("\(user)-handle"), name: "\(user)@example.com", displayName: "\(user)" },
                pubKeyCredParams: [{ type: "public-key", alg: -7 }],
                authenticatorSelection: { residentKey: "required", userVerification: "preferred" } } });
              return credential.toJSON();
            })()
            """)
    }

    static func withPage(_ body: (Browser, BrowserPage) async throws -> Void) async throws {
        try await BrowserFixture.withPage(routes: [route], loading: origin + "/", body)
    }

    @Test("a registration carries the page's real origin, the RP ID's hash and UP and UV set", .enabled(if: executable != nil, skipNote))
    func registration() async throws {
        try await Self.withPage { browser, page in
            #expect(try await browser.version().contains("Chrome"))
            _ = try await page.addVirtualAuthenticator()
            let json = try await Self.register(page, user: "alice")
            let response = try #require(json["response"])
            let clientData = try CollectedClientData(jsonBytes: try #require(response["clientDataJSON"]?.stringValue.flatMap(Base64URL.decodeIfValid)))
            #expect(clientData.origin == Self.origin)
            #expect(clientData.type == .create)
            let attestation = try AttestationObject(bytes: try #require(response["attestationObject"]?.stringValue.flatMap(Base64URL.decodeIfValid)))
            let data = try AuthenticatorData(bytes: attestation.authenticatorData)
            #expect(data.rpIdHash == SHA256.hash(Data("login.example.com".utf8)))
            #expect(data.flags.contains(.userPresent) && data.flags.contains(.userVerified))
            #expect(json["id"]?.stringValue == json["rawId"]?.stringValue)
        }
    }

    @Test("the response override bits make a registration without user presence or verification", .enabled(if: executable != nil, skipNote))
    func overrideBits() async throws {
        try await Self.withPage { _, page in
            let authenticator = try await page.addVirtualAuthenticator()
            try await page.send(
                "WebAuthn.setResponseOverrideBits", ["authenticatorId": .string(authenticator), "isBadUP": .bool(true), "isBadUV": .bool(true)])
            let json = try await Self.register(page, user: "bob")
            let bytes = try #require(json["response"]?["attestationObject"]?.stringValue.flatMap(Base64URL.decodeIfValid))
            let flags = try AuthenticatorData(bytes: AttestationObject(bytes: bytes).authenticatorData).flags
            #expect(!flags.contains(.userPresent) && !flags.contains(.userVerified))
        }
    }

    @Test("signalUnknownCredential reaches the authenticator: the credential is deleted", .enabled(if: executable != nil, skipNote))
    func unknownCredentialSignal() async throws {
        try await Self.withPage { _, page in
            let authenticator = try await page.addVirtualAuthenticator()
            let id = try #require(try await Self.register(page, user: "carol")["id"]?.stringValue)
            let held = try await page.send("WebAuthn.getCredentials", ["authenticatorId": .string(authenticator)])["credentials"]?.arrayValue ?? []
            #expect(held.count == 1)
            let deleted = try await page.next("WebAuthn.credentialDeleted") {
                _ = try await page.evaluate(
                    "PublicKeyCredential.signalUnknownCredential({ rpId: 'login.example.com', credentialId: '\(id)' }).then(() => 'sent')")
            }
            // DevTools writes binary as standard base64, the page as base64url.
            #expect(deleted["credentialId"]?.stringValue.flatMap { Data(base64Encoded: $0) } == Base64URL.decodeIfValid(id), "\(deleted)")
            let left = try await page.send("WebAuthn.getCredentials", ["authenticatorId": .string(authenticator)])["credentials"]?.arrayValue ?? []
            #expect(left.isEmpty)
        }
    }

    @Test("a request to a host the page does not route fails as the network would", .enabled(if: executable != nil, skipNote))
    func noNetwork() async throws {
        try await Self.withPage { _, page in
            let outcome = try await page.evaluate("fetch('https://elsewhere.example/').then(() => 'reached', e => 'failed: ' + e.name)")
            #expect(outcome.stringValue?.hasPrefix("failed") == true, "\(outcome)")
        }
    }

    @Test("the browser ends by itself when the harness's end of the pipe closes", .enabled(if: executable != nil, skipNote))
    func endsWithThePipe() async throws {
        let browser = try Browser.launch(executable: try #require(Self.executable))
        #expect(try await browser.version().contains("Chrome"))
        #expect(browser.pipe.isRunning)
        // No Browser.close: only the pipe goes, as when the harness is killed.
        _ = browser.pipe.dropPipe()
        #expect(!browser.pipe.isRunning)
        await #expect(throws: DevToolsPipe.Failure.self) { try await browser.pipe.send("Browser.getVersion") }
    }

    @Test("a page that never answers fails after its deadline instead of hanging the run", .enabled(if: executable != nil, skipNote))
    func deadlines() async throws {
        try await Self.withPage { _, page in
            do {
                _ = try await page.evaluate("new Promise(() => {})", deadline: .seconds(1))
                Issue.record("a promise that never settles was answered")
            } catch let failure as DevToolsPipe.Failure {
                #expect(failure.description.contains("no answer within"), "\(failure)")
            }
            do {
                _ = try await page.next("Page.loadEventFired", deadline: .seconds(1)) {}
                Issue.record("an event nothing caused arrived")
            } catch let failure as DevToolsPipe.Failure {
                #expect(failure.description.contains("no Page.loadEventFired event within"), "\(failure)")
            }
            // The page still answers afterwards.
            #expect(try await page.evaluate("1 + 1").numberValue == 2)
        }
    }
}
