import ConformanceModel
import ConformanceSimulation
import Foundation
import WebAuthn

/// The mutants of signalling (N3.2): one value each, with the decision it overrides.
extension Mutation {
    // MARK: N3.2-AC01

    /// Calls the signal API without checking that the OS and library offer it.
    package static let noRuntimeCheck = Mutation(
        "no-runtime-check", "N3.2-AC01", ["N3.2-AC01.V2"],
        "calls the signal API without checking that the OS and library offer it"
    ) { $0.signals.interface = { $0.family.platform == .apple ? .appleDataManager : .android } }

    /// Where signals exist, 'revokes' a passkey by signalling and never revokes it on the server.
    package static let revokeBySignalOnly = Mutation(
        "revoke-by-signal-only", "N3.2-AC01", ["N3.2-AC01.V1"],
        "where signals exist, 'revokes' a passkey by signalling and never revokes it on the server"
    ) { $0.signals.revokesBySignalOnly = true }

    // MARK: N3.2-AC02

    /// Never sends the unknown-credential signal.
    package static let neverSignalUnknown = Mutation(
        "never-signal-unknown", "N3.2-AC02", ["N3.2-AC02.V1"],
        "never sends the unknown-credential signal"
    ) { $0.signals.unknownCauses = [] }

    /// Sends the unknown-credential signal for a known but revoked credential.
    package static let unknownOnRevoked = Mutation(
        "unknown-on-revoked", "N3.2-AC02", ["N3.2-AC02.V2"],
        "sends the unknown-credential signal for a known but revoked credential"
    ) { $0.signals.unknownCauses.insert(.revoked) }

    /// Sends the unknown-credential signal when the account is restricted.
    package static let unknownOnRestricted = Mutation(
        "unknown-on-restricted", "N3.2-AC02", ["N3.2-AC02.V3"],
        "sends the unknown-credential signal when the account is restricted"
    ) { $0.signals.unknownCauses.insert(.restricted) }

    /// Sends the unknown-credential signal on an invalid signature or an expired challenge.
    package static let unknownOnVerificationFailure = Mutation(
        "unknown-on-verification-failure", "N3.2-AC02", ["N3.2-AC02.V4", "N3.2-AC02.V5"],
        "sends the unknown-credential signal on an invalid signature or an expired challenge"
    ) { $0.signals.unknownCauses.insert(.verificationFailure) }

    /// Sends the unknown-credential signal after a network error or a cancellation.
    package static let unknownOnNetworkOrCancel = Mutation(
        "unknown-on-network-or-cancel", "N3.2-AC02", ["N3.2-AC02.V6", "N3.2-AC02.V7"],
        "sends the unknown-credential signal after a network error or a cancellation"
    ) { $0.signals.unknownCauses.insert(.cancelOrNetworkError) }

    /// Sends the unknown-credential signal 30 seconds after a cancelled sign-in, from a timer.
    package static let unknownOnCancelLater = Mutation(
        "unknown-on-cancel-later", "N3.2-AC02", ["N3.2-AC02.V7"],
        "sends the unknown-credential signal 30 seconds after a cancelled sign-in, from a timer"
    ) { $0.signals.unknownCauses.insert(.cancelledSignInLater) }

    /// Treats a failed credential lookup as proof that the id is unknown.
    package static let unknownOnLookupFailure = Mutation(
        "unknown-on-lookup-failure", "N3.2-AC02", ["N3.2-AC02.V8"],
        "treats a failed credential lookup as proof that the id is unknown"
    ) { $0.signals.unknownCauses.insert(.lookupFailure) }

    /// Sends the account's accepted list to a client that is not signed in after a revoked passkey was presented.
    package static let reconcileRevokedUnauthenticated = Mutation(
        "reconcile-revoked-unauthenticated", "N3.2-AC02", ["N3.2-AC02.V2"],
        "sends the account's accepted list to a client that is not signed in after a revoked passkey was presented"
    ) {
        $0.signals.reconcileTriggers.insert(.revokedPresentedSignedOut)
        $0.signals.onlyForSignedInAccount = false
    }

    // MARK: N3.2-AC03

    /// Does not reconcile after a successful creation.
    package static let noReconcileAfterCreate = Mutation(
        "no-reconcile-after-create", "N3.2-AC03", ["N3.2-AC03.V1"],
        "does not reconcile after a successful creation"
    ) { $0.signals.reconcileTriggers.remove(.credentialCreated) }

