import ConformanceModel
@testable import ConformanceSimulation
import Foundation
import Testing

/// The platform backend seam: factories make a backend per target, and the provider model decides
/// apart from what fulfils the decision.
@Suite("Platform backends")
struct PlatformBackendTests {
    static let view = RegistrationView(
        rpID: "login.example.com", userHandle: Data([1, 2, 3]), userName: "alice@example.com", displayName: "Alice", challenge: Data(repeating: 7, count: 16),
        excludedCredentials: [], conditional: true, userVerification: "preferred")

    @Test("the simulated families serve every catalogued target, and their backend is the simulation host for that target")
    func simulatedPlatforms() throws {
        let factory = SimulatedPlatforms()
        for target in TargetCatalog.all {
            #expect(factory.serves(target), "\(target.id)")
        }
        let target = try #require(TargetCatalog.target(id: "android-15-gpm"))
        let backend = try factory.makeBackend(for: target, associatedRPIDs: ["login.example.com"], seed: 1, keepsPayloads: false)
        #expect(backend is SimulationHost)
        #expect(backend.target.id == target.id)
        #expect(!backend.keepsPayloads)
        #expect(backend.now() == 0 && backend.transcriptCount == 0)
    }

    @Test("a list of factories asks them in order and names the target no factory serves")
    func factories() throws {
        let target = try #require(TargetCatalog.target(id: "apple-26.2"))
        #expect(!PlatformBackendFactories([]).serves(target))
        #expect(throws: SystemIssue.self) {
            try PlatformBackendFactories([]).makeBackend(for: target, associatedRPIDs: [], seed: 1, keepsPayloads: true)
        }
        do {
            _ = try PlatformBackendFactories([]).makeBackend(for: target, associatedRPIDs: [], seed: 1, keepsPayloads: true)
        } catch {
            #expect("\(error)".contains("apple-26.2"))
        }
        let both = PlatformBackendFactories([PlatformBackendFactories([]), SimulatedPlatforms()])
        #expect(both.serves(target))
        #expect(try both.makeBackend(for: target, associatedRPIDs: [], seed: 1, keepsPayloads: true).target.id == target.id)
    }

    @Test("the provider model decides a conditional registration without making any bytes")
    func decisions() throws {
        let target = try #require(TargetCatalog.target(id: "android-15-gpm"))
        var provider = ProviderState()
        var notes: [PlatformSimulator.Note] = []
        // No recent autofill: declined silently.
        #expect(provider.decideRegistration(Self.view, target: target, associatedRPIDs: ["login.example.com"], now: 0, notes: &notes) == .refuse(.declined))
        #expect(notes.last?.text.contains("no recent autofill") == true)
        // Autofilled just now: a passkey without UP and UV.
        provider.lastAutofill = ProviderState.Autofill(username: "alice@example.com", rpID: "login.example.com", atMillis: 0)
        guard case .make(let flags) = provider.decideRegistration(Self.view, target: target, associatedRPIDs: ["login.example.com"], now: 1, notes: &notes)
        else {
            Issue.record("no passkey made: \(notes)")
            return
        }
        #expect(!flags.userPresent && !flags.userVerified)
        #expect(provider.passkeys.isEmpty, "deciding stores nothing; fulfilling does")
        // Another RP ID than the app's: refused as not associated, whatever the provider holds.
        #expect(provider.decideRegistration(Self.view, target: target, associatedRPIDs: ["other.example"], now: 1, notes: &notes) == .refuse(.notAssociated))
        // A forced failure is used up by the decision that meets it.
        let failure = try #require(CreateFailureClass.all.first { $0.platform == .android })
        provider.nextConditionalCreateFailure = failure
        #expect(provider.decideRegistration(Self.view, target: target, associatedRPIDs: ["login.example.com"], now: 1, notes: &notes) == .fail(failure.error))
        #expect(provider.nextConditionalCreateFailure == nil)
    }
}
