import Foundation
import TestSupportCore
import Testing
@testable import WebAuthn

extension Data {
    /// Bytes from hexadecimal text; spaces are ignored. Traps on invalid text (test input only).
    init(hex: String) {
        let digits = hex.filter { !$0.isWhitespace }
        precondition(digits.count.isMultiple(of: 2), "odd hex length")
        var bytes: [UInt8] = []
        var index = digits.startIndex
        while index < digits.endIndex {
            let next = digits.index(index, offsetBy: 2)
            bytes.append(UInt8(digits[index..<next], radix: 16)!)
            index = next
        }
        self.init(bytes)
    }

    /// Lowercase hexadecimal text.
    var hex: String { map { String(format: "%02x", $0) }.joined() }
}

/// The project's SplitMix64, so that fuzz runs are reproducible.
typealias SeededGenerator = SplitMix64

extension SplitMix64 {
    /// `count` bytes drawn one by one through the standard library's sampling of `UInt8`.
    mutating func bytes(_ count: Int) -> Data {
        Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &self) })
    }
}

/// A relying party, an authenticator and one registration, shared by verifier tests.
struct Ceremony {
    static let rpId = "example.com"
    static let origin = "https://example.com"
    static let registrationChallenge = Data(hex: "0102030405060708090a0b0c0d0e0f10")
    static let assertionChallenge = Data(hex: "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf")
    static let userHandle = Data("user-1234".utf8)

    let authenticator: VirtualAuthenticator
    let verifier = WebAuthnVerifier(policy: .init(rpId: Ceremony.rpId, allowedOrigins: [Ceremony.origin]))

    init(configuration: VirtualAuthenticator.Configuration = .init()) throws {
        authenticator = try VirtualAuthenticator(seed: Data("ceremony-seed".utf8), configuration: configuration)
    }

    static func clientData(
        _ type: CollectedClientData.CeremonyType, challenge: Data? = nil,
        origin: String = Ceremony.origin
    ) -> CollectedClientData {
        CollectedClientData(
            type: type, challenge: challenge ?? (type == .create ? registrationChallenge : assertionChallenge),
            origin: origin)
    }

    /// Registers a credential and returns the authenticator's result with the client data JSON.
    func register(
        clientData: CollectedClientData = Ceremony.clientData(.create), rpId: String = Ceremony.rpId,
        flags: AuthenticatorData.Flags = [.userPresent, .userVerified]
    ) throws
        -> (registration: VirtualAuthenticator.Registration, clientDataJSON: Data)
    {
        let json = clientData.jsonBytes
        let registration = try authenticator.makeCredential(
            rpId: rpId, userHandle: Ceremony.userHandle,
            clientDataHash: SHA256.hash(json), flags: flags)
        return (registration, json)
    }

    /// Registers and verifies, returning the stored record and the authenticator's credential.
    func registeredRecord(flags: AuthenticatorData.Flags = [.userPresent, .userVerified]) throws
        -> (record: WebAuthnVerifier.CredentialRecord, credential: VirtualAuthenticator.Credential)
    {
        let (registration, json) = try register(flags: flags)
        let outcome = verifier.verifyRegistration(
            clientDataJSON: json, attestationObject: registration.attestationObject,
            expecting: .init(challenge: Ceremony.registrationChallenge))
        let verified = try #require(outcome.value, "registration rejected: \(String(describing: outcome.reason))")
        return (verified.credential, registration.credential)
    }
}