    /// Reconciles after a failed creation.
    package static let reconcileAfterFailedCreate = Mutation(
        "reconcile-after-failed-create", "N3.2-AC03", ["N3.2-AC03.V2"],
        "reconciles after a failed creation"
    ) { $0.signals.reconcileTriggers.insert(.failedCreation) }

    /// Does not reconcile after a revocation.
    package static let noReconcileAfterRevoke = Mutation(
        "no-reconcile-after-revoke", "N3.2-AC03", ["N3.2-AC03.V3"],
        "does not reconcile after a revocation"
    ) { $0.signals.reconcileTriggers.remove(.credentialRevoked) }

    /// Does not reconcile at the documented refresh point.
    package static let noReconcileOnRefresh = Mutation(
        "no-reconcile-on-refresh", "N3.2-AC03", ["N3.2-AC03.V4"],
        "does not reconcile at the documented refresh point"
    ) { $0.signals.reconcileTriggers.remove(.refreshPoint) }

    /// Reconciles at the refresh point while signed out.
    package static let reconcileUnauthenticated = Mutation(
        "reconcile-unauthenticated", "N3.2-AC03", ["N3.2-AC03.V5"],
        "reconciles at the refresh point while signed out"
    ) {
        $0.signals.reconcileTriggers.insert(.refreshSignedOut)
        $0.signals.onlyForSignedInAccount = false
    }

    /// Keeps one pending reconciliation per trigger instead of coalescing pending work.
    package static let noCoalescing = Mutation(
        "no-coalescing", "N3.2-AC03", ["N3.2-AC03.V6"],
        "keeps one pending reconciliation per trigger instead of coalescing pending work"
    ) { $0.signals.coalescing = .perTrigger }

    /// Coalesces but sends the list captured at the first trigger.
    package static let coalesceWithFirstState = Mutation(
        "coalesce-with-first-state", "N3.2-AC03", ["N3.2-AC03.V6"],
        "coalesces but sends the list captured at the first trigger"
    ) { $0.signals.coalescing = .firstState }

    // MARK: N3.2-AC04

    /// Sends whatever part of the list it could assemble.
    package static let sendPartialList = Mutation(
        "send-partial-list", "N3.2-AC04", ["N3.2-AC04.V1", "N3.2-AC04.V2"],
        "sends whatever part of the list it could assemble"
    ) { $0.list.sendsPartialList = true }

    /// Sends an empty list when the credential query times out.
    package static let emptyListOnError = Mutation(
        "empty-list-on-error", "N3.2-AC04", ["N3.2-AC04.V3"],
        "sends an empty list when the credential query times out"
    ) { $0.list.emptyOnTimeout = true }

    /// Sends the cached list without checking that it is current.
    package static let trustStaleCache = Mutation(
        "trust-stale-cache", "N3.2-AC04", ["N3.2-AC04.V4"],
        "sends the cached list without checking that it is current"
    ) { $0.list.trustsStaleCache = true }

    /// Never sends an empty list, even for a confirmed zero-credential account.
    package static let neverSendEmptyList = Mutation(
        "never-send-empty-list", "N3.2-AC04", ["N3.2-AC04.V5"],
        "never sends an empty list, even for a confirmed zero-credential account"
    ) { $0.list.refusesEmptyList = true }

    /// Lists revoked credentials as accepted.
    package static let includeRevokedInList = Mutation(
        "include-revoked-in-list", "N3.2-AC04", ["N3.2-AC04.V6"],
        "lists revoked credentials as accepted"
    ) { $0.list.includesRevoked = true }

    // MARK: N3.2-AC05

    /// Sends Android signals without keeping to ten calls in 120 seconds.
    package static let ignoreRateLimit = Mutation(
        "ignore-rate-limit", "N3.2-AC05", ["N3.2-AC05.V1"],
        "sends Android signals without keeping to ten calls in 120 seconds"
    ) { $0.signals.rateBudget = .ignored }

    /// Retries a rate-limited signal after one second instead of retryMillis.
    package static let retryEarly = Mutation(
        "retry-early", "N3.2-AC05", ["N3.2-AC05.V2"],
        "retries a rate-limited signal after one second instead of retryMillis",
        appliesTo: { $0.rateLimited == .retry }
    ) { $0.signals.retryDelay = { _ in 1_000 } }

