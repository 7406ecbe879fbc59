@testable import ConformanceKit
import Testing

/// What N2.6-AC05 reads in what the app shows: a user-facing error, or a confirmation of a passkey
/// of the app's own, whatever kind of event carries it.
@Suite("Claims of what the app shows")
struct UpgradeClaimsTests {
    static let confirmations = [
        "Your passkey is ready!", "Your passkey is ready", "Passkey created", "passkey-created", "Passkey saved to your account.",
        "We added a passkey to your account.", "Your passkey has been set up.", "You're all set: your passkey is enabled.",
        "You can now sign in with your passkey.", "Passkey successfully registered",
    ]
    static let notConfirmations = [
        "Welcome back, Alice.", "You are signed in.", "Home", "Create a passkey", "Set up a passkey for faster sign-in",
        "Sign in faster next time: you can create a passkey in Settings.", "The passkey could not be created.", "Passkeys: 2",
        "Passkey creation failed. Try again later.",
    ]
    static let failures = [
        "Passkey creation failed.", "The passkey could not be created.", "Something went wrong", "We couldn't create your passkey",
        "Unable to set up a passkey", "Passkey error", "Try again later",
    ]

    @Test("a text that speaks of a passkey as done confirms it; invitations, welcomes and failures do not")
    func confirmations() {
        for text in Self.confirmations { #expect(UpgradeClaims.confirmsPasskey(text), "\(text)") }
        for text in Self.notConfirmations { #expect(!UpgradeClaims.confirmsPasskey(text), "\(text)") }
    }

    @Test("an error event is an error whatever it says; another event is one when its text reports a failure")
    func errors() {
        for text in Self.failures {
            #expect(UpgradeClaims.isError(UIEvent(.message, text)), "\(text)")
            #expect(UpgradeClaims.isError(UIEvent(.screen, text)), "\(text)")
        }
        #expect(UpgradeClaims.isError(UIEvent(.error, "Heads up")))
        for text in ["Welcome back, Alice.", "You are signed in.", "Create a passkey", "Home"] {
            #expect(!UpgradeClaims.isError(UIEvent(.message, text)), "\(text)")
        }
    }
}
