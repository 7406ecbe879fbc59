import ConformanceKit
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
        /// The same bytes again (the stale-retry mutant only).
        case resend(SignalRequest)
        /// An explicit accepted list (the rename mutant's empty list only).
        case fixedList(username: String, ids: [Data])
    }

    /// A passkey sign-in waiting for the platform.
    struct PendingSignIn: Sendable, Hashable {
        var rpID: String
        var username: String?
    }

    struct State: Sendable {
        /// Debounce timers of pending reconciliations, by account.
        var reconcileTimers: [String: TimerID] = [:]
        /// What each signal timer (debounce, deferral, retry) will do.
        var timerIntents: [TimerID: Intent] = [:]
        /// Lists captured at the first trigger (the first-state mutant only).
        var capturedLists: [String: [Data]] = [:]
        /// Times of this app's Android signal calls.
        var androidCalls: [Int64] = []
        /// After a rate-limit exception: no Android signal before this time (the platform's retryMillis).
        var androidBlockedUntil: Int64 = 0
        /// Signals in flight.
        var inFlight: [OperationID: (intent: Intent, request: SignalRequest)] = [:]
        var pendingSignIns: [OperationID: PendingSignIn] = [:]
        /// The last account signed in (read only by the unauthenticated-refresh mutant).
        var lastUsername: String?
    }

    /// Coalescing window: triggers within it share one reconciliation.
    static let debounceMillis: Int64 = 1_000
    /// The Android budget: calls per window.
    static let androidBudget = 10
    static let androidWindowMillis: Int64 = 120_000
}
