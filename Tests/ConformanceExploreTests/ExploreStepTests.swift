@testable import ConformanceExplore
@testable import ConformanceKit
import Testing

/// Typed explore steps: each is bound to the library definition its sentence names, and reads as
/// the sentence the step library defines.
@Suite("explore: typed steps")
struct ExploreStepTests {
    /// One step of every kind, with the argument values histories use.
    static let everyKind: [ExploreStep] =
        ["alice", "bob", "carol"].flatMap { alias -> [ExploreStep] in
            [
                .account(alias, policy: "password only"), .savedPassword(alias), .signIn(alias, password: .autofilled), .signIn(alias, password: .typed),
                .signIn(alias, password: .savedFor("bob")), .switchAccount(alias, password: .autofilled), .switchAccount(alias, password: .typed),
                .recoverySignIn(alias), .alternativeSignIn(alias, method: "a magic link"), .revokePasskey(alias), .cancelPasskeySignIn(alias),
                .rename(name: "\(alias).renamed@example.com", displayName: "-"),
            ]
        } + [
            .account("carol", policy: "password and second factor"), .providerPasskeys("alice", count: 2), .providerPasskeys("alice", count: 1),
            .revokedProviderPasskey("alice"), .passkeyUnknownToServer("alice"), .secondFactor("correct"), .secondFactor("expired"), .signOut,
            .relaunch, .refreshPoint, .passkeySignIn(.of("alice")), .passkeySignIn(.unknownToServer), .passkeySignIn(.revoked),
            .passkeySignIn(.invalidSignature("alice")), .rename(name: "-", displayName: "Renamed"), .holdRegistrationResponses,
            .releaseFirstHeldResponse, .failNextRegistration("CreateCredentialNoCreateOptionException"), .rateLimitNextSignal(seconds: 60),
            .timePasses(.seconds(1)), .timePasses(.seconds(45)), .timePasses(.minutes(2)), .timePasses(.natural(seconds: 1)),
            .timePasses(.natural(seconds: 60)), .timePasses(.natural(seconds: 3600)), .quiescence,
        ]

    @Test("each step's sentence matches exactly the definition its binding names, with the same arguments", arguments: everyKind)
    func sentenceMatchesBinding(step: ExploreStep) throws {
        guard case .found(let definition, let arguments) = StepLibrary.standard.match(step.sentence) else {
            Issue.record("\"\(step.sentence)\" names no single definition")
            return
        }
        #expect(definition.id == step.binding.definition, "\(step.sentence)")
        #expect(arguments == step.binding.arguments, "\(step.sentence)")
    }

    @Test("every step the generator draws, for several seeds and targets, is bound as its sentence reads")
    func generatedStepsMatchTheirSentences() throws {
        let capabilities = Set(Capability.allCases)
        for target in Explorer.defaultTargets.compactMap(TargetCatalog.target(id:)) {
            for seed in UInt64(1)...20 {
                var generator = HistoryGenerator(capabilities: capabilities, target: target, random: SplitMix64(seed: seed))
                for step in generator.background() + (0..<12).map({ generator.next(held: $0 % 3) }) {
                    guard case .found(let definition, let arguments) = StepLibrary.standard.match(step.sentence) else {
                        Issue.record("\"\(step.sentence)\" names no single definition")
                        continue
                    }
                    #expect(definition.id == step.binding.definition && arguments == step.binding.arguments, "\(step.sentence)")
                }
            }
        }
    }

    @Test("time spans read as they were written: drawn spans in the plural, merged ones in whole minutes and the singular for one")
    func timeSentences() {
        #expect(ExploreStep.timePasses(.seconds(1)).sentence == "1 seconds pass")
        #expect(ExploreStep.timePasses(.seconds(300)).sentence == "300 seconds pass")
        #expect(ExploreStep.timePasses(.minutes(10)).sentence == "10 minutes pass")
        #expect(ExploreStep.timePasses(.natural(seconds: 1)).sentence == "1 second passes")
        #expect(ExploreStep.timePasses(.natural(seconds: 60)).sentence == "1 minute passes")
        #expect(ExploreStep.timePasses(.natural(seconds: 300)).sentence == "5 minutes pass")
        #expect(ExploreStep.timePasses(.natural(seconds: 121)).sentence == "121 seconds pass")
        #expect(ExploreStep.timePasses(.minutes(2)).waitSeconds == 120)
        #expect(ExploreStep.signOut.waitSeconds == nil)
    }

    @Test("the shrinker's simplifications: shorter waits, alice for another account, an autofilled password, a sign-in for a switch, the shortest rate limit")
    func simplifications() {
        func sentences(_ step: ExploreStep) -> [String] { step.simplifications.map(\.sentence) }
        #expect(sentences(.timePasses(.seconds(121))) == ["1 second passes", "30 seconds pass", "1 minute passes"])
        #expect(
            sentences(.signIn("bob", password: .savedFor("carol"))) == [
                "the user signs in as \"alice\" with the password saved for \"carol\"", "the user signs in as \"bob\" with the password saved for \"alice\"",
            ])
        #expect(
            sentences(.switchAccount("carol", password: .typed)) == [
                "the user switches to \"alice\" typing the password by hand", "the user switches to \"carol\" with the autofilled password",
            ])
        #expect(sentences(.switchAccount("alice", password: .autofilled)) == ["the user signs in as \"alice\" with the autofilled password"])
        #expect(sentences(.signIn("alice", password: .typed)) == ["the user signs in as \"alice\" with the autofilled password"])
        #expect(sentences(.rateLimitNextSignal(seconds: 60)) == ["the platform rejects the next signal with a rate limit of 5 seconds"])
        #expect(sentences(.rateLimitNextSignal(seconds: 5)).isEmpty)
        // A renamed account's new name is not an alias: it stays.
        #expect(sentences(.rename(name: "bob.renamed@example.com", displayName: "-")).isEmpty)
        #expect(sentences(.timePasses(.seconds(1))).isEmpty)
    }

    @Test("every invariant has a unique name and verify items of its own criterion")
    func invariants() {
        #expect(Set(ExploreInvariant.all.map(\.id)).count == ExploreInvariant.all.count)
        for invariant in ExploreInvariant.all {
            // A source criterion's items are V1, V2, …; a derived one's single item bears its name (N2.6-X02.X02).
            #expect(
                invariant.items.allSatisfy {
                    $0.criterion == invariant.criterion && ($0.local.hasPrefix("V") || "\(invariant.criterion)".hasSuffix("-" + $0.local))
                },
                "\(invariant.id): \(invariant.items)")
        }
    }
}
