import ConformanceModel
import ConformanceSimulation
import Foundation

/// The automatic upgrade's choices of a design (what the app shows, how it records a failure,
/// where a stale response is refused) and the mutants' sheets; the conforming decisions of
/// `ReferenceSession.swift` call these.
extension ReferenceSession {
    /// What the app does once a sign-in completed: shows what the design shows, starts its
    /// housekeeping timer, and sends the stale responses it kept for this moment.
    func afterSignIn(_ username: String) async {
        let name = state.server.accounts[username]?.displayName ?? username
        switch design.afterSignIn {
        case .nothing: break
        case .welcomeMessage: await show(.message, .welcome(name: name))
        case .signedInConfirmation: await show(.confirmation, .signedIn)
        case .homeScreen: await show(.screen, .home)
        }
        if let millis = design.housekeepingMillis {
            state.app.housekeepingTimers.insert(await host.scheduleTimer(afterMillis: millis, label: "housekeeping"))
        }
        let kept = state.app.staleForNextSignIn
        state.app.staleForNextSignIn = []
        for response in kept { await uploadStale(token: response.token, outcome: response.outcome) }
    }

    /// A response whose session is no longer the app's, in a design that refuses it: discarded by
    /// the app, or sent now or at the next sign-in for the server to refuse.
    func refuseStale(_ pending: PendingRegistration, _ outcome: PlatformOutcome) async {
        switch design.staleResponse {
        case .appDiscards: await host.telemetry(TelemetryEvent("stale-registration-discarded", ["account": pending.username]))
        case .serverRefuses: await uploadStale(token: pending.token, outcome: outcome)
        case .serverRefusesAtNextSignIn: state.app.staleForNextSignIn.append((pending.token, outcome))
        }
    }

    /// Sends a kept registration response with the session that asked for it.
    func uploadStale(token: String, outcome: PlatformOutcome) async {
        guard let response = RequestBuilder.registrationResponse(outcome) else { return }
        let now = await host.now()
        if case .failure(let reason) = state.server.finishRegistration(
            token: token, clientDataJSON: response.clientDataJSON, attestationObject: response.attestationObject, now: now)
        {
            await host.telemetry(TelemetryEvent("stale-registration-refused", ["reason": reason.message]))
        }
    }

    /// The telemetry record of a conditional-create failure, spelled as the design spells it (F-telemetry).
    func failureRecord(_ error: PlatformError) -> TelemetryEvent {
        let name = "conditional-create-failed"
        if error.name.hasPrefix("ASAuthorizationError") || error.domain != nil {
            let caseName = error.name.hasPrefix("ASAuthorizationError.") ? String(error.name.dropFirst("ASAuthorizationError.".count)) : error.name
            switch design.appleFailureSpelling {
            case .everything: break
            case .caseName: return TelemetryEvent(name, ["code": caseName])
            case .qualifiedCaseName: return TelemetryEvent(name, ["error": "ASAuthorizationError.Code.\(caseName)"])
            case .domainAndCode: return TelemetryEvent(name, ["domain": error.domain ?? "-", "code": error.code.map(String.init) ?? "-"])
            }
        } else {
            // Read only by the spellings that name the DOM error.
            lazy var dom = Self.domErrorName(ofType: error.type)
            switch design.androidFailureSpelling {
            case .everything: break
            case .className:
                return TelemetryEvent(name, ["exception": error.name].merging(dom.map { ["domError": $0] } ?? [:]) { first, _ in first })
            case .qualifiedClassName:
                let package = dom == nil ? "androidx.credentials.exceptions." : "androidx.credentials.exceptions.publickeycredential."
                return TelemetryEvent(
                    name,
                    ["exception": package + error.name].merging(dom.map { ["domError": "androidx.credentials.exceptions.domerrors." + $0] } ?? [:]) {
                        first, _ in
                        first
                    })
            case .typeConstant: return TelemetryEvent(name, ["type": error.type ?? error.name])
            }
        }
        return TelemetryEvent(name, ["error": error.name, "type": error.type ?? "-", "code": error.code.map(String.init) ?? "-"])
    }

    /// The DOM error a `CreatePublicKeyCredentialDomException`'s type names: `…TYPE_NOT_ALLOWED_ERROR` → `NotAllowedError`.
    static func domErrorName(ofType type: String?) -> String? {
        guard let type, type.contains("DOM_EXCEPTION"), let range = type.range(of: "androidx.credentials.TYPE_", options: .backwards) else { return nil }
        var constant = String(type[range.upperBound...])
        if constant.hasPrefix("CREATE_PUBLIC_KEY_CREDENTIAL_") { constant.removeFirst("CREATE_PUBLIC_KEY_CREDENTIAL_".count) }
        return constant.split(separator: "_").map { $0.prefix(1) + $0.dropFirst().lowercased() }.joined()
    }

    /// The manual creation nudge of the design, after the credential manager created nothing: it
    /// only offers; the user chooses it or not (F-nudge). Always in English: see `ReferenceDesign.Language`.
    func offerNudge() async {
        switch design.nudge {
        case .none: break
        case .message: await host.show(UIEvent(.message, "Sign in faster next time: you can create a passkey in Settings."))
        case .screen: await host.show(UIEvent(.screen, "Create a passkey"))
        }
    }

    /// A mutant's modal creation sheet after a failed or declined conditional request, at once or from a timer.
    func openSheetAfterFailure(_ pending: PendingRegistration) async {
        switch decisions.upgrade.sheetAfterFailure {
        case nil: break
        case .atOnce?:
            if !pending.retried, state.app.token == pending.token {
                await startRegistration(conditional: false, token: pending.token, username: pending.username, retried: true)
            }
        case .after(let millis)?:
            let timer = await host.scheduleTimer(afterMillis: millis, label: "offer the passkey sheet again")
            state.app.sheetTimers[timer] = (pending.token, pending.username)
        }
    }

    /// Handles a timer of this file; `false` when the timer is another's.
    func upgradeTimerFired(_ timer: TimerID) async -> Bool {
        if state.app.housekeepingTimers.remove(timer) != nil { return true }
        guard let sheet = state.app.sheetTimers.removeValue(forKey: timer) else { return false }
        if state.app.token == sheet.token { await startRegistration(conditional: false, token: sheet.token, username: sheet.username, retried: true) }
        return true
    }
}
