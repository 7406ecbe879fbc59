import ConformanceModel
import ConformanceSimulation
import Foundation
import WebAuthn

/// The named points where the reference relying party chooses how to behave, each defaulting to
/// the conforming choice. The reference's flow asks these points instead of asking which mutant it
/// is; a `Mutation` overrides one of them (see `Mutants.swift`, `Mutants+Signals.swift`).
struct Decisions: Sendable {
    var upgrade = Upgrade()
    var options = Options()
    var response = Response()
    var signals = Signals()
    var encoding = Encoding()
    var list = ListAssembly()
    /// Points only second-form mutants override (`Mutants+SignalForms.swift`).
    var forms = SignalForms()
    /// Points only second-form mutants of encodings and interfaces override (`Mutants+EncodingForms.swift`).
    var encodingForms = EncodingForms()
    /// Points only second-form mutants of reconciliation, list assembly and the budget override (`Mutants+ListForms.swift`).
    var listForms = ListForms()
    /// Points only the mutants of the path proofs override (`Mutants+PathForms.swift`).
    var pathForms = PathForms()
    /// Points only the mutants that wait for a signal's answer override (`Mutants+Waits.swift`).
    var waits = SignalWaits()
    /// Points only the mutants of a lost answer override (`Mutants+LostAnswers.swift`).
    var lostAnswers = LostAnswerForms()
    /// Points only the mutants of the seed paths override (`Mutants+SeedPaths.swift`).
    var seedPaths = SeedPathForms()

    // MARK: Automatic upgrade (N2.6-AC01, AC05)

    /// A moment at which the app may ask for a conditional registration.
    enum UpgradeMoment: Sendable, Hashable {
        /// The account's complete password sign-in policy succeeded (the conforming moment).
        case qualifyingSignIn
        /// The password was accepted while a second factor is still due.
        case passwordAccepted
        /// A second-factor attempt failed.
        case failedSecondFactor
        /// A lower-assurance recovery sign-in.
        case recoverySignIn
        /// A magic-link, one-time-code or federated sign-in.
        case alternativeSignIn
        /// A passkey sign-in.
        case passkeySignIn
        /// The app was relaunched with a signed-in session.
        case relaunchSignedIn
        /// A refresh point after the credential manager once answered no-create.
        case refreshAfterNoCreate
        /// Opening passkey management after the credential manager once answered no-create.
        case managementAfterNoCreate
        /// A profile change after the credential manager once answered no-create.
        case profileChangeAfterNoCreate
    }

    /// What the app does after the expected no-create answer to a conditional request.
    enum AfterNoCreate: Sendable, Hashable {
        /// Nothing: it asks again at the next qualifying sign-in.
        case waitForNextSignIn
        case showError
        case show(UIEvent)
        /// Asks for no automatic upgrade for this long.
        case coolDown(millis: Int64)
        case retryOnce
        case retryAfter(millis: Int64)
        case neverAskAgain
    }

    /// How a qualifying sign-in completed the account's policy.
    enum QualifyingPath: Sendable, Hashable {
        case passwordOnly
        case afterSecondFactor
    }

    /// A modal creation sheet the app opens on its own after a conditional request failed.
    enum SheetAfterFailure: Sendable, Hashable {
        case atOnce
        case after(millis: Int64)
    }

    struct Upgrade: Sendable {
        /// When the app asks for a conditional registration.
        var moments: Set<UpgradeMoment> = [.qualifyingSignIn]
        /// Which qualifying sign-ins the app asks after.
        var qualifyingPaths: Set<QualifyingPath> = [.passwordOnly, .afterSecondFactor]
        /// Moments at which the app opens a modal creation sheet on its own.
        var modalMoments: Set<UpgradeMoment> = []
        /// A modal sheet after a failed or declined conditional request.
        var sheetAfterFailure: SheetAfterFailure?
        /// Where the conditional API is missing: record it (`false`) or fall back to a modal registration.
        var modalFallbackWithoutAPI = false
        /// Asks this long after the sign-in instead of at once.
        var delayMillis: Int64?
        /// How many conditional requests one moment issues.
        var requests = 1
        /// Holds the request back when the server already knows an active passkey of the account.
        var skipsAccountsWithPasskeys = false
        /// Which platform errors are the expected no-create.
        var isExpectedNoCreate: @Sendable (PlatformError) -> Bool = RequestBuilder.isExpectedNoCreate
        var afterNoCreate = AfterNoCreate.waitForNextSignIn
        /// The telemetry for a conditional-create failure other than the expected no-create: its own class.
        /// `nil`: the record the design spells (`ReferenceSession.failureRecord`).
        var failureTelemetry: (@Sendable (PlatformError) -> TelemetryEvent?)?
        /// What the app shows of its own after an automatic upgrade (the platform already confirms): nothing.
        var ownConfirmation: UIEvent?
    }

