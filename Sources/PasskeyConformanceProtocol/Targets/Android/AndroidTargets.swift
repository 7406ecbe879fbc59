extension TargetCatalog {
    /// The Android targets: Google Password Manager on Play services 25.13 and 25.12, third-party
    /// providers with and without `CredentialProviderEventsService`, Android 14 (no signals), and
    /// androidx.credentials 1.5.0 (no `isConditional`, no signals).
    public static let android: [Target] = [
        Target(
            id: "android-15-gpm", title: "Android 15, androidx.credentials 1.6.0, GPM on Play services 25.13",
            platform: .android, osVersion: "15", credentialsLibraryVersion: "1.6.0", playServicesVersion: "25.13",
            provider: .googlePasswordManager, features: [.conditionalCreateAPI, .conditionalCreate, .exclusionList, .signals, .signalCredentialState]),
        Target(
            id: "android-15-gpm-play-25.12", title: "Android 15, androidx.credentials 1.6.0, GPM on Play services 25.12",
            platform: .android, osVersion: "15", credentialsLibraryVersion: "1.6.0", playServicesVersion: "25.12",
            provider: .googlePasswordManager, features: [.conditionalCreateAPI, .exclusionList, .signals, .signalCredentialState]),
        Target(
            id: "android-15-third-party", title: "Android 15, androidx.credentials 1.6.0, third-party provider",
            platform: .android, osVersion: "15", credentialsLibraryVersion: "1.6.0",
            provider: .thirdParty, features: [.conditionalCreateAPI, .conditionalCreate, .exclusionList, .signals, .signalCredentialState]),
        Target(
            id: "android-15-third-party-no-events",
            title: "Android 15, androidx.credentials 1.6.0, third-party provider without CredentialProviderEventsService",
            platform: .android, osVersion: "15", credentialsLibraryVersion: "1.6.0",
            provider: .thirdParty, features: [.conditionalCreateAPI, .exclusionList, .signals, .signalCredentialState]),
        Target(
            id: "android-14-gpm", title: "Android 14, androidx.credentials 1.6.0, GPM (no signals below 15)",
            platform: .android, osVersion: "14", credentialsLibraryVersion: "1.6.0", playServicesVersion: "25.13",
            provider: .googlePasswordManager, features: [.conditionalCreateAPI, .conditionalCreate, .exclusionList]),
        Target(
            id: "android-15-androidx-1.5", title: "Android 15, androidx.credentials 1.5.0 (no isConditional, no signals)",
            platform: .android, osVersion: "15", credentialsLibraryVersion: "1.5.0", playServicesVersion: "25.13",
            provider: .googlePasswordManager, features: [.exclusionList]),
    ]
}
