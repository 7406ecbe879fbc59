import ConformanceModel

/// What every report says about the simulated platforms: that they are simulated, what a pass does
/// and does not prove, and for each target what was simulated.
public enum ReportFidelity {
    /// Where the simulation's fidelity facts and their sources are written down, in the harness's sources.
    public static let notes = "Documentation/platform-fidelity.md"

    /// The header's plain statement.
    public static let statement =
        "Every platform in this report is SIMULATED: the harness plays the OS, its credential manager, the credential provider and "
        + "a virtual authenticator, modelled on public documentation (\(notes) in the passkey-conformance sources). No device, OS build "
        + "or real credential manager took part."

    /// What a pass proves.
    public static let passProves =
        "A pass shows that the relying party, driven through its adapter, did what the criterion requires against the simulated "
        + "platform on that target, in the scenarios listed."

    /// What a pass does not prove.
    public static let passDoesNotProve =
        "It does not show that the app behaves the same on a real device, OS release or provider, that the adapter reflects the "
        + "shipping app, or anything the scenarios do not exercise; not verified is never a pass."

    /// One sentence on what a target simulates: OS, library, provider and the platform features
    /// it has and lacks.
    public static func simulated(_ target: Target) -> String {
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
    public static func simulated(targetID: String) -> String {
        TargetCatalog.target(id: targetID).map(simulated) ?? "not a target this harness knows; nothing was simulated for it"
    }

    /// The platform family of a target, as the summary's matrix groups its columns: the OS family
    /// (`iOS`, `macOS`, `visionOS`, `Android`), or `other` for a target the harness does not know.
    public static func family(of targetID: String) -> String {
        TargetCatalog.target(id: targetID)?.osFamily.displayName ?? "other"
    }
}
