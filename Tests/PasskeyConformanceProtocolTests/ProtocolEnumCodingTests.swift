import PasskeyConformanceProtocol
import Foundation
import Testing

/// The one-of protocol messages are enums with hand-written `Codable`. Each case must write the
/// exact JSON the adapter protocol has always carried, read it back to the same value, and refuse a
/// value that carries more than one case or none.
@Suite("Protocol enum coding")
struct ProtocolEnumCodingTests {
    // MARK: The earlier shape, for comparison

    /// The platform requests as they were modelled before: two optional members, synthesized `Codable`.
    struct LegacyRequest<Android: Codable, Apple: Codable>: Codable {
        var android: Android?
        var apple: Apple?
    }

    /// The outcome as it was modelled before: six optional members, synthesized `Codable`.
    struct LegacyOutcome: Codable {
        var androidRegistrationResponseJson: String?
        var androidAuthenticationResponseJson: String?
        var appleRegistration: AppleRegistration?
        var appleAssertion: AppleAssertion?
        var signalAccepted: Bool?
        var error: PlatformError?
    }

    /// The user action as it was modelled before: a kind and nine optional arguments, synthesized `Codable`.
    struct LegacyAction: Codable {
        var kind: UserAction.Kind
        var username: String?
        var rpID: String?
        var password: String?
        var secondFactor: SecondFactorOutcome?
        var method: AlternativeSignInMethod?
        var credentialID: Data?
        var newName: String?
        var newDisplayName: String?
        var confirmed: Bool?
    }

