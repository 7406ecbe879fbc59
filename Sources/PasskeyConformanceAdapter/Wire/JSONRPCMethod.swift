#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import PasskeyConformanceProtocol

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
    /// Asks for the app's session and several accounts in one call (1.4).
    case sessionInspect = "session.inspect"
    /// Makes the server or the network misbehave.
    case sessionInjectFault = "session.injectFault"
    /// Delivers how a platform operation the app started ended.
    case sessionPlatformCompleted = "session.platformCompleted"
    /// Tells the app that a timer it scheduled is due.
    case sessionTimerFired = "session.timerFired"
    /// A request of the relying party's page on a web target (1.3); answered with the response.
    case sessionWebRequest = "session.webRequest"
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
package enum JSONRPCParams {
    package struct Hello: Codable, Sendable {
        /// The harness's protocol version (`major.minor`).
        package var protocolVersion: String
        /// The harness's name and version, for the adapter's logs.
        package var harness: String?

        package init(protocolVersion: String, harness: String? = nil) {
            self.protocolVersion = protocolVersion
            self.harness = harness
        }
    }

    package struct Session: Codable, Sendable {
        package var session: String

        package init(session: String) {
            self.session = session
        }
    }

    package struct Open: Codable, Sendable {
        package var session: String
        package var context: SessionContext

        package init(session: String, context: SessionContext) {
            self.session = session
            self.context = context
        }
    }

    package struct SetUp: Codable, Sendable {
        package var session: String
        package var accounts: [AccountFixture]

        package init(session: String, accounts: [AccountFixture]) {
            self.session = session
            self.accounts = accounts
        }
    }

    package struct AddCredential: Codable, Sendable {
        package var session: String
        package var credential: CredentialFixture

        package init(session: String, credential: CredentialFixture) {
            self.session = session
            self.credential = credential
        }
    }

    package struct Perform: Codable, Sendable {
        package var session: String
        package var action: UserAction

        package init(session: String, action: UserAction) {
            self.session = session
            self.action = action
        }
    }

    package struct InspectAccount: Codable, Sendable {
        package var session: String
        package var username: String

        package init(session: String, username: String) {
            self.session = session
            self.username = username
        }
    }

    package struct Inspect: Codable, Sendable {
        package var session: String
        package var usernames: [String]

        package init(session: String, usernames: [String]) {
            self.session = session
            self.usernames = usernames
        }
    }

    package struct InjectFault: Codable, Sendable {
        package var session: String
        package var fault: Fault

        package init(session: String, fault: Fault) {
            self.session = session
            self.fault = fault
        }
    }

    package struct PlatformCompleted: Codable, Sendable {
        package var session: String
        package var operation: OperationID
        package var outcome: PlatformOutcome

        package init(session: String, operation: OperationID, outcome: PlatformOutcome) {
            self.session = session
            self.operation = operation
            self.outcome = outcome
        }
    }

    package struct TimerFired: Codable, Sendable {
        package var session: String
        package var timer: TimerID

        package init(session: String, timer: TimerID) {
            self.session = session
            self.timer = timer
        }
    }

    package struct WebRequestParams: Codable, Sendable {
        package var session: String
        package var request: WebRequest

        package init(session: String, request: WebRequest) {
            self.session = session
            self.request = request
        }
    }

    package struct CreateCredential: Codable, Sendable {
        package var session: String
        package var request: CreateCredentialRequest

        package init(session: String, request: CreateCredentialRequest) {
            self.session = session
            self.request = request
        }
    }

    package struct GetCredential: Codable, Sendable {
        package var session: String
        package var request: GetCredentialRequest

        package init(session: String, request: GetCredentialRequest) {
            self.session = session
            self.request = request
        }
    }

    package struct Signal: Codable, Sendable {
        package var session: String
        package var request: SignalRequest

        package init(session: String, request: SignalRequest) {
            self.session = session
            self.request = request
        }
    }

    package struct Schedule: Codable, Sendable {
        package var session: String
        package var afterMillis: Int64
        package var label: String

        package init(session: String, afterMillis: Int64, label: String) {
            self.session = session
            self.afterMillis = afterMillis
            self.label = label
        }
    }

    package struct Cancel: Codable, Sendable {
        package var session: String
        package var timer: TimerID

        package init(session: String, timer: TimerID) {
            self.session = session
            self.timer = timer
        }
    }

    package struct Show: Codable, Sendable {
        package var session: String
        package var event: UIEvent

        package init(session: String, event: UIEvent) {
            self.session = session
            self.event = event
        }
    }

    package struct Telemetry: Codable, Sendable {
        package var session: String
        package var event: TelemetryEvent

        package init(session: String, event: TelemetryEvent) {
            self.session = session
            self.event = event
        }
    }

    /// The result of `platform.*`.
    package struct Operation: Codable, Sendable {
        package var operation: OperationID

        package init(operation: OperationID) {
            self.operation = operation
        }
    }

    /// The result of `clock.now`.
    package struct Now: Codable, Sendable {
        package var millis: Int64

        package init(millis: Int64) {
            self.millis = millis
        }
    }

    /// The result of `clock.schedule`.
    package struct Timer: Codable, Sendable {
        package var timer: TimerID

        package init(timer: TimerID) {
            self.timer = timer
        }
    }

    /// The result of methods that return nothing: `{}`.
    package struct Empty: Codable, Sendable {
        package init() {}
    }
}

/// Params that name a session.
package protocol SessionScoped: Decodable {
    var session: String { get }
}

extension JSONRPCParams.Session: SessionScoped {}
extension JSONRPCParams.SetUp: SessionScoped {}
extension JSONRPCParams.AddCredential: SessionScoped {}
extension JSONRPCParams.Perform: SessionScoped {}
extension JSONRPCParams.InspectAccount: SessionScoped {}
extension JSONRPCParams.Inspect: SessionScoped {}
extension JSONRPCParams.InjectFault: SessionScoped {}
extension JSONRPCParams.PlatformCompleted: SessionScoped {}
extension JSONRPCParams.TimerFired: SessionScoped {}
extension JSONRPCParams.WebRequestParams: SessionScoped {}

/// The parts of a `major.minor` protocol version.
package enum ProtocolVersion {
    /// The major number, or `nil` when `text` is not `major.minor`.
    package static func major(of text: String) -> Int? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let major = Int(parts[0]), Int(parts[1]) != nil else { return nil }
        return major
    }
}

extension JSONRPCMethod {
    /// The methods an adapter calls on the harness: the platform, the clock, the screen and telemetry.
    package static let callsToHarness: Set<JSONRPCMethod> = [
        .platformCreateCredential, .platformGetCredential, .platformSignal, .clockNow, .clockSchedule, .clockCancel, .uiShow, .telemetryRecord,
    ]
}
