import ConformanceBrowser
import ConformanceModel
import Foundation
import Testing
import WebAuthn

/// A passkey the credential manager holds from before the test case: the harness makes its key,
/// the browser signs a sign-in with it.
@Suite("Passkeys put into the browser's authenticator", .serialized, .timeLimit(.minutes(5)))
struct BrowserPasskeysTests {
    @Test(
        "a sign-in with a passkey the harness made is signed by the browser with that key",
        .enabled(if: RealBrowserTests.executable != nil, RealBrowserTests.skipNote))
    func signIn() async throws {
        try await BrowserFixture.withPage(routes: [RealBrowserTests.route], loading: RealBrowserTests.origin + "/") { _, page in
            let authenticator = try await page.addVirtualAuthenticator()
            let key = try P256SigningKey(seed: Data("alice's passkey".utf8))
            let id = Data((0..<16).map { UInt8($0) })
            try await BrowserPasskeys.add(
                to: page, authenticator: authenticator, credentialID: id, key: key, rpID: "login.example.com", userHandle: Data([1, 2, 3, 4]),
                userName: "alice@example.com", displayName: "Alice")
            let json = try await page.evaluate(
                """
                (async () => (await navigator.credentials.get({ publicKey: {
                  challenge: new Uint8Array(16).fill(5), rpId: "login.example.com",
                  allowCredentials: [{ type: "public-key", id: new Uint8Array([\(id.map(String.init).joined(separator: ","))]) }] } })).toJSON())()
                """)
            #expect(json["rawId"]?.stringValue.flatMap(Base64URL.decodeIfValid) == id)
            let response = try #require(json["response"])
            let clientDataJSON = try #require(response["clientDataJSON"]?.stringValue.flatMap(Base64URL.decodeIfValid))
            let authenticatorData = try #require(response["authenticatorData"]?.stringValue.flatMap(Base64URL.decodeIfValid))
            let signature = try #require(response["signature"]?.stringValue.flatMap(Base64URL.decodeIfValid))
            #expect(response["userHandle"]?.stringValue.flatMap(Base64URL.decodeIfValid) == Data([1, 2, 3, 4]))
            #expect(key.publicKey.isValidSignature(signature, for: authenticatorData + SHA256.hash(clientDataJSON)))
            let flags = try AuthenticatorData(bytes: authenticatorData).flags
            #expect(flags.contains(.backupEligible) && flags.contains(.backupState))
        }
    }
}
