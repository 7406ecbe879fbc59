@testable import ConformanceKit
import Testing

/// The N3.2-AC08 reading of what the app shows, against a corpus of product sentences: those that
/// claim a credential manager acted and those that do not (labels, disclaimers, account-side
/// statements). The judgement is the harness's reading; this corpus is what it is held to.
@Suite("ProviderClaim: claims, not forms")
struct ProviderClaimCorpusTests {
    /// Sentences that claim a provider-side result.
    static let claims = [
        "The passkey was removed from this device.",
        "The passkey was removed from your device.",
        "Your passkey has been deleted from your phone.",
        "We removed the passkey from your password manager.",
        "Google Password Manager removed your old passkey.",
        "Your password manager has deleted the passkey.",
        "The passkey is now hidden in your credential manager.",
        "Your iCloud Keychain was updated.",
        "Your keychain has been updated with your new name.",
        "Passkeys on this device were updated.",
        "The device's passkeys were updated.",
        "Your device's passkeys are up to date: the old one was deleted.",
        "We synced your passkeys with your device.",
        "Your passkeys were synchronized with your password manager.",
        "The passkey was restored on your phone.",
        "Your old passkey is gone from this device.",
        "The passkey no longer appears on your device.",
        "It no longer shows up in your password manager.",
        "Your credential manager renamed the passkey.",
        "The passkey was renamed in your keychain.",
        "We cleaned up the passkeys stored on this device.",
        "Stale passkeys were cleared from your password manager.",
        "Your password manager was cleaned up.",
        "The unknown passkey was erased from your phone.",
        "We wiped the old passkey from this iPhone.",
        "The passkey disappeared from your device.",
        "Your provider removed the passkey.",
        "Your passkey provider deleted the credential.",
        "1Password removed the passkey.",
        "Bitwarden has hidden the passkey.",
        "Samsung Pass updated your account name.",
        "The passkey was taken off your device.",
        "Done! The passkey was removed from this device.",
        "Success: your device no longer offers this passkey.",
        "All set. Your keychain now hides the revoked passkey.",
        "Your name was updated in your password manager.",
        "The display name was updated on your device.",
        "We updated your passkey's name on this phone.",
        "Your iPhone was updated with your new account name.",
        "The passkeys on your Mac were updated.",
        "The passkey was removed from your account and from this device.",
        "Removed from your account and from your password manager.",
        "This passkey was deleted from your device and your account.",
        "Your device has removed the passkey.",
        "The credential manager removes the passkey now.",
        "Passkey removed from Google Password Manager.",
        "Passkey deleted from iCloud Keychain.",
        "Passkey hidden on this device.",
        "Your passkey list on this device was refreshed.",
        "The passkey was revoked on this device.",
        "The old passkey is gone from your phone.",
        "Your phone is no longer listed with the old passkey: it was deleted.",
        "Your password manager deletes the passkey.",
        "The passkey was unhidden on your device.",
    ]

    /// Sentences that claim no provider-side result: labels, disclaimers, account-side statements.
    static let nonClaims = [
        "Passkey \"Google Password Manager\" was removed from your account.",
        "Passkey \"iCloud Keychain\" was removed from your account.",
        "Passkey “Samsung Pass” was deleted from your account.",
        "The passkey \"My iPhone\" was removed from your account.",
        "\"Pixel 8 (Google Password Manager)\" was revoked.",
        "The passkey was removed from your account.",
        "This passkey has been removed from your account.",
        "Your account no longer accepts this passkey.",
        "The passkey was revoked.",
        "Passkey revoked.",
        "We deleted the passkey from our servers.",
        "The passkey was deleted on the server.",
        "Your profile was updated.",
        "Your name was updated.",
        "Your account name was updated.",
        "Your display name has been changed.",
        "The passkey was removed from your account. It may still appear on this device until your password manager updates it.",
        "It may still appear on this device.",
        "It might still show up in your password manager for a while.",
        "Your device may keep showing this passkey until it syncs.",
        "We asked your password manager to remove it.",
        "We asked your device to hide this passkey.",
        "We requested that your password manager update the passkey.",
        "We can't tell whether your device removed it.",
        "We cannot confirm that your password manager deleted the passkey.",
        "Your password manager decides whether to remove the passkey.",
        "If the passkey still appears on your device, you can delete it in Settings.",
        "You can remove it from your password manager in Settings.",
        "To remove it from this device, open your password manager.",
        "Until your password manager updates, the passkey may still be offered.",
        "Your password manager should update soon.",
        "The passkey created on this device was removed from your account.",
        "The passkey you made on your phone was removed from your account.",
        "Passkeys saved in your password manager: 2",
        "Passkeys: 1",
        "Manage passkeys",
        "Sign-in failed. Try again.",
        "This passkey is not valid for your account.",
        "This passkey has been removed from your account.",
        "Your account is restricted.",
        "No connection. Try again.",
        "The passkey could not be created.",
        "The passkey could not be saved.",
        "Your profile could not be saved.",
        "Signed in on this device.",
        "You're signed in on your phone.",
        "Welcome back!",
        "Your passkey is ready.",
        "A passkey for this account is stored in your password manager.",
        "Use the passkey on this device to sign in.",
        "Your device wasn't changed.",
        "Nothing was removed from your device.",
        "We never change what your password manager stores.",
        "Removing a passkey from your account doesn't delete it from your device.",
        "Your account was updated; your password manager may follow later.",
        "Passkey removed from your account.",
        "The old passkey no longer works for your account.",
        "Your password manager hasn't been changed.",
    ]

    @Test("the corpus is large enough", arguments: [0])
    func corpusSize(_: Int) {
        #expect(Self.claims.count >= 50)
        #expect(Self.nonClaims.count >= 50)
    }

    @Test("every sentence that claims a provider-side result is read as a claim", arguments: claims)
    func claim(_ sentence: String) {
        #expect(ProviderClaim.claims(sentence), "\(sentence)")
    }

    @Test("no label, disclaimer or account-side statement is read as a claim", arguments: nonClaims)
    func nonClaim(_ sentence: String) {
        #expect(!ProviderClaim.claims(sentence), "\(sentence)")
    }

    @Test("the claiming sentence of a longer text is the one quoted")
    func quotesTheSentence() {
        #expect(ProviderClaim.claim(in: "Done. The passkey was removed from this device.") == "The passkey was removed from this device")
    }
}
