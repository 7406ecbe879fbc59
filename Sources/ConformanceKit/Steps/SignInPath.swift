import Foundation
import WebAuthn

/// Why a negative scenario's passkey sign-in is refused, read from what the scenario built: the
/// passkey the step presented and how (a valid or invalid signature, a response naming another
/// origin), the server's record of it, the account's restriction, how long the response was held,
/// and the faults injected before it.
///
/// The protocol carries no reason with a refused passkey sign-in, so an item about one reason
/// (N3.2-AC02.V3: a restricted account) proves its path by construction: the platform delivered
/// the assertion the step chose, with the request's challenge and its platform's origin for the
/// request's RP ID; exactly one cause of refusal was built in; and, where the cause is not a fault
/// that stops the server from deciding, the same scenario without its `When` steps signs a valid
/// passkey in (`World.probePasskeySignIn`), so the app refuses nothing else this target sends. An
/// origin refusal of the app's own then never passes an item about restricted accounts.
struct SignInPath {
    /// How the step presented the passkey.
    enum Plan: String {
        case valid
        case invalidSignature = "an invalid signature"
        case foreignOrigin = "a response naming another origin"
        case foreignRPID = "authenticator data naming another RP ID"
        case malformed = "malformed authenticator data"
        case cancel = "a cancellation"

        init(_ plan: ProviderState.AssertionPlan) {
            switch plan {
            case .use: self = .valid
            case .invalidSignature: self = .invalidSignature
            case .foreignOrigin: self = .foreignOrigin
            case .foreignRPID: self = .foreignRPID
            case .malformedAuthenticatorData: self = .malformed
            case .cancel: self = .cancel
            }
        }
    }

    /// A reason the scenario built for the server to refuse the sign-in.
    enum Cause: String {
        case networkFailure = "the server cannot be reached"
        case lookupFailure = "the credential lookup fails"
        case unknownCredential = "the server holds no record of the credential"
        case revoked = "the credential is revoked"
        case restricted = "the account is restricted"
        case invalidSignature = "the signature is invalid"
        case foreignOrigin = "the response names another origin"
        case foreignRPID = "the authenticator data names another RP ID"
        case malformed = "the authenticator data is malformed"
        case heldResponse = "the response was held until its challenge expired"

        /// Whether the cause stops the server before it can judge the assertion (a probe of a valid
        /// sign-in would meet the same fault).
        var stopsTheServer: Bool { self == .networkFailure || self == .lookupFailure }
    }

    /// The note a sign-in step leaves with the presented credential id (base64url).
    static let presentedNote = "presented passkey"
    /// The note a sign-in step leaves with how it presented it (`Plan`'s raw value).
    static let planNote = "presented plan"

    /// The causes the scenario built for `signIn`, the first that stops the server alone (a fault
    /// the server meets before it reads the credential hides the rest).
    var causes: [Cause] = []
    /// What differs from the assertion the scenario built, in sentences.
    var problems: [String] = []

