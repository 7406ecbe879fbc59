import ConformanceModel
import ConformanceSimulation
import Foundation
import WebAuthn

/// Reads the options a page passed to `navigator.credentials.create`, as the instrumentation
/// reported them (byte buffers as `{"$bytes": "<base64url>"}`), into what the provider model
/// decides on.
package enum WebRequestReading {
    /// The registration the options ask for, on a page of `origin` (whose host is the RP ID when
    /// the options name none); the error names the member that is missing or malformed.
    package static func registration(_ publicKey: JSONValue?, conditional: Bool, origin: String) -> Result<RegistrationView, PlatformError> {
        func refuse(_ message: String) -> Result<RegistrationView, PlatformError> {
            .failure(.general(name: "TypeError", message: message))
        }
        guard let publicKey, case .object = publicKey else { return refuse("publicKey is missing") }
        func bytes(_ value: JSONValue?) -> Data? { value?["$bytes"]?.stringValue.flatMap(Base64URL.decodeIfValid) }
        guard let challenge = bytes(publicKey["challenge"]), !challenge.isEmpty else { return refuse("publicKey.challenge is missing or not a buffer") }
        guard let user = publicKey["user"], let handle = bytes(user["id"]), (1...64).contains(handle.count) else {
            return refuse("publicKey.user.id is missing or not 1 to 64 bytes")
        }
        guard let name = user["name"]?.stringValue else { return refuse("publicKey.user.name is missing") }
        let host = URL(string: origin)?.host ?? origin
        let rpID = publicKey["rp"]?["id"]?.stringValue ?? host
        let excluded = publicKey["excludeCredentials"]?.arrayValue.map { list in list.compactMap { bytes($0["id"]) } }
        let verification = publicKey["authenticatorSelection"]?["userVerification"]?.stringValue ?? "preferred"
        return .success(
            RegistrationView(
                rpID: rpID, userHandle: handle, userName: name, displayName: user["displayName"]?.stringValue, challenge: challenge,
                excludedCredentials: excluded, conditional: conditional, userVerification: verification))
    }
}
