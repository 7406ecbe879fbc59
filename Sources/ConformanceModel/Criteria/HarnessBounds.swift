/// Numbers the harness chooses where the criteria documents give none, shared by the steps that check
/// them and the reference RP's designs that must stay within them.
public enum HarnessBounds {
    /// How soon after a qualifying sign-in the conditional request must leave to be "prompt"
    /// (N2.6-AC05.V1): 10 seconds. The harness's own number (no platform documents one): a user
    /// acts again within seconds of a sign-in, so a request later than that would come after a
    /// further user action, which the criterion rules out; it leaves an app time to close its
    /// sign-in screen first. The criterion file names it under `Harness choices:`.
    public static let upgradePromptnessMillis: Int64 = 10_000
}