    /// Reads what the scenario built for a delivered sign-in.
    init(_ world: World, signIn: PlatformOperation) async throws {
        let transcript = world.host.snapshot.transcript
        let faults = transcript.filter { $0.name == "session.injectFault" && $0.sequence < signIn.sequence }.map(\.summary)
        if faults.contains(where: { $0.hasPrefix(Fault.Kind.networkFailure.rawValue) }) {
            causes = [.networkFailure]
        } else if faults.contains(where: { $0.hasPrefix(Fault.Kind.credentialLookupFailure.rawValue) }) {
            causes = [.lookupFailure]
        }
        guard let response = signIn.response else {
            problems.append("\(StepSupport.cite(signIn)): the platform's answer is not an assertion the harness can read")
            return
        }
        let presented = world.notes[Self.presentedNote].flatMap(Base64URL.decodeIfValid)
        if let presented, presented != response.credentialID {
            problems.append(
                "\(StepSupport.cite(signIn)) answered with \(Base64URL.encode(response.credentialID)), not the passkey the step chose (\(Base64URL.encode(presented)))"
            )
        }
        let plan = world.notes[Self.planNote].flatMap(Plan.init(rawValue:)) ?? .valid
        if let request = signIn.getRequest, case .success(let view) = PlatformFamilies.simulation(of: request.platform).readAssertionRequest(request) {
            let platformOrigin = PlatformFamilies.simulation(of: request.platform).origin(rpID: view.rpID)
            if let clientData = response.clientData {
                if clientData.challenge != view.challenge { problems.append("the assertion answers another challenge than its request's") }
                if clientData.origin == ProviderState.foreignOrigin(rpID: view.rpID) {
                    if plan == .foreignOrigin { causes.append(.foreignOrigin) }
                } else if clientData.origin != platformOrigin {
                    problems.append("the assertion names the origin \(clientData.origin), not the platform's \(platformOrigin)")
                }
            } else {
                problems.append("the assertion's client data cannot be read")
            }
            // The RP ID the authenticator data names: the request's, or (where the step builds it) another RP's.
            if let data = response.authenticatorData {
                if data.rpIdHash == SHA256.hash(Data(ProviderState.foreignRPID(rpID: view.rpID).utf8)) {
                    if plan == .foreignRPID { causes.append(.foreignRPID) } else { problems.append("the authenticator data names another RP ID") }
                } else if data.rpIdHash != SHA256.hash(Data(view.rpID.utf8)) {
                    problems.append("the authenticator data names another RP ID than the request's \(view.rpID)")
                }
            } else if plan == .malformed {
                causes.append(.malformed)
            } else {
                problems.append("the assertion's authenticator data cannot be read")
            }
            // The credential's record: the request must ask for the RP ID of the account that holds it.
            var record: (account: AccountSnapshot, state: CredentialState)?
            for alias in world.accounts.keys.sorted() {
                let account = try await world.inspect(alias)
                if let credential = account.credentials.first(where: { $0.credentialID == response.credentialID }) {
                    record = (account, credential.state)
                    if world.accounts[alias]?.restricted == true { causes.append(.restricted) }
                    break
                }
            }
            switch record?.state {
            case nil: causes.append(.unknownCredential)
            case .revoked?: causes.append(.revoked)
            case .active?: break
            }
            if let record, record.account.rpID != view.rpID {
                problems.append("the request asked for the RP ID \(view.rpID); the credential belongs to \(record.account.rpID)")
            }
        } else {
            problems.append("\(StepSupport.cite(signIn)): the sign-in request cannot be read")
        }
        if plan == .invalidSignature { causes.append(.invalidSignature) }
        let delivered = transcript.first { $0.name == "session.platformCompleted" && $0.summary.hasPrefix("\(signIn.id) ") }
        if let delivered, delivered.atMillis > signIn.issuedAtMillis { causes.append(.heldResponse) }
        // A fault that stops the server hides every cause it would have judged after it.
        if let first = causes.first, first.stopsTheServer { causes = [first] }
    }

    /// Why the scenario's refused sign-in does not prove its path, or `nil` when it does: exactly
    /// one cause built in, the intended assertion delivered, and (for a cause the server judges) a
    /// valid sign-in of the same scenario accepted.
    static func notReached(_ world: World, signIn: PlatformOperation) async throws -> String? {
        let path = try await SignInPath(world, signIn: signIn)
        if !path.problems.isEmpty {
            return "the app refused the sign-in of \(StepSupport.cite(signIn)), but not the assertion the scenario built: "
                + path.problems.joined(separator: "; ") + "; its refusal says nothing about the item's reason, so its path was not reached"
        }
        guard let cause = path.causes.first else {
            return "the app refused the sign-in of \(StepSupport.cite(signIn)) although nothing the scenario built refuses it "
                + "(the passkey is active, its account not restricted, its response valid and answered at once): "
                + "the refusal had a reason of the app's own, so the item's path was not reached"
        }
        guard path.causes.count == 1 else {
            return "the refusal of \(StepSupport.cite(signIn)) has more than one possible reason ("
                + path.causes.map(\.rawValue).joined(separator: "; ") + "), so it proves no one item's path"
        }
        guard !cause.stopsTheServer else { return nil }
        switch try await world.probePasskeySignIn() {
        case .accepted, .inconclusive:
            return nil
        case .refused(let seen):
            return "the app refused the sign-in of \(StepSupport.cite(signIn)) (\(cause.rawValue)), but it also refuses a valid one: "
                + "in the same scenario without its When steps \(seen); its refusal here is not shown to be for that reason "
                + "(an origin or RP ID it does not accept would refuse both), so the item's path was not reached"
        }
    }
}
