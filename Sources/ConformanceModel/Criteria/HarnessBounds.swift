/// Numbers the harness chooses where the criteria documents give none, shared by the steps that check
/// them and the reference RP's designs that must stay within them.
///
/// Each is named under `Harness choices:` in the criterion files that use it, with the sentence of
/// the criteria document it is anchored to, and is never stricter than that sentence
/// (`Documentation/criterion-files.md`, "The harness's numbers"). "Promptly" (N2.6-AC05) is not one
/// of them: its bound is the simulated credential manager's recent-autofill window, a provider knob
/// (`ProviderState.autofillWindowMillis`), because the criteria document ties "promptly" to that
/// context.
public enum HarnessBounds {
    /// How long after its request N2.6-AC06's control releases a held registration response: 0 ms,
    /// the earliest moment (the response is released as soon as the app has issued the request).
    ///
    /// The control proves that a release reaches the server, so it must not depend on how long the
    /// RP's challenges live: the criteria document gives no lifetime, and WebAuthn leaves the
    /// ceremony's timeout to the RP, so any later release could fall past a lifetime a conforming RP
    /// chose (30 seconds, say). Explore's `live-response-is-stored` holds responses to the same moment.
    public static let controlReleaseMillis: Int64 = 0
}
