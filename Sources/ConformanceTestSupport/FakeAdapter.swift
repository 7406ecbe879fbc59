import ConformanceKit
import Foundation
import Synchronization

/// A tiny in-process relying party for runner tests: it declares what it is told to, records every
/// call, and fails where it is told to. It never calls the platform by itself.
package struct FakeAdapter: RelyingPartyAdapter {
    /// What the fake does wrong, on purpose.
    package struct Faults: Sendable {
        /// `openSession` throws this message for test cases whose id contains the key.
        package var openSessionFailures: [String: String] = [:]
        /// `perform` throws this message when the action's username is the key.
        package var performFailures: [String: String] = [:]
        /// Creates a set of faults; by default the fake fails nowhere.
        package init(openSessionFailures: [String: String] = [:], performFailures: [String: String] = [:]) {
            self.openSessionFailures = openSessionFailures
            self.performFailures = performFailures
        }
    }

    /// An error of the fake's transport, as an adapter would throw it.
    package struct TransportError: Error, Sendable, CustomStringConvertible {
        /// The message the fake was told to fail with.
        package var message: String
        /// The message.
        package var description: String { message }
    }

    /// What the fake declares: the configured targets and capabilities, RP ID `fake.example.com`.
    package let description: AdapterDescription
    /// Where the fake fails on purpose.
    package let faults: Faults
    /// The record of every call the fake received; shared with the test.
    package let log: CallLog

    /// Creates a fake that declares every target and capability unless told otherwise, speaks the
    /// harness's protocol version, and fails nowhere.
    package init(
        targets: [TargetID] = TargetCatalog.all.map(\.id), capabilities: [Capability] = Capability.allCases,
        faults: Faults = Faults(), log: CallLog = CallLog(), protocolVersion: String = adapterProtocolVersion
    ) {
        self.description = AdapterDescription(
            protocolVersion: protocolVersion, name: "fake-rp", version: "0.0.1", targets: targets, capabilities: capabilities,
            relyingPartyIDs: ["fake.example.com"])
        self.faults = faults
        self.log = log
    }

    /// Returns the configured description.
    package func describe() async throws -> AdapterDescription { description }

    /// Logs the call and opens a session that logs its calls, or throws where the faults say so.
    package func openSession(_ context: SessionContext, host: any PlatformHost) async throws -> any RelyingPartySession {
        log.append("openSession \(context.testCase)")
        if let message = faults.openSessionFailures.first(where: { context.testCase.contains($0.key) })?.value {
            throw TransportError(message: message)
        }
        return Session(testCase: context.testCase, faults: faults, log: log)
    }

    /// Does nothing; the fake holds no resources.
    package func shutdown() async {}

    /// Every call the fake received, in order, across sessions.
    package final class CallLog: Sendable {
        private let entries = Mutex<[String]>([])
        /// Creates an empty log.
        package init() {}
        /// Appends an entry; safe from any task.
        package func append(_ entry: String) { entries.withLock { $0.append(entry) } }
        /// Every entry so far, in order.
        package var all: [String] { entries.withLock { $0 } }
    }

    struct Session: RelyingPartySession {
        let testCase: String
        let faults: Faults
        let log: CallLog

        func setUp(accounts: [AccountFixture]) async throws {
            log.append("setUp \(testCase) \(accounts.map(\.username).joined(separator: ","))")
        }
        func addCredential(_ credential: CredentialFixture) async throws { log.append("addCredential \(testCase)") }
        func perform(_ action: UserAction) async throws -> ActionOutcome {
            log.append("perform \(testCase) \(action.kind.rawValue) \(action.username ?? "-")")
            if let username = action.username, let message = faults.performFailures[username] {
                throw TransportError(message: message)
            }
            return ActionOutcome(.done)
        }
        func inspectAccount(username: String) async throws -> AccountSnapshot {
            AccountSnapshot(
                username: username, accountID: "account-\(username)", userHandle: Data(username.utf8), rpID: "fake.example.com",
                name: username, displayName: username, credentials: [])
        }
        func inspectSession() async throws -> SessionSnapshot { SessionSnapshot(stage: .signedOut) }
        func injectFault(_ fault: Fault) async throws {}
        func platformCompleted(operation: OperationID, outcome: PlatformOutcome) async throws {}
        func timerFired(_ timer: TimerID) async throws {}
        func close() async { log.append("close \(testCase)") }
    }
}

/// Step definitions for runner tests, each doing one plain thing through the `World`.
package enum TestSteps {
    /// `the user refreshes as {word}` performs an action that names that user (a recovery sign-in,
    /// which the fake may throw for);
    /// `the step passes`, `the step fails because {string}`, `the step is not verified because {string}`,
    /// `the step throws {string}`, and `the step needs the signals capability` (declares `needs`).
    package static let definitions: [StepDefinition] = [
        StepDefinition("the user refreshes as {word}") { world, arguments in
            try await world.perform(.recoverySignIn(username: arguments[0]))
            return .passed
        },
        StepDefinition("the step passes") { _, _ in .passed },
        StepDefinition("the step fails because {string}") { world, arguments in
            world.host.record(.step, "test.assertion", "about to fail: \(arguments[0])")
            return .failed(arguments[0])
        },
        StepDefinition("the step is not verified because {string}") { _, arguments in .notVerified(arguments[0]) },
        StepDefinition("the step throws {string}") { _, arguments in throw SystemIssue(arguments[0]) },
        StepDefinition("the step needs the signals capability", needs: [.signals]) { _, _ in .passed },
    ]

    /// A library of exactly `definitions`.
    package static let library = StepLibrary(definitions)
}