    /// Retries a rate-limited signal with its original, stale payload.
    package static let retryStalePayload = Mutation(
        "retry-stale-payload", "N3.2-AC05", ["N3.2-AC05.V3"],
        "retries a rate-limited signal with its original, stale payload",
        appliesTo: { $0.rateLimited == .retry }
    ) { $0.signals.retriesOriginalPayload = true }

    /// Keeps a separate ten-call budget for each signal type.
    package static let rateBudgetPerType = Mutation(
        "rate-budget-per-type", "N3.2-AC05", ["N3.2-AC05.V4"],
        "keeps a separate ten-call budget for each signal type"
    ) { $0.signals.rateBudget = .perType }

    // MARK: N3.2-AC06

    /// Uses the deprecated ASCredentialUpdater on 26.2 and later.
    package static let updaterOn262 = Mutation(
        "updater-on-26.2", "N3.2-AC06", ["N3.2-AC06.V1"],
        "uses the deprecated ASCredentialUpdater on 26.2 and later"
    ) { $0.signals.interface = { device in SignalScheduler.offeredInterface(device).map { $0 == .appleDataManager ? .appleUpdater : $0 } } }

    /// Uses ASCredentialDataManager on 26.0 and 26.1, where it does not exist.
    package static let dataManagerOn260 = Mutation(
        "data-manager-on-26.0", "N3.2-AC06", ["N3.2-AC06.V2"],
        "uses ASCredentialDataManager on 26.0 and 26.1, where it does not exist"
    ) { $0.signals.interface = { device in SignalScheduler.offeredInterface(device).map { $0 == .appleUpdater ? .appleDataManager : $0 } } }

    /// Sends Android signals with a request type the library does not know.
    package static let androidWrongRequestType = Mutation(
        "android-wrong-request-type", "N3.2-AC06", ["N3.2-AC06.V3"],
        "sends Android signals with a request type the library does not know"
    ) { $0.encoding.androidType = { $0.replacingOccurrences(of: "androidx.credentials.SIGNAL_", with: "androidx.credentials.TYPE_SIGNAL_") } }

    /// Sends user-details signals through the deprecated ASCredentialUpdater on 26.2 and later.
    package static let userDetailsViaUpdater = Mutation(
        "user-details-via-updater", "N3.2-AC06", ["N3.2-AC06.V4"],
        "sends user-details signals through the deprecated ASCredentialUpdater on 26.2 and later"
    ) { $0.signals.userDetailsInterface = { $0 == .appleDataManager ? .appleUpdater : $0 } }

    // MARK: N3.2-AC07

    /// Sends every signal with the primary RP ID, whatever the credential's RP.
    package static let signalPrimaryRPID = Mutation(
        "signal-primary-rp-id", "N3.2-AC07", ["N3.2-AC07.V1"],
        "sends every signal with the primary RP ID, whatever the credential's RP"
    ) { $0.encoding.rpID = { _ in ReferenceRP.relyingPartyIDs[0] } }

    /// Sends the origin (https://…) instead of the RP ID.
    package static let signalOriginAsRPID = Mutation(
        "signal-origin-as-rp-id", "N3.2-AC07", ["N3.2-AC07.V1"],
        "sends the origin (https://…) instead of the RP ID"
    ) { $0.encoding.rpID = { "https://\($0)" } }

    /// Sends unknown-credential signals with the primary RP ID, whatever the credential's RP.
    package static let unknownSignalPrimaryRPID = Mutation(
        "unknown-signal-primary-rp-id", "N3.2-AC07", ["N3.2-AC07.V1"],
        "sends unknown-credential signals with the primary RP ID, whatever the credential's RP"
    ) { $0.signals.unknownRPID = { _ in ReferenceRP.relyingPartyIDs[0] } }

    // MARK: N3.2-AC08

    /// Tells the user the passkey was removed from the device once a signal is accepted.
    package static let claimProviderRemoval = Mutation(
        "claim-provider-removal", "N3.2-AC08", ["N3.2-AC08.V1"],
        "tells the user the passkey was removed from the device once a signal is accepted"
    ) {
        $0.signals.acceptedNotice = { intent in
            switch intent {
            case .reconcile, .unknown: UIEvent(.message, "The passkey was removed from this device.")
            default: nil
            }
        }
    }