    // MARK: Registration options and request (N2.6-AC02..AC04)

    struct Options: Sendable {
        /// Builds the options for the first account signed in during the app's life instead of the session's.
        var fromFirstAccount = false
        /// Names the first account signed in during the app's life (user.name, displayName) with the session's handle.
        var nameOfFirstAccount = false
        /// Replaces the account's random user handle; `nil` keeps it.
        var userHandle: (@Sendable (Server.Account) -> Data)?
        /// Takes the exclusion list from the first account signed in during the app's life.
        var exclusionsOfFirstAccount = false
        /// Reuses the challenge of the app's first registration request.
        var reusesFirstChallenge = false
        /// The exclusion list the request carries, from the account's credentials, per platform.
        var excluded: @Sendable ([Data], PlatformFamily) -> [Data]? = { ids, _ in ids }
        /// The request style of an Apple conditional request.
        var appleConditionalStyle = AppleRequestStyle.conditional
        /// Makes the Android "conditional" request modal, preferring immediately available credentials.
        var androidModal = false
    }

    // MARK: Registration responses on app and server (N2.6-AC06, X01, X02)

    /// What happens to a registration response that arrives after its session ended.
    enum StaleResponse: Sendable, Hashable {
        /// Discarded: the server accepts a response only from the session that asked.
        case discard
        case attachToOriginalAccount
        case attachToCurrentAccount
        case uploadLater
        /// Keeps it and uploads it for its account at the app's next sign-in.
        case uploadAtNextSignIn
    }

    /// Whether the server requires the user-present flag of a registration.
    enum UserPresence: Sendable, Hashable {
        /// Only for modal registrations; a conditional one may come without it.
        case byMediation
        case always
        case never
        /// Waives it whenever the session has any conditional ceremony open.
        case bySession
    }

    struct Response: Sendable {
        var stale = StaleResponse.discard
        /// Drops a response arriving later than this after its request (negative: every response).
        var dropAfterMillis: Int64?
        /// Refuses a registration response older than this, whatever the design's challenge lifetime
        /// (negative: every response).
        var registrationLifetimeMillis: Int64?
        var userPresence = UserPresence.byMediation
        var userVerification = WebAuthnVerifier.UserVerificationRequirement.preferred
        var acceptsBackupEligible = true

        /// Whether a session's pending registration ceremonies outlive it, so that a stale response
        /// can still be uploaded for the account that asked.
        var ceremoniesOutliveSession: Bool { stale == .attachToOriginalAccount || stale == .uploadLater || stale == .uploadAtNextSignIn }
    }
}

extension Decisions {
    // MARK: Signals (N3.2)

    /// What makes the app reconcile an account's accepted list.
    enum ReconcileTrigger: Sendable, Hashable {
        case credentialCreated
        case failedCreation
        case credentialRevoked
        /// The refresh point while signed in.
        case refreshPoint
        /// The refresh point while signed out (for the last account).
        case refreshSignedOut
        /// A revoked passkey was presented by a client that is not signed in to its account.
        case revokedPresentedSignedOut
    }

    /// An outcome of a passkey sign-in after which the app may send the unknown-credential signal.
    enum UnknownCause: Sendable, Hashable {
        /// No account holds the credential id: the only conclusive case.
        case unknownCredential
        case revoked
        case restricted
        case verificationFailure
        case lookupFailure
        case cancelOrNetworkError
        /// A cancelled sign-in, 30 seconds later, from a timer.
        case cancelledSignInLater
    }

