#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ConformanceModel

/// The methods of the adapter protocol over JSON-RPC, in both directions.
///
/// Each maps one-to-one to a member of `RelyingPartyAdapter`, `RelyingPartySession` or
/// `PlatformHost` (see `Documentation/adapter-protocol.md`).
public enum JSONRPCMethod: String, Sendable, CaseIterable {
    // Harness → adapter.
    /// Negotiates the version and asks the adapter to describe itself; sent once, first.
    case hello = "adapter.hello"
    /// Ends the run: the adapter closes its sessions, answers and exits.
    case shutdown = "adapter.shutdown"
    /// Starts a fresh app and server for one test case.
    case sessionOpen = "session.open"
    /// Creates the scenario's accounts on the server.
    case sessionSetUp = "session.setUp"
    /// Stores a passkey record on the server, as if registered earlier.
    case sessionAddCredential = "session.addCredential"
    /// The user does something in the app; answered with what the app shows.
    case sessionPerform = "session.perform"
    /// Asks for the server's record of an account.
    case sessionInspectAccount = "session.inspectAccount"
    /// Asks for the app's current session.
    case sessionInspectSession = "session.inspectSession"
    /// Makes the server or the network misbehave.
    case sessionInjectFault = "session.injectFault"
    /// Delivers how a platform operation the app started ended.
    case sessionPlatformCompleted = "session.platformCompleted"
    /// Tells the app that a timer it scheduled is due.
    case sessionTimerFired = "session.timerFired"
    /// Ends a session.
    case sessionClose = "session.close"
    // Adapter → harness.
    /// The app asks the platform to create a passkey; answered with an operation id.
    case platformCreateCredential = "platform.createCredential"
    /// The app asks the platform for an assertion; answered with an operation id.
    case platformGetCredential = "platform.getCredential"
    /// The app sends a signal to the credential manager; answered with an operation id.
    case platformSignal = "platform.signal"
    /// The app reads the virtual time in milliseconds.
    case clockNow = "clock.now"
    /// The app sets a timer on the virtual clock; answered with a timer id.
    case clockSchedule = "clock.schedule"
    /// The app cancels a timer (a notification).
    case clockCancel = "clock.cancel"
    /// The app reports what it shows the user (a notification).
    case uiShow = "ui.show"
    /// The app reports a telemetry record (a notification).
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
