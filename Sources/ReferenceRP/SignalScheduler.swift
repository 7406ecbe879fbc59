import ConformanceModel
import ConformanceSimulation
import Foundation

/// The reference app's signalling: which interface the device offers, what is pending, and the
/// Android rate budget. Pure state; `ReferenceSession+Signals` drives it.
enum SignalScheduler {
    /// The native signal interface chosen at run time.
    enum Interface: Sendable, Hashable {
        case android
        case appleDataManager
        case appleUpdater
    }

    /// What a signal is for; a retry rebuilds the payload from the intent, so it carries current state.
    enum Intent: Sendable, Hashable {
        case reconcile(username: String)
        case unknown(rpID: String, credentialID: Data)
        case userDetails(username: String, nameChanged: Bool, displayNameChanged: Bool)
        /// The same bytes again (only a mutant retries with the stale payload).
        case resend(SignalRequest)
        /// An explicit accepted list (only mutants send one).
        case fixedList(username: String, ids: [Data])

        /// The account whose list or details the intent sends; `nil` for a credential's signal
        /// and for a mutant's own payloads.
        var accountUsername: String? {
            switch self {
            case .reconcile(let username), .userDetails(let username, _, _): username
            case .unknown, .resend, .fixedList: nil
            }
        }
    }

    /// A passkey sign-in waiting for the platform.
    struct PendingSignIn: Sendable, Hashable {
        var rpID: String
        var username: String?
    }

    struct State: Sendable {
        /// Debounce (or batch) timers of pending reconciliations, by account.
        var reconcileTimers: [String: TimerID] = [:]
        /// What each signal timer (debounce, delayed mutant) will do.
        var timerIntents: [TimerID: Intent] = [:]
        /// Signals waiting for the Android rate limit (retryMillis or the ten-call budget), oldest first;
        /// equivalent work is coalesced here.
        var held: [Intent] = []
        /// The timer that sends the held signals.
        var flushTimer: TimerID?
        /// Lists captured at the first trigger (only a mutant coalesces to the first state).
        var capturedLists: [String: [Data]] = [:]
        /// Times, kinds and RP IDs of this app's Android signal calls.
        var androidCalls: [(at: Int64, kind: String, rpID: String)] = []
        /// After a rate-limit exception: no Android signal before this time (the platform's retryMillis).
        var androidBlockedUntil: Int64 = 0
        /// Signals in flight.
        var inFlight: [OperationID: (intent: Intent, request: SignalRequest)] = [:]
        var pendingSignIns: [OperationID: PendingSignIn] = [:]
        /// Work a mutant holds back until a signal's answer (`Mutants+Waits.swift`).
        var waiting: [OperationID: SignalWaits.Work] = [:]
        /// The last account signed in (read only by a mutant that reconciles while signed out).
        var lastUsername: String?
        /// The recurring reconciliation of a design that has one (F-schedule).
        var periodicTimer: TimerID?
        /// The recurring timer that does nothing, of a design that has one (F-time).
        var idleTimer: TimerID?
        /// Times of the Android calls the app's own budget counted (F-drop).
        var ownCalls: [Int64] = []
        /// The accepted list of each account the app last received from its server (read only by a
        /// mutant that falls back to it when an answer is lost).
        var lastReceivedLists: [String: [Data]] = [:]
    }

    /// Whether two pending signals do the same work, so one of them is enough: a reconciliation or
    /// user-details update of the same account (built from current state when sent), or the same
    /// unknown credential.
    static func equivalent(_ lhs: Intent, _ rhs: Intent) -> Bool {
        switch (lhs, rhs) {
        case (.reconcile(let a), .reconcile(let b)): a == b
        case (.userDetails(let a, _, _), .userDetails(let b, _, _)): a == b
        case (.unknown(let rpA, let idA), .unknown(let rpB, let idB)): rpA == rpB && idA == idB
        default: false
        }
    }

    /// The account an intent concerns, if any.
    static func username(_ intent: Intent) -> String? {
        switch intent {
        case .reconcile(let username), .userDetails(let username, _, _), .fixedList(let username, _): username
        default: nil
        }
    }

    /// The signal interface the device offers, checked at run time from OS and library versions.
    static func offeredInterface(_ device: DeviceInfo) -> Interface? {
        switch device.family.platform {
        case .apple:
            // Apple's signal APIs have the same floors (26.0, 26.2) on iOS, iPadOS, macOS and visionOS.
            let version = Version(device.osVersion)
            if version >= Version.apple26_2 { return .appleDataManager }
            if version >= Version.apple26 { return .appleUpdater }
            return nil
        case .android:
            let available = Version(device.osVersion) >= Version.android15 && Version(device.credentialsLibraryVersion ?? "0") >= Version.credentials1_6
            return available ? .android : nil
        case .web:
            // The reference relying party is a native app; it has no web front end.
            return nil
        }
    }

    /// The Android budget: calls per window.
    static let androidBudget = 10
    static let androidWindowMillis: Int64 = 120_000
}
