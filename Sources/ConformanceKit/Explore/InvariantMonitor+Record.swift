import Foundation

extension InvariantMonitor {
    /// A sign-in the history made, as the app answered it.
    struct SignInEvent {
        var step: Int
        /// Transcript entries before the step: operations after it followed this sign-in.
        var marker: Int
        var atMillis: Int64
        var username: String
        var qualifying: Bool
        /// The verify item a registration request after this (non-qualifying) sign-in breaks.
        var item: VerifyItemID
        /// Whether the app owes this sign-in a registration request before the next user action:
        /// a qualifying sign-in of an account the server knows, on a device with the conditional
        /// interface, whatever passkeys the account already has (the RP must not hold the request
        /// back because a credential manager may already hold one).
        var owesRequest = false
    }

    /// A successful registration response delivered without a context change, within a minute of
    /// its request: it must be stored for its account once the app has nothing left scheduled.
    struct LiveResponse {
        var operation: PlatformOperation
        var username: String
        var credentialID: Data
        var delivered: Int
        var afterMillis: Int64
    }

    /// What the history did so far, as far as the invariants care.
    struct Record {
        var events: [SignInEvent] = []
        var contextChanges: [(step: Int, item: VerifyItemID)] = []
        var userActionSteps: [Int] = []
        var requestsPerEvent: [Int: Int] = [:]
        var issueStep: [OperationID: Int] = [:]
        var deliveryStep: [OperationID: Int] = [:]
        var awaitingSecondFactor: String?
        /// Transcript positions of relaunches: a relaunched app starts without the memory of earlier
        /// rate limits, so the rate invariants look at each stretch between relaunches on its own.
        var relaunches: [Int] = []
        /// Steps that relaunched the app: a response to a request of the previous process has no one to go to.
        var relaunchSteps: [Int] = []
        var liveResponses: [LiveResponse] = []

        /// Whether no relaunch came between two operations (the same app process made both).
        func sameRun(_ first: PlatformOperation, _ second: PlatformOperation) -> Bool {
            !relaunches.contains { $0 > first.sequence && $0 < second.sequence }
        }
    }

    /// What a step is, as far as the invariants care.
    enum StepKind: Equatable {
        case passwordSignIn(alias: String)
        case switchAccount(alias: String)
        case secondFactor, recovery, alternative, passkeySignIn
        case signOut, otherUserAction, platformOrTime

        /// The kind of a history step.
        init(_ step: ExploreStep) {
            switch step {
            case .signIn(let alias, _): self = .passwordSignIn(alias: alias)
            case .switchAccount(let alias, _): self = .switchAccount(alias: alias)
            case .secondFactor: self = .secondFactor
            case .recoverySignIn: self = .recovery
            case .alternativeSignIn: self = .alternative
            case .passkeySignIn: self = .passkeySignIn
            case .signOut: self = .signOut
            case .relaunch, .refreshPoint, .revokePasskey, .cancelPasskeySignIn, .rename, .createPasskeyFromSettings: self = .otherUserAction
            case .account, .savedPassword, .providerPasskeys, .revokedProviderPasskey, .passkeyUnknownToServer, .holdRegistrationResponses,
                .releaseFirstHeldResponse, .failNextRegistration, .rateLimitNextSignal, .timePasses, .quiescence, .authenticatorFlags, .holdSignals,
                .failSignals, .loseNextAnswer:
                self = .platformOrTime
            }
        }

        /// Whether the step is something the user did.
        var isUserAction: Bool { self != .platformOrTime }
    }

    /// What the invariants see of one step once it ran.
    struct StepFacts {
        var index: Int
        var step: ExploreStep
        var kind: StepKind
        var target: Target
        var snapshot: PlatformSnapshot
        /// The server's accounts before and after the step, by alias.
        var before: [String: AccountSnapshot]
        var after: [String: AccountSnapshot]
        /// The operations the step started, in call order.
        var new: ArraySlice<PlatformOperation>
        /// UI events before the step.
        var uiMarker: Int
        /// The values a signal may carry (`signal-ids-exact`), read once for a step that signalled.
        var exactValues: ExactValues?
        /// The app's session before and after the step, read once for a step that signalled.
        var sessions: [SessionSnapshot] = []

        init(
            index: Int, step: ExploreStep, target: Target, snapshot: PlatformSnapshot, before: [String: AccountSnapshot],
            after: [String: AccountSnapshot], new: ArraySlice<PlatformOperation>, uiMarker: Int
        ) {
            self.index = index
            self.step = step
            self.kind = StepKind(step)
            self.target = target
            self.snapshot = snapshot
            self.before = before
            self.after = after
            self.new = new
            self.uiMarker = uiMarker
        }

        // A history has two or three accounts: a look-up walks them rather than building an index
        // on every step. Where two records share a key, the first in the dictionary's order counts.

        /// The account after the step with this WebAuthn user handle.
        func account(handle: Data) -> AccountSnapshot? { after.values.first { $0.userHandle == handle } }

        /// The account after the step with this username.
        func account(username: String) -> AccountSnapshot? { after.values.first { $0.username == username } }

        /// The account before the step with this username.
        func accountBefore(username: String) -> AccountSnapshot? { before.values.first { $0.username == username } }

        /// The names an account goes by in this step: its username and its account name before and
        /// after (a rename changes the name that registration options carry).
        func names(_ username: String) -> Set<String> {
            Set([username, accountBefore(username: username)?.name, account(username: username)?.name].compactMap { $0 })
        }
    }

    /// One registration request of the step and the sign-in it follows.
    struct RequestFacts {
        var operation: PlatformOperation
        /// The request as the platform read it; `nil` when it could not.
        var view: RegistrationView?
        /// The last sign-in before the request, with its index among the history's sign-ins.
        var event: SignInEvent?
        var eventIndex: Int?
        var cite: String { StepSupport.cite(operation) }
    }
}