    /// How pending work of one account is merged.
    enum Coalescing: Sendable, Hashable {
        /// One pending reconciliation, built from current state when sent.
        case currentState
        case perTrigger
        case firstState
    }

    /// How the Android ten-calls-in-120-seconds budget is kept.
    enum RateBudget: Sendable, Hashable {
        case shared
        case perType
        case ignored
    }

    struct Signals: Sendable {
        /// The signal interface the app uses on a device.
        var interface: @Sendable (DeviceInfo) -> SignalScheduler.Interface? = SignalScheduler.offeredInterface
        /// Where signals exist, revokes a passkey by signalling instead of on the server.
        var revokesBySignalOnly = false
        var reconcileTriggers: Set<ReconcileTrigger> = [.credentialCreated, .credentialRevoked, .refreshPoint]
        var unknownCauses: Set<UnknownCause> = [.unknownCredential]
        var coalescing = Coalescing.currentState
        var rateBudget = RateBudget.shared
        /// How long a rate-limited signal waits, from the platform's retryMillis.
        var retryDelay: @Sendable (Int64) -> Int64 = { $0 }
        /// Retries a rate-limited signal with its original payload instead of rebuilding it.
        var retriesOriginalPayload = false
        /// The RP ID of an unknown-credential signal, from the credential's.
        var unknownRPID: @Sendable (String) -> String = { $0 }
        /// The interface user-details signals go through, from the one the device offers.
        var userDetailsInterface: @Sendable (SignalScheduler.Interface) -> SignalScheduler.Interface = { $0 }
        /// What the app shows once a signal is accepted; the platform promises nothing, so nothing.
        var acceptedNotice: @Sendable (SignalScheduler.Intent) -> UIEvent? = { _ in nil }
        /// Announces the requested names when the server refused a rename.
        var announcesRefusedRename = false
        /// Follows a rename with an empty accepted list.
        var renameSendsEmptyList = false
        /// Sends an account's list or details only while that account is signed in: pending work
        /// of an account that signed out or was switched away from is dropped when it comes due.
        var onlyForSignedInAccount = true
        /// Sends a pending reconciliation's ids under the user handle of the account signed in when
        /// it comes due (only a mutant).
        var pendingListUnderCurrentHandle = false
        /// Schedules a reconciliation once the password is accepted, before the second factor (only a mutant).
        var reconcilesOnPasswordAccepted = false
        /// Schedules a reconciliation of the named account after its password was refused (only a mutant).
        var reconcilesOnRefusedPassword = false
    }

    /// How signal payloads are encoded.
    struct Encoding: Sendable {
        var rpID: @Sendable (String) -> String = { $0 }
        /// An id as Android JSON text.
        var androidID: @Sendable (Data) -> String = { Base64URL.encode($0) }
        /// An id as the `Data` Apple's report methods take.
        var appleID: @Sendable (Data) -> Data = { $0 }
        var userHandle: @Sendable (Server.Account) -> Data = { $0.userHandle }
        var androidType: @Sendable (String) -> String = { $0 }
        /// Sends allAcceptedCredentialIds as one comma-joined string.
        var joinsAndroidIDList = false
        /// Sends an empty value for a name field that did not change.
        var blanksUnchangedField = false
    }

    /// How the server assembles the accepted list for a reconciliation.
    struct ListAssembly: Sendable {
        /// Uses the cached list without checking its version.
        var trustsStaleCache = false
        /// Returns what it could read when a page fails or the pages fall short.
        var sendsPartialList = false
        /// Returns an empty list when the query times out.
        var emptyOnTimeout = false
        /// Never returns an empty list, even a confirmed one.
        var refusesEmptyList = false
        var includesRevoked = false
        /// When the list cannot be assembled, sends the last list it read for the account instead.
        var fallsBackToLastList = false
        /// When the list cannot be assembled even after reading it again, sends an empty list.
        var emptyAfterFailedReread = false
        /// Whether a failed read is read again (an assembly that returns what it got never retries).
        var rereadsFailures: Bool { !sendsPartialList && !emptyOnTimeout }
    }
}
