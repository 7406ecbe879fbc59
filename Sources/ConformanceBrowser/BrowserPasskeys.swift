import ConformanceModel
import Foundation
import WebAuthn

/// Passkeys the credential manager holds from before the test case, put into the page's virtual
/// authenticator (`WebAuthn.addCredential`): the harness makes the key, so it knows the public key
/// the server is told of, and the browser signs with it.
package enum BrowserPasskeys {
    /// Adds a passkey to the authenticator `authenticator` of `page`: a resident one unless
    /// `resident` is false.
    package static func add(
        to page: BrowserPage, authenticator: String, credentialID: Data, key: P256SigningKey, rpID: String, userHandle: Data,
        userName: String, displayName: String, backedUp: Bool = true, resident: Bool = true
    ) async throws {
        let credential: JSONValue = .object([
            "credentialId": .string(credentialID.base64EncodedString()), "isResidentCredential": .bool(resident), "rpId": .string(rpID),
            "privateKey": .string(pkcs8(key).base64EncodedString()), "userHandle": .string(userHandle.base64EncodedString()),
            "signCount": .number(0), "userName": .string(userName), "userDisplayName": .string(displayName),
            "backupEligibility": .bool(backedUp), "backupState": .bool(backedUp),
        ])
        try await page.send("WebAuthn.addCredential", ["authenticatorId": .string(authenticator), "credential": credential])
    }

    /// The key as a PKCS #8 `PrivateKeyInfo` (RFC 5208) holding an `ECPrivateKey` (RFC 5915) of
    /// the curve P-256 with its public point: the form DevTools takes. Only DER framing around
    /// the key's own bytes; no arithmetic.
    static func pkcs8(_ key: P256SigningKey) -> Data {
        let point = key.publicKey.uncompressedPoint
        // ECPrivateKey: version 1, the private scalar, [1] the public key as a BIT STRING.
        var ecPrivateKey = Data([0x02, 0x01, 0x01, 0x04, 0x20]) + key.privateScalar
        ecPrivateKey += Data([0xA1, 0x44, 0x03, 0x42, 0x00]) + point
        let algorithm = Data([
            0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01,  // id-ecPublicKey
            0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07,  // prime256v1
        ])
        let wrapped = der(0x30, ecPrivateKey)
        return der(0x30, Data([0x02, 0x01, 0x00]) + algorithm + der(0x04, wrapped))
    }

    /// A DER element of `tag` around `content` (lengths below 65,536).
    static func der(_ tag: UInt8, _ content: Data) -> Data {
        let count = content.count
        let length: [UInt8] = count < 0x80 ? [UInt8(count)] : count < 0x100 ? [0x81, UInt8(count)] : [0x82, UInt8(count >> 8), UInt8(count & 0xFF)]
        return Data([tag] + length) + content
    }
}
