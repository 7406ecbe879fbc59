@testable import ConformanceKit
import Testing

/// The pieces of "text by cause, then by meaning": which events two runs both showed, and what the
/// readers of English text may excuse once an event is attributed to its cause.
@Suite("Text by cause, then by meaning: the pieces")
struct TextByCauseReadingTests {
    @Test("both runs' events pair by kind and text, in order, each event of the other run used once")
    func matchedInOrder() {
        let home = UIEvent(.screen, "Home")
        let ready = UIEvent(.message, "Your passkey is ready")
        #expect(World.matchedInOrder([home, ready, home], [home, home]) == [0, 2])
        #expect(World.matchedInOrder([home, home, home], [home]) == [0])
        #expect(World.matchedInOrder([ready], [UIEvent(.confirmation, "Your passkey is ready")]) == [])
        #expect(World.matchedInOrder([ready, home], [home, ready]).count == 1)
        #expect(World.matchedInOrder([], [home]) == [])
        #expect(World.matchedInOrder([home], []) == [])
    }

    @Test("runs too long for the table are paired greedily, in order, never more than the table would pair")
    func greedyPairing() {
        let home = UIEvent(.screen, "Home")
        let ready = UIEvent(.message, "Your passkey is ready")
        let many = [UIEvent](repeating: home, count: 1_001)
        #expect(many.count * many.count > World.matchingTableLimit)
        #expect(World.matchedInOrder(many, many).count == many.count)
        #expect(World.matchedInOrder(many + [ready], many) == Set(0..<many.count))
        #expect(World.greedilyMatched([home, ready, home], [home, home]) == [0, 2])
        #expect(World.greedilyMatched([ready, home], [home, ready]) == [0])
        for (events, others) in [([home, ready, home], [ready, home]), ([ready, ready, home], [home, ready])] {
            #expect(World.greedilyMatched(events, others).count <= World.matchedInOrder(events, others).count)
        }
    }

    @Test("a provider claim reader excuses hedges, account-side results and labels, and nothing it cannot read")
    func providerClaimExcuses() {
        for text in [
            "We asked your password manager to update your passkeys.", "Your account no longer accepts this passkey.",
            "Passkey \"Google Password Manager\" was removed from your account.",
            "The passkey was removed from your account. It may still appear on this device until your password manager updates it.",
        ] {
            #expect(ProviderClaim.claimsNothing(text), "\(text)")
        }
        for text in [
            "Your passkeys are now up to date.", "La clé d'accès a été supprimée de cet appareil.", "Done", "Welcome back, Alice.",
            "The passkey was removed from this device.", "Passkey removed from your account. Your device was updated too.", "",
        ] {
            #expect(!ProviderClaim.claimsNothing(text), "\(text)")
        }
    }

    @Test("no sentence of the claims corpus is excused", arguments: ProviderClaimCorpusTests.claims)
    func corpusClaimsAreNotExcused(_ sentence: String) {
        #expect(!ProviderClaim.claimsNothing(sentence), "\(sentence)")
    }

    @Test("after a no-create only an English offer of a passkey is excused; after a success only a failure report")
    func upgradeExcuses() {
        for text in ["Sign in faster next time: you can create a passkey in Settings.", "Create a passkey", "Set up a passkey for faster sign-in"] {
            #expect(UpgradeClaims.excusedAsNoError(UIEvent(.message, text)), "\(text)")
            #expect(UpgradeClaims.excusedAsNoError(UIEvent(.screen, text)), "\(text)")
            #expect(!UpgradeClaims.excusedAsNoError(UIEvent(.error, text)), "an error event is never excused: \(text)")
        }
        for text in [
            "Passkey not available right now.", "Es wurde kein Passkey erstellt.", "Erstellen Sie einen Passkey in den Einstellungen.",
            "Passkey creation failed. Try again later.", "Passkey created", "Home",
        ] {
            #expect(!UpgradeClaims.excusedAsNoError(UIEvent(.message, text)), "\(text)")
        }
        for text in UpgradeClaimsTests.failures { #expect(UpgradeClaims.excusedAsNoConfirmation(UIEvent(.message, text)), "\(text)") }
        for text in ["Ihr Passkey ist bereit.", "Done! Next time, sign in with Face ID.", "Passkeys saved: 1", "Your passkey is ready"] {
            #expect(!UpgradeClaims.excusedAsNoConfirmation(UIEvent(.confirmation, text)), "\(text)")
        }
    }

    @Test("the target without a signal interface keeps every other feature, below each family's signal floor")
    func targetWithoutSignalInterface() {
        let signalFeatures: Set<Target.Feature> = [.signals, .credentialUpdater, .credentialDataManager, .signalCredentialState]
        let targets = TargetCatalog.all.filter { $0.has(.signals) }
        #expect(!targets.isEmpty)
        for target in targets {
            let without = target.withoutSignalInterface
            #expect(without.id == target.id)
            #expect(without.features == target.features.subtracting(signalFeatures), "\(target.id)")
            #expect(without.osFamily == target.osFamily)
            let floor = target.platform == .android ? "15" : "26.0"
            #expect(!Target.version(without.osVersion, isAtLeast: floor), "\(target.id): \(without.osVersion)")
            #expect(without.hasConditionalRequestStyle == target.hasConditionalRequestStyle, "\(target.id)")
        }
    }
}
