extension TargetCatalog {
    /// The Apple targets: iOS from 17.4 (no conditional request style) to 26.2 (`ASCredentialDataManager`),
    /// third-party credential managers with and without conditional registration, macOS below and
    /// at its floor, visionOS 2, and macOS and visionOS 26.2 with `ASCredentialDataManager`.
    public static let apple: [Target] = [
        Target(
            id: "apple-17.4", title: "Apple 17.4 (no conditional request style)", platform: .apple, osVersion: "17.4",
            provider: .iCloudKeychain, features: [.exclusionList]),
        Target(
            id: "apple-18", title: "Apple 18 (conditional request style, no signals)", platform: .apple, osVersion: "18.0",
            provider: .iCloudKeychain, features: [.conditionalCreateAPI, .conditionalCreate, .exclusionList]),
        Target(
            id: "apple-18-third-party", title: "Apple 18, a third-party credential manager with SupportsConditionalPasskeyRegistration", platform: .apple,
            osVersion: "18.0", provider: .thirdParty, features: [.conditionalCreateAPI, .conditionalCreate, .exclusionList]),
        Target(
            id: "apple-18-third-party-no-conditional", title: "Apple 18, a third-party credential manager without conditional registration",
            platform: .apple, osVersion: "18.0", provider: .thirdParty, features: [.conditionalCreateAPI, .exclusionList]),
        Target(
            id: "apple-26.0", title: "Apple 26.0 (ASCredentialUpdater)", platform: .apple, osVersion: "26.0",
            provider: .iCloudKeychain, features: [.conditionalCreateAPI, .conditionalCreate, .exclusionList, .signals, .credentialUpdater]),
        Target(
            id: "apple-26.1", title: "Apple 26.1 (ASCredentialUpdater; ASCredentialDataManager absent)", platform: .apple, osVersion: "26.1",
            provider: .iCloudKeychain, features: [.conditionalCreateAPI, .conditionalCreate, .exclusionList, .signals, .credentialUpdater]),
        Target(
            id: "apple-26.2", title: "Apple 26.2+ (ASCredentialDataManager)", platform: .apple, osVersion: "26.2",
            provider: .iCloudKeychain, features: [.conditionalCreateAPI, .conditionalCreate, .exclusionList, .signals, .credentialDataManager]),
        Target(
            id: "macos-14", title: "macOS 14 (below the macOS 15 floor: no conditional request style)", platform: .apple,
            osFamily: .macos, osVersion: "14.0", provider: .iCloudKeychain, features: [.exclusionList]),
        Target(
            id: "macos-15", title: "macOS 15 (conditional request style, no signals)", platform: .apple, osFamily: .macos,
            osVersion: "15.0", provider: .iCloudKeychain, features: [.conditionalCreateAPI, .conditionalCreate, .exclusionList]),
        Target(
            id: "visionos-2", title: "visionOS 2 (conditional request style, no exclusion list, no signals)", platform: .apple,
            osFamily: .visionos, osVersion: "2.0", provider: .iCloudKeychain, features: [.conditionalCreateAPI, .conditionalCreate]),
        // N3.2: "use ... ASCredentialDataManager on iOS, iPadOS, macOS and visionOS 26.2+".
        Target(
            id: "macos-26.2", title: "macOS 26.2+ (ASCredentialDataManager)", platform: .apple, osFamily: .macos, osVersion: "26.2",
            provider: .iCloudKeychain, features: [.conditionalCreateAPI, .conditionalCreate, .exclusionList, .signals, .credentialDataManager]),
        Target(
            id: "visionos-26.2", title: "visionOS 26.2+ (ASCredentialDataManager; no exclusion list)", platform: .apple, osFamily: .visionos,
            osVersion: "26.2", provider: .iCloudKeychain, features: [.conditionalCreateAPI, .conditionalCreate, .signals, .credentialDataManager]),
    ]
}
