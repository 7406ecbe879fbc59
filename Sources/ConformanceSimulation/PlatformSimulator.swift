import ConformanceModel
import Foundation
import WebAuthn

/// The simulated platform of one target: it answers the relying party's create, get and signal
/// calls as the real credential manager would, and notes what it did in the transcript.
///
/// Decisions follow `../shared/domain/platform-facts.md`: request shapes and validation,
/// availability by OS and library version, the provider's silent decision for conditional requests,
/// the error taxonomy of each platform, and the Android signal rate limit.
public struct PlatformSimulator: Sendable {
    /// Something the simulator noticed about a call, recorded in the transcript.
    public struct Note: Sendable, Hashable {
        /// What sort of thing the simulator noticed.
        public enum Kind: String, Sendable, Hashable {
            /// The app called an API the target does not have.
            case unsupportedCall = "unsupported-call"
            /// The app called an API deprecated on the target.
            case deprecatedCall = "deprecated-call"
            /// The platform rejected the request's payload.
            case malformedRequest = "malformed-request"
            /// The provider decided something (created, declined, hid, …).
            case decision
            /// The platform showed UI (a modal sheet).
            case uiShown = "ui-shown"
        }
        /// What sort of thing the simulator noticed.
        public var kind: Kind
        /// The note in a sentence, for the transcript.
        public var text: String

        /// A note of a kind, in a sentence.
        public init(kind: Kind, text: String) {
            self.kind = kind
            self.text = text
        }
    }

    /// The target whose platform this simulates.
    public let target: Target
    /// RP IDs the app is associated with (from the adapter's description).
    public let associatedRPIDs: [String]
    /// The credential manager's state, which the scenario's steps set up and the calls change.
    public var provider = ProviderState()
    /// The provider's authenticator: real keys, real WebAuthn bytes, deterministic for the seed.
    public let authenticator: VirtualAuthenticator

    /// The simulation of the target's platform family.
    public var family: any PlatformFamilySimulation { PlatformFamilies.simulation(of: target.platform) }

    /// Creates the platform of a target for an app associated with `associatedRPIDs`; the seed makes the
    /// authenticator's keys and credential ids reproducible.
    public init(target: Target, associatedRPIDs: [String], seed: UInt64) throws {
        self.target = target
        self.associatedRPIDs = associatedRPIDs
        authenticator = try VirtualAuthenticator(seed: VirtualAuthenticator.seedBytes(seed, label: "provider"))
    }

    /// The origin the platform writes into clientDataJSON for an RP ID.
    public func origin(rpID: String) -> String {
        family.origin(rpID: rpID)
    }
}

extension VirtualAuthenticator {
    /// 32 bytes derived from a run seed and a label: the seed of an authenticator whose keys and
    /// credential ids a test case reproduces.
    public static func seedBytes(_ seed: UInt64, label: String) -> Data {
        var input = Data(label.utf8)
        withUnsafeBytes(of: seed.bigEndian) { input.append(contentsOf: $0) }
        return SHA256.hash(input)
    }
}