    /// Shows a screen saying the device's passkeys were updated once a signal is accepted.
    package static let claimProviderUpdateScreen = Mutation(
        "claim-provider-update-screen", "N3.2-AC08", ["N3.2-AC08.V1"],
        "shows a screen saying the device's passkeys were updated once a signal is accepted"
    ) {
        $0.signals.acceptedNotice = { intent in
            guard case .reconcile = intent else { return nil }
            return UIEvent(.screen, "Passkeys on this device updated")
        }
    }

    // MARK: N3.2-AC09

    /// Passes the base64url text's bytes instead of the raw ids to Apple's report methods.
    package static let appleBase64TextData = Mutation(
        "apple-base64-text-data", "N3.2-AC09", ["N3.2-AC09.V1"],
        "passes the base64url text's bytes instead of the raw ids to Apple's report methods"
    ) { $0.encoding.appleID = { Data(Base64URL.encode($0).utf8) } }

    /// Encodes Android signal ids with padded standard base64.
    package static let androidStandardBase64 = Mutation(
        "android-standard-base64", "N3.2-AC09", ["N3.2-AC09.V2"],
        "encodes Android signal ids with padded standard base64"
    ) { $0.encoding.androidID = { $0.base64EncodedString() } }

    /// Signals the product account id as the user handle.
    package static let accountIDAsSignalUserHandle = Mutation(
        "account-id-as-signal-user-handle", "N3.2-AC09", ["N3.2-AC09.V4"],
        "signals the product account id as the user handle"
    ) { $0.encoding.userHandle = { Data($0.accountID.utf8) } }

    /// Sends allAcceptedCredentialIds as one comma-joined string instead of an array.
    package static let androidJoinedIDList = Mutation(
        "android-joined-id-list", "N3.2-AC09", ["N3.2-AC09.V2", "N3.2-AC09.V3"],
        "sends allAcceptedCredentialIds as one comma-joined string instead of an array"
    ) { $0.encoding.joinsAndroidIDList = true }

    // MARK: N3.2-AC10

    /// Sends the metadata signal before the server confirmed the rename.
    package static let renameSignalUnconfirmed = Mutation(
        "rename-signal-unconfirmed", "N3.2-AC10", ["N3.2-AC10.V3"],
        "sends the metadata signal before the server confirmed the rename"
    ) { $0.signals.announcesRefusedRename = true }

    /// Sends an empty value for the field that did not change.
    package static let renameBlankUnchangedField = Mutation(
        "rename-blank-unchanged-field", "N3.2-AC10", ["N3.2-AC10.V1"],
        "sends an empty value for the field that did not change"
    ) { $0.encoding.blanksUnchangedField = true }

    /// Follows a rename with an empty accepted-credentials list.
    package static let renameReconcilesEmpty = Mutation(
        "rename-reconciles-empty", "N3.2-AC10", ["N3.2-AC10.V2"],
        "follows a rename with an empty accepted-credentials list"
    ) { $0.signals.renameSendsEmptyList = true }

    /// The N3.2 mutants, in report order.
    static let signalMutants: [Mutation] = [
        .noRuntimeCheck, .revokeBySignalOnly, .neverSignalUnknown, .unknownOnRevoked, .unknownOnRestricted, .unknownOnVerificationFailure,
        .unknownOnNetworkOrCancel, .unknownOnCancelLater, .unknownOnLookupFailure, .reconcileRevokedUnauthenticated, .noReconcileAfterCreate,
        .reconcileAfterFailedCreate, .noReconcileAfterRevoke, .noReconcileOnRefresh, .reconcileUnauthenticated, .noCoalescing,
        .coalesceWithFirstState, .sendPartialList, .emptyListOnError, .trustStaleCache, .neverSendEmptyList, .includeRevokedInList, .ignoreRateLimit,
        .retryEarly, .retryStalePayload, .rateBudgetPerType, .updaterOn262, .dataManagerOn260, .androidWrongRequestType, .userDetailsViaUpdater,
        .signalPrimaryRPID, .signalOriginAsRPID, .unknownSignalPrimaryRPID, .claimProviderRemoval, .claimProviderUpdateScreen, .appleBase64TextData,
        .androidStandardBase64, .accountIDAsSignalUserHandle, .androidJoinedIDList, .renameSignalUnconfirmed, .renameBlankUnchangedField,
        .renameReconcilesEmpty,
    ]
}
