@testable import ConformanceKit
import Foundation
import Testing
import WebAuthn

/// The reading of `signal-ids-exact` (N3.2-AC09) on hand-made requests: what it accepts and, for
/// each representation it rejects, the verify item it names.
@Suite("explore: exact representations in signals")
struct ExploreRepresentationTests {
    static let handle = Data([0xFB, 0xFF, 0x01, 0x02, 0x03, 0x3E, 0x3F, 0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48])
    static let ids = [
        Data([0xFF, 0xEE, 0xDD, 0xCC, 0xBB, 0xAA, 0x99, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, 0x00, 0xFE]),
        Data([0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F, 0x10]),
    ]
    static let exact = InvariantMonitor.ExactValues(
        accounts: [
            AccountSnapshot(
                username: "alice@example.com", accountID: "acct-1001", userHandle: handle, rpID: "example.com",
                name: "alice@example.com", displayName: "Alice",
                credentials: ids.map { CredentialSnapshot(credentialID: $0, rpID: "example.com", state: .active) })
        ],
        providerIDs: [])

    static func android(_ type: String, _ members: [String: JSONValue]) -> SignalRequest {
        SignalRequest.android(AndroidSignalRequest(type: type, requestJson: Wire.jsonString(JSONValue.object(members))))
    }

    static func accepted(userId: String, ids: JSONValue) -> SignalRequest {
        android(AndroidSignalRequest.allAcceptedCredentialsType, ["rpId": .string("example.com"), "userId": .string(userId), "allAcceptedCredentialIds": ids])
    }

    static func apple(_ method: AppleSignalMethod, credentialID: Data? = nil, userHandle: Data? = nil, accepted: [Data]? = nil) -> SignalRequest {
        SignalRequest.apple(
            AppleSignalReport(
                interface: .credentialDataManager, method: method, relyingPartyIdentifier: "example.com",
                credentialID: credentialID, userHandle: userHandle, acceptedCredentialIDs: accepted))
    }

    static func item(_ request: SignalRequest) -> VerifyItemID? { InvariantMonitor.representationProblem(request, exact: exact)?.item }

    @Test("the server's exact values pass, on Android as unpadded base64url in an array, on Apple as raw bytes; zero, one and several ids")
    func exactValuesPass() {
        for count in 0...2 {
            #expect(
                Self.item(Self.accepted(userId: Base64URL.encode(Self.handle), ids: .array(Self.ids.prefix(count).map { .string(Base64URL.encode($0)) })))
                    == nil)
            #expect(Self.item(Self.apple(.reportAllAcceptedPublicKeyCredentials, userHandle: Self.handle, accepted: Array(Self.ids.prefix(count)))) == nil)
        }
        #expect(
            Self.item(
                Self.android(
                    AndroidSignalRequest.unknownCredentialType, ["rpId": .string("example.com"), "credentialId": .string(Base64URL.encode(Self.ids[0]))]))
                == nil)
        #expect(Self.item(Self.apple(.reportUnknownPublicKeyCredential, credentialID: Self.ids[1])) == nil)
    }

    @Test("Android: padded standard base64, a joined string and an id the server does not hold break V2")
    func androidRepresentations() {
        #expect(Self.item(Self.accepted(userId: Self.handle.base64EncodedString(), ids: .array([]))) == "N3.2-AC09.V2")
        #expect(Self.item(Self.accepted(userId: Base64URL.encode(Self.handle), ids: .array([.string(Self.ids[0].base64EncodedString())]))) == "N3.2-AC09.V2")
        #expect(
            Self.item(Self.accepted(userId: Base64URL.encode(Self.handle), ids: .string(Self.ids.map(Base64URL.encode).joined(separator: ","))))
                == "N3.2-AC09.V2")
        #expect(Self.item(Self.accepted(userId: Base64URL.encode(Self.handle), ids: .array([.string(Base64URL.encode(Data([1, 2, 3])))]))) == "N3.2-AC09.V2")
    }

    @Test("Apple: the bytes of base64url text instead of raw ids break V1")
    func appleRepresentations() {
        let text = Data(Base64URL.encode(Self.handle).utf8)
        #expect(Self.item(Self.apple(.reportAllAcceptedPublicKeyCredentials, userHandle: text, accepted: [])) == "N3.2-AC09.V1")
        #expect(
            Self.item(Self.apple(.reportAllAcceptedPublicKeyCredentials, userHandle: Self.handle, accepted: [Data(Base64URL.encode(Self.ids[0]).utf8)]))
                == "N3.2-AC09.V1")
        #expect(Self.item(Self.apple(.reportUnknownPublicKeyCredential, credentialID: Data(Base64URL.encode(Self.ids[0]).utf8))) == "N3.2-AC09.V1")
    }

    @Test("a product account id as the user handle breaks V4 on both platforms")
    func accountIDAsUserHandle() {
        let accountID = Data("acct-1001".utf8)
        #expect(Self.item(Self.accepted(userId: Base64URL.encode(accountID), ids: .array([]))) == "N3.2-AC09.V4")
        #expect(Self.item(Self.apple(.reportPublicKeyCredentialUpdate, userHandle: accountID)) == "N3.2-AC09.V4")
    }
}
