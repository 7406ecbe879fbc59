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
    /// How long after its request N2.6-AC06's control releases a held registration response: 1 second.
    ///
    /// The control proves that a release reaches the server, so it must come before any challenge
    /// lifetime a conforming RP may choose: the criteria document gives none, and WebAuthn Level 3
    /// recommends ceremony timeouts of 30 seconds to 10 minutes, so 1 second is far inside every one
    /// of them (a 30-second challenge passes). It is not 0: a response released in the same instant
    /// as N2.6-X01's own case could not fail the control except for X01's cause, while an app that
    /// drops, or a server that refuses, a response a moment old breaks this control and nothing else.
    /// Explore's `live-response-is-stored` holds responses to the same moment.
    public static let controlReleaseMillis: Int64 = 1_000
}