    static func text<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try Wire.encoder().encode(value), as: UTF8.self)
    }

    static func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try Wire.decoder().decode(type, from: Data(json.utf8))
    }

    /// The debug description of the `DecodingError` that decoding `json` throws, or `nil` when it decodes.
    static func decodingFailure<T: Decodable>(_ type: T.Type, _ json: String) -> String? {
        do {
            _ = try decode(type, json)
            return nil
        } catch let error as DecodingError {
            switch error {
            case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context):
                return context.debugDescription
            case .keyNotFound(let key, _):
                return "missing \(key.stringValue)"
            @unknown default:
                return "\(error)"
            }
        } catch {
            return "not a DecodingError: \(error)"
        }
    }

    // MARK: Requests

    static let androidCreate = AndroidCreatePublicKeyCredentialRequest(requestJson: #"{"challenge":"AAEC"}"#, isConditional: true)
    static let appleCreate = AppleRegistrationRequest(
        relyingPartyIdentifier: "example.com", challenge: Data([1, 2, 3]), name: "alice",
        userID: Data([9]), requestStyle: .conditional, excludedCredentials: [Data([1])])
    static let androidGet = AndroidGetPublicKeyCredentialOption(requestJson: "{}")
    static let appleGet = AppleAssertionRequest(relyingPartyIdentifier: "example.com", challenge: Data([1, 2, 3]))
    static let androidSignal = AndroidSignalRequest(type: AndroidSignalRequest.unknownCredentialType, requestJson: "{}")
    static let appleSignal = AppleSignalReport(
        interface: .credentialDataManager, method: .reportUnknownPublicKeyCredential,
        relyingPartyIdentifier: "example.com", credentialID: Data([1]))

    @Test("registration requests encode to their one platform member and decode back")
    func createRequests() throws {
        let cases: [(CreateCredentialRequest, String)] = [
            (
                .android(Self.androidCreate),
                #"{"android":{"isAutoSelectAllowed":false,"isConditional":true,"preferImmediatelyAvailableCredentials":false,"requestJson":"{\"challenge\":\"AAEC\"}"}}"#
            ),
            (
                .apple(Self.appleCreate),
                #"{"apple":{"challenge":"AQID","excludedCredentials":["AQ"],"name":"alice","relyingPartyIdentifier":"example.com","requestStyle":"conditional","userID":"CQ","userVerificationPreference":"preferred"}}"#
            ),
        ]
        for (request, json) in cases {
            #expect(try Self.text(request) == json)
            #expect(try Self.decode(CreateCredentialRequest.self, json) == request)
        }
        #expect(
            try Self.text(CreateCredentialRequest.android(Self.androidCreate))
                == Self.text(LegacyRequest<AndroidCreatePublicKeyCredentialRequest, AppleRegistrationRequest>(android: Self.androidCreate)))
        #expect(
            try Self.text(CreateCredentialRequest.apple(Self.appleCreate))
                == Self.text(LegacyRequest<AndroidCreatePublicKeyCredentialRequest, AppleRegistrationRequest>(apple: Self.appleCreate)))
    }

    @Test("sign-in requests encode to their one platform member and decode back")
    func getRequests() throws {
        let cases: [(GetCredentialRequest, String)] = [
            (.android(Self.androidGet), #"{"android":{"requestJson":"{}"}}"#),
            (
                .apple(Self.appleGet),
                #"{"apple":{"allowedCredentials":[],"challenge":"AQID","relyingPartyIdentifier":"example.com","userVerificationPreference":"preferred"}}"#
            ),
        ]
        for (request, json) in cases {
            #expect(try Self.text(request) == json)
            #expect(try Self.decode(GetCredentialRequest.self, json) == request)
        }
        #expect(
            try Self.text(GetCredentialRequest.apple(Self.appleGet))
                == Self.text(LegacyRequest<AndroidGetPublicKeyCredentialOption, AppleAssertionRequest>(apple: Self.appleGet)))
    }

    @Test("signals encode to their one platform member and decode back")
    func signalRequests() throws {
        let cases: [(SignalRequest, String)] = [
            (.android(Self.androidSignal), #"{"android":{"requestJson":"{}","type":"androidx.credentials.SIGNAL_UNKNOWN_CREDENTIAL_STATE_REQUEST_TYPE"}}"#),
            (
                .apple(Self.appleSignal),
                #"{"apple":{"credentialID":"AQ","interface":"ASCredentialDataManager","method":"reportUnknownPublicKeyCredential","relyingPartyIdentifier":"example.com"}}"#
            ),
        ]
        for (request, json) in cases {
            #expect(try Self.text(request) == json)
            #expect(try Self.decode(SignalRequest.self, json) == request)
        }
        #expect(
            try Self.text(SignalRequest.android(Self.androidSignal))
                == Self.text(LegacyRequest<AndroidSignalRequest, AppleSignalReport>(android: Self.androidSignal)))
    }

    @Test("a request with both platform members, or neither, does not decode, and says which")
    func requestShape() throws {
        let both =
            #"{"android":{"requestJson":"{}"},"apple":{"allowedCredentials":[],"challenge":"AQ","relyingPartyIdentifier":"e","userVerificationPreference":"preferred"}}"#
        let bothText = #"the request carries both "android" and "apple"; exactly one is allowed"#
        let neitherText = #"the request carries none of "android", "apple" or "web"; exactly one is required"#
        #expect(Self.decodingFailure(GetCredentialRequest.self, both) == bothText)
        #expect(Self.decodingFailure(GetCredentialRequest.self, "{}") == neitherText)
        #expect(Self.decodingFailure(GetCredentialRequest.self, #"{"android":null,"apple":null}"#) == neitherText)
        let create =
            #"{"android":{"isAutoSelectAllowed":false,"isConditional":true,"preferImmediatelyAvailableCredentials":false,"requestJson":"{}"},"apple":{"challenge":"AQ","name":"a","relyingPartyIdentifier":"e","userID":"AQ","userVerificationPreference":"preferred"}}"#
        #expect(Self.decodingFailure(CreateCredentialRequest.self, create) == bothText)
        #expect(Self.decodingFailure(CreateCredentialRequest.self, #"{"ios":{}}"#) == neitherText)
        let signal =
            #"{"android":{"requestJson":"{}","type":"t"},"apple":{"interface":"ASCredentialUpdater","method":"reportUnknownPublicKeyCredential","relyingPartyIdentifier":"e"}}"#
        #expect(Self.decodingFailure(SignalRequest.self, signal) == bothText)
        #expect(Self.decodingFailure(SignalRequest.self, "{}") == neitherText)
        // A null member counts as absent, as it always has.
        #expect(try Self.decode(GetCredentialRequest.self, #"{"android":{"requestJson":"{}"},"apple":null}"#) == .android(Self.androidGet))
    }

    // MARK: Outcomes

    static let registration = AppleRegistration(credentialID: Data([1]), rawClientDataJSON: Data([2]), rawAttestationObject: Data([3]))
    static let assertion = AppleAssertion(
        credentialID: Data([1]), userID: Data([2]), rawClientDataJSON: Data([3]), rawAuthenticatorData: Data([4]),
        signature: Data([5]))
    static let error = PlatformError.android(
        AndroidCredentialException(name: "SignalCredentialRateLimitExceededException", type: "rate", message: "slow down", retryMillis: 1_500))

    struct OutcomeCase {
        let outcome: PlatformOutcome
        let json: String
        let legacy: LegacyOutcome
        init(_ outcome: PlatformOutcome, _ json: String, _ legacy: LegacyOutcome) {
            self.outcome = outcome
            self.json = json
            self.legacy = legacy
        }
    }

    static let outcomes: [OutcomeCase] = [
        OutcomeCase(
            .androidRegistration(responseJson: #"{"id":"AQ"}"#), #"{"androidRegistrationResponseJson":"{\"id\":\"AQ\"}"}"#,
            LegacyOutcome(androidRegistrationResponseJson: #"{"id":"AQ"}"#)),
        OutcomeCase(
            .androidAuthentication(responseJson: "{}"), #"{"androidAuthenticationResponseJson":"{}"}"#,
            LegacyOutcome(androidAuthenticationResponseJson: "{}")),
        OutcomeCase(
            .appleRegistration(registration), #"{"appleRegistration":{"credentialID":"AQ","rawAttestationObject":"Aw","rawClientDataJSON":"Ag"}}"#,
            LegacyOutcome(appleRegistration: registration)),
        OutcomeCase(
            .appleAssertion(assertion),
            #"{"appleAssertion":{"credentialID":"AQ","rawAuthenticatorData":"BA","rawClientDataJSON":"Aw","signature":"BQ","userID":"Ag"}}"#,
            LegacyOutcome(appleAssertion: assertion)),
        OutcomeCase(.signalAccepted, #"{"signalAccepted":true}"#, LegacyOutcome(signalAccepted: true)),
        OutcomeCase(
            .failure(error), #"{"error":{"message":"slow down","name":"SignalCredentialRateLimitExceededException","retryMillis":1500,"type":"rate"}}"#,
            LegacyOutcome(error: error)),
    ]

    @Test("every outcome case encodes to its one member, as the optional-member form did, and decodes back")
    func outcomes() throws {
        for (outcome, json, legacy) in Self.outcomes.map({ ($0.outcome, $0.json, $0.legacy) }) {
            #expect(try Self.text(outcome) == json)
            #expect(try Self.text(legacy) == json)
            #expect(try Self.decode(PlatformOutcome.self, json) == outcome)
        }
    }

    @Test("an outcome with no member, two members or a refused signalAccepted does not decode")
    func outcomeShape() {
        #expect(Self.decodingFailure(PlatformOutcome.self, "{}")?.hasPrefix("the outcome carries none of") == true)
        #expect(Self.decodingFailure(PlatformOutcome.self, #"{"error":null}"#)?.hasPrefix("the outcome carries none of") == true)
        let two = #"{"signalAccepted":true,"error":{"message":"m","name":"E"}}"#
        #expect(Self.decodingFailure(PlatformOutcome.self, two)?.hasPrefix("the outcome carries 2 of") == true)
        #expect(Self.decodingFailure(PlatformOutcome.self, #"{"signalAccepted":false}"#)?.contains("signalAccepted must be true") == true)
    }

    // MARK: User actions

    struct ActionCase {
        let action: UserAction
        let json: String
        let legacy: LegacyAction
        init(_ action: UserAction, _ json: String, _ legacy: LegacyAction) {
            self.action = action
            self.json = json
            self.legacy = legacy
        }
    }

    static let actions: [ActionCase] = [
        ActionCase(
            .passwordSignIn(username: "alice@example.com", password: "correct horse"),
            #"{"kind":"password-sign-in","password":"correct horse","username":"alice@example.com"}"#,
            LegacyAction(kind: .passwordSignIn, username: "alice@example.com", password: "correct horse")),
        ActionCase(.secondFactor(.expired), #"{"kind":"second-factor","secondFactor":"expired"}"#, LegacyAction(kind: .secondFactor, secondFactor: .expired)),
        ActionCase(.recoverySignIn(username: "a"), #"{"kind":"recovery-sign-in","username":"a"}"#, LegacyAction(kind: .recoverySignIn, username: "a")),
        ActionCase(
            .alternativeSignIn(username: "a", method: .magicLink), #"{"kind":"alternative-sign-in","method":"magic-link","username":"a"}"#,
            LegacyAction(kind: .alternativeSignIn, username: "a", method: .magicLink)),
        ActionCase(
            .passkeySignIn(username: "a", rpID: "example.com"), #"{"kind":"passkey-sign-in","rpID":"example.com","username":"a"}"#,
            LegacyAction(kind: .passkeySignIn, username: "a", rpID: "example.com")),
        ActionCase(.passkeySignIn(username: nil, rpID: nil), #"{"kind":"passkey-sign-in"}"#, LegacyAction(kind: .passkeySignIn)),
        ActionCase(.signOut, #"{"kind":"sign-out"}"#, LegacyAction(kind: .signOut)),
        ActionCase(
            .switchAccount(username: "b", password: "p"), #"{"kind":"switch-account","password":"p","username":"b"}"#,
            LegacyAction(kind: .switchAccount, username: "b", password: "p")),
        ActionCase(.createPasskey, #"{"kind":"create-passkey"}"#, LegacyAction(kind: .createPasskey)),
        ActionCase(
            .revokePasskey(credentialID: Data([1, 2])), #"{"credentialID":"AQI","kind":"revoke-passkey"}"#,
            LegacyAction(kind: .revokePasskey, credentialID: Data([1, 2]))),
        ActionCase(
            .rename(newName: "n", newDisplayName: nil, confirmed: false), #"{"confirmed":false,"kind":"rename","newName":"n"}"#,
            LegacyAction(kind: .rename, newName: "n", confirmed: false)),
        ActionCase(
            .rename(newName: nil, newDisplayName: "D", confirmed: true), #"{"confirmed":true,"kind":"rename","newDisplayName":"D"}"#,
            LegacyAction(kind: .rename, newDisplayName: "D", confirmed: true)),
        ActionCase(.refresh, #"{"kind":"refresh"}"#, LegacyAction(kind: .refresh)),
        ActionCase(.managePasskeys, #"{"kind":"manage-passkeys"}"#, LegacyAction(kind: .managePasskeys)),
        ActionCase(.relaunch, #"{"kind":"relaunch"}"#, LegacyAction(kind: .relaunch)),
    ]

    @Test("every user action encodes its kind and arguments, as the optional-member form did, and decodes back")
    func userActions() throws {
        for (action, json, legacy) in Self.actions.map({ ($0.action, $0.json, $0.legacy) }) {
            #expect(try Self.text(action) == json)
            #expect(try Self.text(legacy) == json)
            #expect(try Self.decode(UserAction.self, json) == action)
            #expect(action.kind == legacy.kind)
        }
        #expect(Set(Self.actions.map(\.action.kind)) == Set(UserAction.Kind.allCases), "a kind has no case above")
    }

    @Test("a user action missing an argument its kind requires does not decode; arguments of other kinds are ignored")
    func userActionShape() throws {
        #expect(Self.decodingFailure(UserAction.self, #"{"kind":"password-sign-in","username":"a"}"#) == "missing password")
        #expect(Self.decodingFailure(UserAction.self, #"{"kind":"revoke-passkey"}"#) == "missing credentialID")
        #expect(Self.decodingFailure(UserAction.self, #"{"kind":"rename","newName":"n"}"#) == "missing confirmed")
        #expect(Self.decodingFailure(UserAction.self, #"{"kind":"dance"}"#) != nil)
        #expect(try Self.decode(UserAction.self, #"{"kind":"refresh","username":"a"}"#) == .refresh)
    }
}
