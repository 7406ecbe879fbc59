import ConformanceModel
import Foundation

extension AppleSimulation {
    /// The kind an Apple report method stands for.
    public static func kind(of method: AppleSignalMethod) -> SignalView.Kind {
        switch method {
        case .reportUnknownPublicKeyCredential: .unknownCredential
        case .reportAllAcceptedPublicKeyCredentials: .allAcceptedCredentials
        case .reportPublicKeyCredentialUpdate: .currentUserDetails
        case .reportUnusedPasswordCredential: .unusedPassword
        }
    }

    /// Reads a report: each method needs its own arguments, else `ASAuthorizationError.failed`.
    public func readSignal(_ request: SignalRequest) -> Result<SignalView, PlatformError> {
        guard case .apple(let report) = request else { return .failure(PlatformFamilies.wrongPlatform) }
        func invalid(_ message: String) -> Result<SignalView, PlatformError> { .failure(Self.failed(message)) }
        guard !report.relyingPartyIdentifier.isEmpty else { return invalid("relyingPartyIdentifier is empty") }
        let interface = report.interface.rawValue
        switch report.method {
        case .reportUnknownPublicKeyCredential:
            guard let id = report.credentialID, !id.isEmpty else { return invalid("credentialID is missing") }
            return .success(SignalView(kind: .unknownCredential, interface: interface, rpID: report.relyingPartyIdentifier, credentialID: id))
        case .reportAllAcceptedPublicKeyCredentials:
            guard let handle = report.userHandle, !handle.isEmpty else { return invalid("userHandle is missing") }
            guard let accepted = report.acceptedCredentialIDs else { return invalid("acceptedCredentialIDs is missing") }
            return .success(
                SignalView(
                    kind: .allAcceptedCredentials, interface: interface, rpID: report.relyingPartyIdentifier,
                    userHandle: handle, acceptedCredentialIDs: accepted))
        case .reportPublicKeyCredentialUpdate:
            guard let handle = report.userHandle, !handle.isEmpty else { return invalid("userHandle is missing") }
            guard let name = report.newName else { return invalid("newName is missing") }
            return .success(SignalView(kind: .currentUserDetails, interface: interface, rpID: report.relyingPartyIdentifier, userHandle: handle, name: name))
        case .reportUnusedPasswordCredential:
            return .success(SignalView(kind: .unusedPassword, interface: interface, rpID: report.relyingPartyIdentifier, name: report.userName))
        }
    }

    /// The report's method, interface, relying party identifier and new name, as the app passed them.
    public func signalSummary(_ request: SignalRequest) -> SignalSummary {
        guard case .apple(let report) = request else { return SignalSummary(kind: nil, interface: "?") }
        return SignalSummary(
            kind: Self.kind(of: report.method), interface: report.interface.rawValue, rpID: report.relyingPartyIdentifier, name: report.newName)
    }

    /// The raw user handle and accepted ids, compared with the server's as bytes.
    public func identityProblems(of request: SignalRequest, kind: SignalView.Kind?, userHandle: Data, acceptedCredentialIDs: [Data]) -> [String] {
        guard case .apple(let report) = request else { return [] }
        var problems: [String] = []
        if report.userHandle != userHandle {
            problems.append(
                "userHandle is \(report.userHandle.map { "\($0.count) bytes" } ?? "missing"), not the server's \(userHandle.count)-byte user handle")
        }
        if let ids = report.acceptedCredentialIDs, Set(ids) != Set(acceptedCredentialIDs) {
            problems.append("acceptedCredentialIDs are not the server's raw credential ids")
        }
        return problems
    }

    /// The raw user handle, when the report carries one.
    public func userHandleCandidates(of request: SignalRequest) -> [Data] {
        guard case .apple(let report) = request, let handle = report.userHandle else { return [] }
        return [handle]
    }
}
