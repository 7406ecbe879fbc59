/// A platform configuration the harness simulates: OS, credential library and provider.
///
/// Targets are data, declared once in `TargetCatalog`. Scenarios select the targets they apply to
/// with `@platform:` and `@requires:` tags over `features`.
public struct Target: Sendable, Codable, Hashable, Identifiable {
    /// A platform feature a target has or lacks.
    public enum Feature: String, Sendable, Codable, Hashable, CaseIterable {
        /// The platform API for a conditional registration request exists (iOS and iPadOS 18+, macOS 15+,
        /// visionOS 2+; androidx.credentials 1.6.0+).
        case conditionalCreateAPI = "conditional-create-api"
        /// The credential provider fulfils conditional requests (GPM on Play services 25.13+, iCloud Keychain, supporting third parties).
        case conditionalCreate = "conditional-create"
        /// The registration request has an exclusion input (Android `excludeCredentials`; `excludedCredentials` on iOS and
        /// iPadOS 17.4+ and macOS 13.5+, absent from the visionOS 2 SDK).
        case exclusionList = "exclusion-list"
        /// Some native signal API exists.
        case signals
        /// Apple `ASCredentialUpdater` (26.0–26.1).
        case credentialUpdater = "credential-updater"
        /// Apple `ASCredentialDataManager` (26.2+).
        case credentialDataManager = "credential-data-manager"
        /// Android `CredentialManager.signalCredentialState` (Android 15+, androidx.credentials 1.6.0+).
        case signalCredentialState = "signal-credential-state"
    }

    /// The credential provider a target simulates.
    public enum Provider: String, Sendable, Codable, Hashable {
        /// Apple's iCloud Keychain.
        case iCloudKeychain = "iCloud Keychain"
        /// Google Password Manager, delivered through Play services.
        case googlePasswordManager = "Google Password Manager"
        /// A third-party provider (a password manager app).
        case thirdParty = "third-party provider"
        /// The harness's model of a browser's credential manager: Chromium in automation reaches no
        /// credential manager of its own, so the harness decides what one would (web targets).
        case browserModel = "the harness's model of the browser's credential manager"
    }

    /// The stable id used on the command line, in tags and in reports (`apple-18`, `android-15-gpm`).
    public var id: TargetID
    /// A one-line description for reports.
    public var title: String
    /// Apple or Android.
    public var platform: PlatformFamily
    /// The OS version the app reads at run time (`18.0`, `26.2`, `15`).
    public var osVersion: String
    /// The OS family (`ios`, `macos`, `visionos`, …): Apple's API floors differ by family.
    public var osFamily: OSFamily
    /// Android: the androidx.credentials version the app is built with; `nil` on Apple.
    public var credentialsLibraryVersion: String?
    /// Android with Google Password Manager: the Play services version; `nil` otherwise.
    public var playServicesVersion: String?
    /// The credential provider that answers requests.
    public var provider: Provider
    /// The platform features the target has; scenarios select targets by them.
    public var features: Set<Feature>

    /// Creates a target from its identity, platform versions, provider and features.
    ///
    /// `osFamily` defaults to the platform's default family (`ios` on Apple, `android` on Android).
    public init(
        id: TargetID, title: String, platform: PlatformFamily, osFamily: OSFamily? = nil, osVersion: String,
        credentialsLibraryVersion: String? = nil, playServicesVersion: String? = nil, provider: Provider, features: Set<Feature>
    ) {
        precondition(osFamily.map { $0.platform == platform } ?? true, "target \(id): the OS family is not a \(platform.rawValue) family")
        self.id = id
        self.title = title
        self.platform = platform
        self.osFamily = osFamily ?? OSFamily.defaultFamily(of: platform)
        self.osVersion = osVersion
        self.credentialsLibraryVersion = credentialsLibraryVersion
        self.playServicesVersion = playServicesVersion
        self.provider = provider
        self.features = features
    }

    /// Whether the target has a feature.
    public func has(_ feature: Feature) -> Bool { features.contains(feature) }

    /// The Android origin the simulated platform writes into clientDataJSON for the app under test.
    public static let androidAppOrigin = "android:apk-key-hash:pGqTtS2CkmrhUe9yVdUlq3vl8JgWbaJ7wT4KiOOl1b4"

    /// The device as the app sees it, with its OS family.
    public var device: DeviceInfo {
        DeviceInfo(
            platform: platform, osVersion: osVersion, credentialsLibraryVersion: credentialsLibraryVersion,
            appOrigin: platform == .android ? Target.androidAppOrigin : nil, osFamily: osFamily)
    }

    /// Whether the OS has Apple's conditional registration request style
    /// (`ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest.requestStyle`), judged by family
    /// and version against `OSFamily.conditionalRequestStyleFloor`; always `false` on Android.
    public var hasConditionalRequestStyle: Bool {
        guard let floor = osFamily.conditionalRequestStyleFloor else { return false }
        return Self.version(osVersion, isAtLeast: floor)
    }

    /// Whether the dotted version `version` is at least `floor`, compared part by part as numbers
    /// (`15.0` ≥ `15`, `26.2` > `26.10` is false).
    public static func version(_ version: String, isAtLeast floor: String) -> Bool {
        let left = version.split(separator: ".").map { Int($0) ?? 0 }
        let right = floor.split(separator: ".").map { Int($0) ?? 0 }
        for index in 0..<max(left.count, right.count) {
            let a = index < left.count ? left[index] : 0
            let b = index < right.count ? right[index] : 0
            if a != b { return a > b }
        }
        return true
    }
}

extension OSFamily {
    /// The first version of the family with Apple's conditional registration request style: iOS and
    /// iPadOS 18, macOS 15, visionOS 2 (the N2.6 source and Apple's availability annotations);
    /// `nil` on Android, where `isConditional` depends on the androidx.credentials version instead.
    public var conditionalRequestStyleFloor: String? {
        switch self {
        case .ios, .ipados: "18.0"
        case .macos: "15.0"
        case .visionos: "2.0"
        case .android, .chromium: nil
        }
    }

    /// The family's name as Apple and Google write it (`iOS`, `macOS`, `visionOS`, `Android`).
    public var displayName: String {
        switch self {
        case .ios: "iOS"
        case .ipados: "iPadOS"
        case .macos: "macOS"
        case .visionos: "visionOS"
        case .android: "Android"
        case .chromium: "Chromium"
        }
    }
}

/// Every target the harness knows, in report order: each family's targets are declared with the
/// family (`Targets/Apple/`, `Targets/Android/`, `Targets/Web/`).
public enum TargetCatalog {
    /// The native targets, Apple's first: the seeds' scope, and every plan's unless the adapter
    /// declares web targets too.
    public static let all: [Target] = apple + android

    /// Every target: the native ones, then the web ones (an extension of the seeds' scope, run
    /// against a real browser).
    public static let known: [Target] = all + web

    /// The targets a plan for an adapter that declares `declared` runs over: the native ones, and
    /// the web ones the adapter declares.
    public static func planned(declaring declared: [TargetID]) -> [Target] {
        all + web.filter { declared.contains($0.id) }
    }

    /// The target with an id, or `nil`.
    public static func target(id: TargetID) -> Target? { known.first { $0.id == id } }
    /// The target whose id is the text `id` (from a command line, a tag or a report), or `nil`.
    public static func target(id: String) -> Target? { target(id: TargetID(rawValue: id)) }
}
