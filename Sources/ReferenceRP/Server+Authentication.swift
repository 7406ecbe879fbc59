import ConformanceModel
import ConformanceSimulation
import Foundation
import WebAuthn

extension Server {
    /// Options of a passkey sign-in for an RP ID (discoverable credentials: no allow list).
    mutating func authenticationOptions(rpID: String, now: Int64, rng: inout SeededGenerator) -> Data {
        let challenge = Data(rng.bytes(32))
        ceremonies[challenge] = Ceremony(
            kind: .authentication, challenge: challenge, token: nil, username: nil, rpID: rpID,
            conditional: false, issuedAt: now)
        return challenge
    }

    /// How a passkey sign-in ended on the server.
    enum AuthenticationResult: Sendable, Hashable {
        case signedIn(username: String, token: String)
        /// No account holds this credential id: it is conclusively unknown.
        case unknownCredential(rpID: String, credentialID: Data)
        /// The credential is known but revoked.
        case revoked(username: String)
        /// The lookup of the credential id failed: the server cannot tell whether it holds it.
        case lookupFailed
        case restricted
        case expiredChallenge
        /// The response names an origin the server does not accept for the RP ID.
        case originRefused(String)
        /// The authenticator data names another RP ID than the ceremony's.
        case rpIDRefused
        /// The response cannot be read (its authenticator data is malformed).
        case malformed(String)
        case invalid(String)
    }

    /// Verifies an assertion and opens a session for its account.
    mutating func finishAuthentication(
        credentialID: Data, clientDataJSON: Data, authenticatorData: Data, signature: Data,
        userHandle: Data?, now: Int64
    ) -> AuthenticationResult {
        guard let clientData = try? CollectedClientData(jsonBytes: clientDataJSON) else { return .invalid("clientDataJSON cannot be parsed") }
        guard let ceremony = ceremonies[clientData.challenge], ceremony.kind == .authentication else {
            if design.replayAnswer == .sameSuccess, let done = committed[clientData.challenge], done.credentialID == credentialID {
                return .signedIn(username: done.username, token: openSession(done.username, .full))
            }
            return .invalid("no sign-in ceremony for this challenge")
        }
        if store.take(.credentialLookupFailure) { return .lookupFailed }
        guard
            let username = accountOrder.first(where: { name in
                accounts[name]!.rpID == ceremony.rpID && accounts[name]!.credentials.contains { $0.id == credentialID }
            }), var account = accounts[username], let index = account.credentials.firstIndex(where: { $0.id == credentialID })
        else {
            return .unknownCredential(rpID: ceremony.rpID, credentialID: credentialID)
        }
        let stored = account.credentials[index]
        guard stored.state == .active else { return .revoked(username: username) }
        guard !account.restricted else { return .restricted }
        guard now - ceremony.issuedAt <= challengeLifetimeMillis else {
            ceremonies[ceremony.challenge] = nil
            return .expiredChallenge
        }
        guard let publicKey = try? COSEKey(decoding: stored.publicKey) else { return .invalid("the stored public key is unreadable") }
        let record = WebAuthnVerifier.CredentialRecord(
            id: stored.id, publicKey: publicKey, signCount: stored.signCount,
            backupEligible: stored.backupEligible, backupState: stored.backupEligible,
            userVerified: true, aaguid: Data(count: 16))
        let verifier = WebAuthnVerifier(policy: .init(rpId: ceremony.rpID, allowedOrigins: allowedOrigins(rpID: ceremony.rpID), signCountPolicy: .ignore))
        switch verifier.verifyAssertion(
            credentialId: credentialID, clientDataJSON: clientDataJSON, authenticatorData: authenticatorData,
            signature: signature, userHandle: userHandle, credential: record,
            expecting: .init(challenge: ceremony.challenge, userHandle: account.userHandle))
        {
        case .rejected(.originNotAllowed(let origin)):
            return .originRefused(origin)
        case .rejected(.rpIdHashMismatch):
            return .rpIDRefused
        case .rejected(.authenticatorDataMalformed(let error)):
            return .malformed("\(error)")
        case .rejected(let reason):
            return .invalid(reason.message)
        case .verified(let authentication):
            ceremonies[ceremony.challenge] = nil
            committed[ceremony.challenge] = (credentialID, username)
            account.credentials[index].signCount = authentication.credential.signCount
            accounts[username] = account
            return .signedIn(username: username, token: openSession(username, .full))
        }
    }

    /// Revokes a credential of the session's account at once (the signal never gates it).
    mutating func revoke(token: String, credentialID: Data) -> Result<String, Refusal> {
        guard let session = sessions[token], session.assurance == .full, var account = accounts[session.username] else {
            return .failure("sign in first")
        }
        guard let index = account.credentials.firstIndex(where: { $0.id == credentialID && $0.state == .active }) else {
            return .failure("no such passkey")
        }
        // The record is kept inactive for audit, or deleted: either way no later assertion is accepted.
        if design.revocation == .delete { account.credentials.remove(at: index) } else { account.credentials[index].state = .revoked }
        accounts[session.username] = account
        store.changed(session.username)
        return .success(session.username)
    }

    /// Changes the account's name and/or display name if the server confirms it.
    mutating func rename(token: String, name: String?, displayName: String?, confirmed: Bool) -> Result<String, Refusal> {
        guard let session = sessions[token], var account = accounts[session.username] else { return .failure("sign in first") }
        guard confirmed else { return .failure("the change was not confirmed") }
        if let name { account.name = name }
        if let displayName { account.displayName = displayName }
        accounts[session.username] = account
        return .success(session.username)
    }
}
