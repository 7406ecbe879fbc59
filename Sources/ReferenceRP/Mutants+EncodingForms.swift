import ConformanceModel
import ConformanceSimulation
import Foundation
import WebAuthn

/// Decision points of signal encodings, interfaces and the unknown-credential path that only
/// second-form mutants override: each conforming value is the reference's behaviour.
struct EncodingForms: Sendable {
    /// The interface one signal goes through, from the intent and the interface the device offers.
    var interface: @Sendable (SignalScheduler.Intent, SignalScheduler.Interface) -> SignalScheduler.Interface = { $1 }
    /// The user handle as Apple's report methods take it, from the raw bytes.
    var appleUserHandle: @Sendable (Data) -> Data = { $0 }
    /// The accepted ids as Apple's report method takes them, from the raw ids.
    var appleAcceptedIDs: @Sendable ([Data]) -> [Data] = { $0 }
    /// The `userId` text of Android's request JSON, from the account and the base64url user handle.
    var androidUserID: @Sendable (Server.Account, String) -> String = { $1 }
    /// Retries a failed credential lookup once and takes a second failure as proof the id is unknown.
    var unknownWhenLookupFailsTwice = false
    /// Sends the requested names as user details as soon as the user asks, before the server answers.
    var renameSignalBeforeAnswer = false
}

/// Second forms of the N3.2 encoding and interface obligations (and of two paths around them): each
/// breaks a verify item that a first mutant already breaks, in another form (another signal type,
/// another version boundary, another representation, another moment).
extension Mutation {
    // MARK: N3.2-AC02

    /// Retries a failed lookup once, then takes the second failure as proof the id is unknown.
    package static let unknownAfterLookupRetry = Mutation(
        "unknown-after-lookup-retry", "N3.2-AC02", ["N3.2-AC02.V8"],
        "retries a failed credential lookup once and takes a second failure as proof that the id is unknown",
        form: "a lookup that failed again on retry"
    ) { $0.encodingForms.unknownWhenLookupFailsTwice = true }

    // MARK: N3.2-AC06

    /// Sends accepted lists through the deprecated ASCredentialUpdater on 26.2 and later.
    package static let acceptedListViaUpdater = Mutation(
        "accepted-list-via-updater", "N3.2-AC06", ["N3.2-AC06.V1", "N3.2-AC06.V4"],
        "sends accepted-credential lists through the deprecated ASCredentialUpdater on 26.2 and later",
        form: "the accepted list through the deprecated interface"
    ) {
        $0.encodingForms.interface = { intent, offered in
            switch intent {
            case .reconcile, .fixedList: offered == .appleDataManager ? .appleUpdater : offered
            default: offered
            }
        }
    }

    /// Takes ASCredentialDataManager to start at 26.1 instead of 26.2.
    package static let dataManagerFrom261 = Mutation(
        "data-manager-from-26.1", "N3.2-AC06", ["N3.2-AC06.V2"],
        "takes ASCredentialDataManager to exist from 26.1, one minor version too early",
        form: "a version boundary off by one"
    ) {
        $0.signals.interface = { device in
            guard device.family.platform == .apple else { return SignalScheduler.offeredInterface(device) }
            let version = Version(device.osVersion)
            if version >= Version("26.1") { return .appleDataManager }
            return version >= Version("26.0") ? .appleUpdater : nil
        }
    }

    /// Sends the Android accepted list with the unknown-credential request type.
    package static let androidListAsUnknownType = Mutation(
        "android-list-as-unknown-type", "N3.2-AC06", ["N3.2-AC06.V3"],
        "sends the Android accepted list with the unknown-credential request type",
        form: "another signal's request type"
    ) {
        $0.encoding.androidType = { type in
            type == AndroidSignalRequest.allAcceptedCredentialsType ? AndroidSignalRequest.unknownCredentialType : type
        }
    }

    /// Sends unknown-credential signals through the deprecated ASCredentialUpdater on 26.2 and later.
    package static let unknownViaUpdater = Mutation(
        "unknown-via-updater", "N3.2-AC06", ["N3.2-AC06.V4"],
        "sends unknown-credential signals through the deprecated ASCredentialUpdater on 26.2 and later",
        form: "unknown-credential signals through the deprecated interface"
    ) {
        $0.encodingForms.interface = { intent, offered in
            guard case .unknown = intent, offered == .appleDataManager else { return offered }
            return .appleUpdater
        }
    }

    // MARK: N3.2-AC09

    /// Passes the user handle's base64url text bytes to Apple's report methods.
    package static let appleUserHandleText = Mutation(
        "apple-user-handle-text", "N3.2-AC09", ["N3.2-AC09.V1"],
        "passes the bytes of the user handle's base64url text instead of the raw handle to Apple's report methods",
        form: "the user handle as text"
    ) { $0.encodingForms.appleUserHandle = { Data(Base64URL.encode($0).utf8) } }

    /// Passes only the first of several accepted ids to Apple's report method.
    package static let appleFirstIDOnly = Mutation(
        "apple-first-id-only", "N3.2-AC09", ["N3.2-AC09.V3"],
        "passes only the first of several accepted ids to Apple's report method",
        form: "the first of several ids on Apple"
    ) { $0.encodingForms.appleAcceptedIDs = { Array($0.prefix(1)) } }

    /// Puts the product account id, as plain text, in Android's userId.
    package static let androidAccountIDText = Mutation(
        "android-account-id-text", "N3.2-AC09", ["N3.2-AC09.V4"],
        "puts the product account id, as plain text, in Android's userId",
        form: "the account id as unencoded text"
    ) { $0.encodingForms.androidUserID = { account, _ in account.accountID } }

    // MARK: N3.2-AC10

    /// Sends the requested names as soon as the user asks, before the server answers.
    package static let renameSignalBeforeAnswer = Mutation(
        "rename-signal-before-answer", "N3.2-AC10", ["N3.2-AC10.V3"],
        "sends the requested names as user details as soon as the user asks, before the server answers the rename",
        form: "an optimistic signal as the user submits"
    ) { $0.encodingForms.renameSignalBeforeAnswer = true }

    /// The second-form mutants of encodings and interfaces, in report order.
    static let encodingFormMutants: [Mutation] = [
        .unknownAfterLookupRetry, .acceptedListViaUpdater, .dataManagerFrom261, .androidListAsUnknownType, .unknownViaUpdater,
        .appleUserHandleText, .appleFirstIDOnly, .androidAccountIDText, .renameSignalBeforeAnswer,
    ]
}
