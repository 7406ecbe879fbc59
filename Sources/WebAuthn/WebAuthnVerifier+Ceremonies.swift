#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension WebAuthnVerifier {
    /// Verifies a registration response (WebAuthn §7.1) with `"none"` attestation.
    ///
    /// Checks in order: client data parses; type `webauthn.create`; challenge; origin; cross
    /// origin; attestation object parses; authenticator data parses; rpIdHash; UP unless the
    /// options were conditional; UV when required; BS only with BE; AT present; ES256 key valid;
    /// format `"none"` with an empty statement.
    ///
    /// Not checked here, because it needs the relying party's storage: that the credential ID
    /// is not registered yet (WebAuthn §7.1), and which account it belongs to.
    public func verifyRegistration(
        clientDataJSON: Data, attestationObject: Data,
        expecting expectation: RegistrationExpectation
    ) -> Outcome<Registration> {
        let clientData: CollectedClientData
        switch checkClientData(clientDataJSON, type: .create, challenge: expectation.challenge) {
        case let .success(value): clientData = value
        case let .failure(rejection): return .rejected(rejection.reason)
        }
        let attestation: AttestationObject
        do {
            attestation = try AttestationObject(bytes: attestationObject)
        } catch {
            return .rejected(.attestationObjectMalformed(error))
        }
        let authenticatorData: AuthenticatorData
        switch checkAuthenticatorData(
            attestation.authenticatorData,
            requireUserPresence: !expectation.conditionalMediation,
            userVerification: expectation.userVerification)
        {
        case let .success(value): authenticatorData = value
        case let .failure(rejection): return .rejected(rejection.reason)
        }
        guard let attested = authenticatorData.attestedCredentialData,
            authenticatorData.flags.contains(.attestedCredentialData)
        else { return .rejected(.attestedCredentialDataMissing) }
        let publicKey: COSEKey
        do {
            publicKey = try COSEKey(decoding: attested.credentialPublicKey)
        } catch {
            return .rejected(.credentialPublicKeyInvalid(error))
        }
        guard attestation.format == "none" else { return .rejected(.unsupportedAttestationFormat(attestation.format)) }
        guard attestation.statement.mapValue?.isEmpty == true else { return .rejected(.nonEmptyNoneAttestationStatement) }
        let flags = authenticatorData.flags
        let record = CredentialRecord(
            id: attested.credentialId, publicKey: publicKey,
            signCount: authenticatorData.signCount,
            backupEligible: flags.contains(.backupEligible),
            backupState: flags.contains(.backupState),
            userVerified: flags.contains(.userVerified), aaguid: attested.aaguid)
        return .verified(Registration(credential: record, clientData: clientData, authenticatorData: authenticatorData))
    }

    /// Verifies an authentication response (WebAuthn §7.2) against a stored credential record.
    ///
    /// Checks in order: the credential ID is the record's; a present user handle is the
    /// account's; client data parses; type `webauthn.get`; challenge; origin; cross origin;
    /// authenticator data parses; rpIdHash; UP (unless not required); UV when required; BS only
    /// with BE; BE unchanged; the signature over `authenticatorData || SHA-256(clientDataJSON)`;
    /// the counter (per `Policy.signCountPolicy`).
    public func verifyAssertion(
        credentialId: Data, clientDataJSON: Data, authenticatorData authenticatorDataBytes: Data,
        signature: Data, userHandle: Data?, credential: CredentialRecord,
        expecting expectation: AssertionExpectation
    ) -> Outcome<Authentication> {
        guard credentialId == credential.id else { return .rejected(.credentialIdMismatch) }
        if let userHandle, let expected = expectation.userHandle, userHandle != expected {
            return .rejected(.userHandleMismatch)
        }
        let clientData: CollectedClientData
        switch checkClientData(clientDataJSON, type: .get, challenge: expectation.challenge) {
        case let .success(value): clientData = value
        case let .failure(rejection): return .rejected(rejection.reason)
        }
        let authenticatorData: AuthenticatorData
        switch checkAuthenticatorData(
            authenticatorDataBytes, requireUserPresence: expectation.requireUserPresence,
            userVerification: expectation.userVerification)
        {
        case let .success(value): authenticatorData = value
        case let .failure(rejection): return .rejected(rejection.reason)
        }
        let flags = authenticatorData.flags
        let backupEligible = flags.contains(.backupEligible)
        guard backupEligible == credential.backupEligible else {
            return .rejected(.backupEligibilityChanged(stored: credential.backupEligible, received: backupEligible))
        }
        let signedBytes = authenticatorDataBytes + SHA256.hash(clientDataJSON)
        guard credential.publicKey.publicKey.isValidSignature(signature, for: signedBytes) else {
            return .rejected(.signatureInvalid)
        }
        let received = authenticatorData.signCount
        let anomaly = (received != 0 || credential.signCount != 0) && received <= credential.signCount
        if anomaly, policy.signCountPolicy == .rejectNonIncreasing {
            return .rejected(.signCountNotIncreased(stored: credential.signCount, received: received))
        }
        var updated = credential
        updated.signCount = received
        updated.backupState = flags.contains(.backupState)
        return .verified(
            Authentication(
                credential: updated, clientData: clientData,
                authenticatorData: authenticatorData, signCountAnomaly: anomaly))
    }

    // MARK: Shared steps

    /// A rejection carried through `Result`.
    struct Rejection: Error {
        let reason: Reason
    }

    /// Client data steps shared by both ceremonies: parse, type, challenge, origin, cross origin.
    func checkClientData(
        _ json: Data, type: CollectedClientData.CeremonyType,
        challenge: Data
    ) -> Result<CollectedClientData, Rejection> {
        let clientData: CollectedClientData
        do {
            clientData = try CollectedClientData(jsonBytes: json)
        } catch {
            return .failure(Rejection(reason: .clientDataMalformed(error)))
        }
        guard clientData.type == type else {
            return .failure(Rejection(reason: .unexpectedCeremonyType(expected: type.rawValue, found: clientData.type.rawValue)))
        }
        guard clientData.challenge == challenge else { return .failure(Rejection(reason: .challengeMismatch)) }
        guard policy.allowedOrigins.contains(clientData.origin) else {
            return .failure(Rejection(reason: .originNotAllowed(clientData.origin)))
        }
        if clientData.crossOrigin == true {
            guard let topOrigin = clientData.topOrigin, policy.allowedTopOrigins.contains(topOrigin) else {
                return .failure(Rejection(reason: .crossOriginNotAllowed(topOrigin: clientData.topOrigin)))
            }
        }
        return .success(clientData)
    }

    /// Authenticator data steps shared by both ceremonies: parse, rpIdHash, UP, UV, BE/BS.
    func checkAuthenticatorData(
        _ bytes: Data, requireUserPresence: Bool,
        userVerification: UserVerificationRequirement
    ) -> Result<AuthenticatorData, Rejection> {
        let authenticatorData: AuthenticatorData
        do {
            authenticatorData = try AuthenticatorData(bytes: bytes)
        } catch {
            return .failure(Rejection(reason: .authenticatorDataMalformed(error)))
        }
        guard authenticatorData.rpIdHash == SHA256.hash(Data(policy.rpId.utf8)) else {
            return .failure(Rejection(reason: .rpIdHashMismatch))
        }
        let flags = authenticatorData.flags
        if requireUserPresence, !flags.contains(.userPresent) { return .failure(Rejection(reason: .userNotPresent)) }
        if userVerification == .required, !flags.contains(.userVerified) {
            return .failure(Rejection(reason: .userNotVerified))
        }
        if flags.contains(.backupState), !flags.contains(.backupEligible) {
            return .failure(Rejection(reason: .backupStateWithoutEligibility))
        }
        return .success(authenticatorData)
    }
}
