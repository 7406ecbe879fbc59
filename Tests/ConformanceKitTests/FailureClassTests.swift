@testable import ConformanceKit
import ConformanceTestSupport
import Foundation
import Testing

/// The failure classes of a conditional registration and the checks that read them.
@Suite("Failure classes and opaque user handles")
struct FailureClassTests {
    @Test("every failure class is documented with its handling, and the expected no-ops are the silent ones")
    func documented() throws {
        let text = try String(contentsOf: PackagePaths.root.appendingPathComponent("Documentation/platform-failures.md"), encoding: .utf8)
        for failure in CreateFailureClass.all {
            #expect(text.contains("| `\(failure.id)` |"), "\(failure.id) is not documented")
            #expect(text.contains(failure.handling == .silent ? "silent" : "recorded"))
        }
        let silent = CreateFailureClass.all.filter { $0.handling == .silent }.map(\.id)
        #expect(
            silent == [
                "CreateCredentialNoCreateOptionException", "ASAuthorizationError.canceled",
                "ASAuthorizationError.matchedExcludedCredential", "ASAuthorizationError.deviceNotConfiguredForPasskeyCreation", "NotAllowedError",
            ])
        #expect(Set(CreateFailureClass.all.map(\.id)).count == CreateFailureClass.all.count)
    }

    @Test("a telemetry record names a class only with its exception (and DOM error) or code")
    func telemetryNaming() throws {
        let dom = try #require(CreateFailureClass.named("CreatePublicKeyCredentialDomException NotAllowedError"))
        #expect(World.names(TelemetryEvent("failed", ["error": "CreatePublicKeyCredentialDomException", "dom": "NotAllowedError"]), dom.telemetrySpellings))
        #expect(World.names(TelemetryEvent("failed", ["error": "CreatePublicKeyCredentialDomException", "type": dom.error.type!]), dom.telemetrySpellings))
        #expect(!World.names(TelemetryEvent("failed", ["error": "CreatePublicKeyCredentialDomException"]), dom.telemetrySpellings))
        #expect(!World.names(TelemetryEvent("conditional-create-ineligible", [:]), dom.telemetrySpellings))
        let apple = try #require(CreateFailureClass.named("ASAuthorizationError.failed"))
        #expect(World.names(TelemetryEvent("failed", ["code": "1004"]), apple.telemetrySpellings))
        #expect(World.names(TelemetryEvent("failed", ["error": "ASAuthorizationError.failed"]), apple.telemetrySpellings))
        #expect(!World.names(TelemetryEvent("failed", ["code": "1001"]), apple.telemetrySpellings))
        #expect(World.failureClass(of: apple.error) == apple)
    }

    @Test("a failure written as the platform's own toString() or description names its class; a bare case name or code in free text does not")
    func platformDescriptions() throws {
        func named(_ id: String, _ text: String) throws -> Bool {
            World.names(TelemetryEvent("failed", ["message": text]), try #require(CreateFailureClass.named(id)).telemetrySpellings)
        }
        let unsupported = "CreateCredentialUnsupportedException"
        #expect(try named(unsupported, "androidx.credentials.exceptions.CreateCredentialUnsupportedException: no create options available"))
        #expect(try named(unsupported, "create failed (androidx.credentials.TYPE_CREATE_CREDENTIAL_UNSUPPORTED_EXCEPTION)"))
        #expect(try !named(unsupported, "androidx.credentials.exceptions.CreateCredentialUnknownException: unsupported"))
        #expect(try !named(unsupported, "XCreateCredentialUnsupportedExceptionY"))
        #expect(try named("ASAuthorizationError.failed", #"Error Domain=com.apple.AuthenticationServices.AuthorizationError Code=1004 "(null)""#))
        #expect(try !named("ASAuthorizationError.failed", #"Error Domain=com.apple.AuthenticationServices.AuthorizationError Code=1001 "(null)""#))
        #expect(try !named("ASAuthorizationError.failed", "upgrade took 1004 ms"))
        #expect(try !named("ASAuthorizationError.unknown", "the request failed for an unknown reason"))
    }

    @Test("a failure class is recognised in every spelling of its platform, and only its own")
    func telemetrySpellings() throws {
        func named(_ id: String, _ attributes: [String: String]) throws -> Bool {
            World.names(TelemetryEvent("failed", attributes), try #require(CreateFailureClass.named(id)).telemetrySpellings)
        }
        let unsupported = "CreateCredentialUnsupportedException"
        #expect(try named(unsupported, ["type": "androidx.credentials.TYPE_CREATE_CREDENTIAL_UNSUPPORTED_EXCEPTION"]))
        #expect(try named(unsupported, ["exception": "androidx.credentials.exceptions.CreateCredentialUnsupportedException"]))
        #expect(try !named(unsupported, ["type": "androidx.credentials.TYPE_CREATE_CREDENTIAL_PROVIDER_CONFIGURATION_EXCEPTION"]))
        #expect(try named("CreateCredentialUnknownException", ["type": "androidx.credentials.TYPE_CREATE_CREDENTIAL_UNKNOWN_EXCEPTION"]))
        #expect(try named("CreateCredentialCustomException", ["type": "com.example.provider.STORAGE_FULL"]))
        let notAllowed = "CreatePublicKeyCredentialDomException NotAllowedError"
        for type in [
            "androidx.credentials.TYPE_CREATE_PUBLIC_KEY_CREDENTIAL_DOM_EXCEPTION/androidx.credentials.TYPE_NOT_ALLOWED_ERROR",
            "androidx.credentials.TYPE_CREATE_PUBLIC_KEY_CREDENTIAL_DOM_EXCEPTIONandroidx.credentials.TYPE_CREATE_PUBLIC_KEY_CREDENTIAL_NOT_ALLOWED_ERROR",
            "androidx.credentials.TYPE_CREATE_PUBLIC_KEY_CREDENTIAL_NOT_ALLOWED_ERROR",
        ] {
            #expect(try named(notAllowed, ["type": type]), "\(type)")
        }
        #expect(
            try named(
                notAllowed,
                [
                    "exception": "androidx.credentials.exceptions.publickeycredential.CreatePublicKeyCredentialDomException",
                    "dom": "androidx.credentials.exceptions.domerrors.NotAllowedError",
                ]))
        #expect(try !named(notAllowed, ["type": "androidx.credentials.TYPE_CREATE_PUBLIC_KEY_CREDENTIAL_DOM_EXCEPTION/androidx.credentials.TYPE_ABORT_ERROR"]))
        #expect(try named("ASAuthorizationError.failed", ["domain": "com.apple.AuthenticationServices.AuthorizationError", "code": "1004"]))
        #expect(try named("ASAuthorizationError.failed", ["code": "failed"]))
        #expect(try named("ASAuthorizationError.notHandled", ["error": "ASAuthorizationError.Code.notHandled"]))
        #expect(try named("ASAuthorizationError.notHandled", ["error": "ASAuthorizationErrorNotHandled"]))
        #expect(try !named("ASAuthorizationError.notHandled", ["domain": "com.apple.AuthenticationServices.AuthorizationError", "code": "1004"]))
        #expect(CreateFailureClass.constantName(ofDOMError: "InvalidStateError") == "INVALID_STATE")
    }

    @Test("a user handle carrying a name or id in any encoding is not opaque; random bytes are")
    func opaqueHandles() {
        let values: [(label: String, value: String)] = [("username", "alice@example.com"), ("product account id", "acct-000001")]
        let email = Data("alice@example.com".utf8)
        let hexID = Data(Data("acct-000001".utf8).map { String(format: "%02x", $0) }.joined().utf8)
        let base64 = Data(Data("alice@example.com".utf8).base64EncodedString().utf8)
        let prefixed = Data("user:".utf8) + Data("acct-000001".utf8)
        for leaking in [email, hexID, base64, prefixed] {
            #expect(OpaqueHandle.leak(in: leaking, values: values) != nil, "\(String(decoding: leaking, as: UTF8.self))")
        }
        let random = Data((0..<32).map { UInt8(($0 * 37 + 11) % 256) })
        #expect(OpaqueHandle.leak(in: random, values: values) == nil)
        #expect(OpaqueHandle.uuidText(Data(repeating: 0xAB, count: 16)) == "abababab-abab-abab-abab-abababababab")
    }

    @Test("a short numeric account id is compared as a value: a random handle whose UUID text contains its digits is opaque")
    func shortNumericIDs() throws {
        let values: [(label: String, value: String)] = [("product account id", "669")]
        // A random 16-byte handle whose UUID text contains "669", the case a substring test failed.
        let random = try #require(UUID(uuidString: "3f2a6691-0c4e-4b7d-9e1a-5d8c2b7f1e60")).uuid
        let handle = withUnsafeBytes(of: random) { Data($0) }
        #expect(OpaqueHandle.uuidText(handle)?.contains("669") == true)
        #expect(OpaqueHandle.leak(in: handle, values: values) == nil)
        // The id itself, as text or as a number, is not opaque.
        #expect(OpaqueHandle.leak(in: Data("669".utf8), values: values) != nil)
        #expect(OpaqueHandle.leak(in: Data([0, 0, 0, 0, 0, 0, 0x02, 0x9D]), values: values) != nil)
        #expect(OpaqueHandle.leak(in: Data("user-id-669-hex:363639".utf8), values: values) != nil)
        // A UUID account id is the handle when the handle is its 16 bytes.
        let uuidID = "3f2a6691-0c4e-4b7d-9e1a-5d8c2b7f1e60"
        #expect(OpaqueHandle.leak(in: handle, values: [("product account id", uuidID)]) != nil)
    }
}
