import ConformanceModel

/// What every report says about the simulated platforms: that they are simulated, what a pass does
/// and does not prove, and for each target what was simulated.
package enum ReportFidelity {
    /// Where the simulation's fidelity facts and their sources are written down, in the harness's sources.
    package static let notes = "Documentation/platform-fidelity.md"

    /// The header's plain statement.
    package static let statement =
        "Every platform in this report is SIMULATED: the harness plays the OS, its credential manager, the credential provider and "
        + "a virtual authenticator, modelled on public documentation (\(notes) in the passkey-conformance sources). No device, OS build "
        + "or real credential manager took part."

    /// What a pass proves.
    package static let passProves =
        "A pass shows that the relying party, driven through its adapter, did what the criterion requires against the simulated "
        + "platform on that target, in the scenarios listed."

    /// What a pass does not prove.
    package static let passDoesNotProve =
        "It does not show that the app behaves the same on a real device, OS release or provider, that the adapter reflects the "
        + "shipping app, or anything the scenarios do not exercise; not verified is never a pass."

    /// What a report of a run over `targetIDs` says first: the simulated statement above when no
    /// target is a web one; otherwise which targets ran in a real browser, what was real there and
    /// what was the harness's model.
    package struct Header: Sendable {
        /// The header's title (`Simulated platforms`, or `Simulated and real platforms`).
        package var title: String
        /// Whether any target was simulated.
        package var simulated: Bool
        /// The plain statement.
        package var statement: String
        /// What a pass proves.
        package var passProves: String
        /// What a pass does not prove.
        package var passDoesNotProve: String
    }

    /// The header of a report over `targetIDs`.
    package static func header(targetIDs: [String]) -> Header {
        let web = targetIDs.filter { TargetCatalog.target(id: $0)?.platform == .web }
        guard !web.isEmpty else {
            return Header(title: "Simulated platforms", simulated: true, statement: statement, passProves: passProves, passDoesNotProve: passDoesNotProve)
        }
        let native = targetIDs.count > web.count
        let browser =
            "The web targets (\(web.joined(separator: ", "))) ran the relying party's page in a REAL Chromium: its WebAuthn API, "
            + "signal methods, origin and RP ID checks and every byte of the authenticator's were the browser's own; whether a "
            + "conditional create succeeds and which passkey a sign-in uses were the harness's model of a credential manager, and "
            + "the browsers without part of the API were Chromium with that part hidden from the page (\(notes), F4)."
        let simulatedPart =
            native
            ? "The other targets are SIMULATED: the harness plays the OS, its credential manager, the credential provider and a virtual "
                + "authenticator, modelled on public documentation. " : ""
        return Header(
            title: native ? "Simulated and real platforms" : "A real browser", simulated: native, statement: simulatedPart + browser,
            passProves:
                "A pass shows that the relying party, driven through its adapter, did what the criterion requires against the platform "
                + "on that target (simulated, or the real browser on a web target), in the scenarios listed.",
            passDoesNotProve:
                "It does not show that the app behaves the same on another device, OS, browser release or credential manager, that the "
                + "adapter reflects the shipping app, or anything the scenarios do not exercise; not verified is never a pass.")
    }

    /// One sentence on what a target simulates: OS, library, provider and the platform features
    /// it has and lacks; for a web target, what was real.
    package static func simulated(_ target: Target) -> String {
        if target.platform == .web {
            let has = Target.Feature.allCases.filter(target.has).map(\.rawValue)
            let lacks = Target.Feature.allCases.filter { !target.has($0) }.map(\.rawValue)
            return "real Chromium (the version is each test case's device.browser); the credential manager's decisions modelled by the harness"
                + "; features: " + (has.isEmpty ? "none" : has.joined(separator: ", ")) + "; without: "
                + (lacks.isEmpty ? "none" : lacks.joined(separator: ", "))
        }
        var parts = ["\(target.osFamily.displayName) \(target.osVersion)"]
        if let library = target.credentialsLibraryVersion { parts.append("androidx.credentials \(library)") }
        if let play = target.playServicesVersion { parts.append("Play services \(play)") }
        parts.append(target.provider.rawValue)
        let has = Target.Feature.allCases.filter(target.has).map(\.rawValue)
        let lacks = Target.Feature.allCases.filter { !target.has($0) }.map(\.rawValue)
        return "simulated " + parts.joined(separator: ", ") + "; features: " + (has.isEmpty ? "none" : has.joined(separator: ", "))
            + "; without: " + (lacks.isEmpty ? "none" : lacks.joined(separator: ", "))
    }

    /// The sentence for a target id: the catalogue's target, or a note that the harness does not know it.
    package static func simulated(targetID: String) -> String {
        TargetCatalog.target(id: targetID).map(simulated) ?? "not a target this harness knows; nothing was simulated for it"
    }

    /// The platform family of a target, as the summary's matrix groups its columns: the OS family
    /// (`iOS`, `macOS`, `visionOS`, `Android`), or `other` for a target the harness does not know.
    package static func family(of targetID: String) -> String {
        TargetCatalog.target(id: targetID)?.osFamily.displayName ?? "other"
    }
}
