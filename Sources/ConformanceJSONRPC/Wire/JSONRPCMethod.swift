#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ConformanceKit

/// The methods of the adapter protocol over JSON-RPC, in both directions.
///
/// Each maps one-to-one to a member of `RelyingPartyAdapter`, `RelyingPartySession` or
/// `PlatformHost` (see `Documentation/adapter-protocol.md`).
public enum JSONRPCMethod: String, Sendable, CaseIterable {
    // Harness → adapter.
    case hello = "adapter.hello"
    case shutdown = "adapter.shutdown"
    case sessionOpen = "session.open"
    case sessionSetUp = "session.setUp"
    case sessionAddCredential = "session.addCredential"
    case sessionPerform = "session.perform"
    case sessionInspectAccount = "session.inspectAccount"
    case sessionInspectSession = "session.inspectSession"
    case sessionInjectFault = "session.injectFault"
    case sessionPlatformCompleted = "session.platformCompleted"
    case sessionTimerFired = "session.timerFired"
    case sessionClose = "session.close"
    // Adapter → harness.
    case platformCreateCredential = "platform.createCredential"
    case platformGetCredential = "platform.getCredential"
    case platformSignal = "platform.signal"
    case clockNow = "clock.now"
    case clockSchedule = "clock.schedule"
    case clockCancel = "clock.cancel"
    case uiShow = "ui.show"
    case telemetryRecord = "telemetry.record"
}

/// The params and results of every method, as they travel.
///
/// Every session-bound message carries `session`, so that one adapter process can serve several
/// sessions at once.
enum JSONRPCParams {
    struct Hello: Codable, Sendable {
        /// The harness's protocol version (`major.minor`).
        var protocolVersion: String
        /// The harness's name and version, for the adapter's logs.
        var harness: String?
    }

    struct Session: Codable, Sendable {
        var session: String
    }

    struct Open: Codable, Sendable {
        var session: String
        var context: SessionContext
    }

    struct SetUp: Codable, Sendable {
        var session: String
        var accounts: [AccountFixture]
    }

    struct AddCredential: Codable, Sendable {
        var session: String
        var credential: CredentialFixture
    }

    struct Perform: Codable, Sendable {
        var session: String
        var action: UserAction
    }

    struct InspectAccount: Codable, Sendable {
        var session: String
        var username: String
    }

    struct InjectFault: Codable, Sendable {
        var session: String
        var fault: Fault
    }

    struct PlatformCompleted: Codable, Sendable {
        var session: String
        var operation: OperationID
        var outcome: PlatformOutcome
    }

    struct TimerFired: Codable, Sendable {
        var session: String
        var timer: TimerID
    }

    struct CreateCredential: Codable, Sendable {
        var session: String
        var request: CreateCredentialRequest
    }

    struct GetCredential: Codable, Sendable {
        var session: String
        var request: GetCredentialRequest
    }

    struct Signal: Codable, Sendable {
        var session: String
        var request: SignalRequest
    }

    struct Schedule: Codable, Sendable {
        var session: String
        var afterMillis: Int64
        var label: String
    }

    struct Cancel: Codable, Sendable {
        var session: String
        var timer: TimerID
    }

    struct Show: Codable, Sendable {
        var session: String
        var event: UIEvent
    }

    struct Telemetry: Codable, Sendable {
        var session: String
        var event: TelemetryEvent
    }

    /// The result of `platform.*`.
    struct Operation: Codable, Sendable {
        var operation: OperationID
    }

    /// The result of `clock.now`.
    struct Now: Codable, Sendable {
        var millis: Int64
    }

    /// The result of `clock.schedule`.
    struct Timer: Codable, Sendable {
        var timer: TimerID
    }

    /// The result of methods that return nothing: `{}`.
    struct Empty: Codable, Sendable {}
}

/// Params that name a session.
protocol SessionScoped: Decodable {
    var session: String { get }
}

extension JSONRPCParams.Session: SessionScoped {}
extension JSONRPCParams.SetUp: SessionScoped {}
extension JSONRPCParams.AddCredential: SessionScoped {}
extension JSONRPCParams.Perform: SessionScoped {}
extension JSONRPCParams.InspectAccount: SessionScoped {}
extension JSONRPCParams.InjectFault: SessionScoped {}
extension JSONRPCParams.PlatformCompleted: SessionScoped {}
extension JSONRPCParams.TimerFired: SessionScoped {}

/// The parts of a `major.minor` protocol version.
enum ProtocolVersion {
    /// The major number, or `nil` when `text` is not `major.minor`.
    static func major(of text: String) -> Int? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let major = Int(parts[0]), Int(parts[1]) != nil else { return nil }
        return major
    }
}
