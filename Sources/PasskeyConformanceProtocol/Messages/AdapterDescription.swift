#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The version of the adapter protocol this harness speaks.
public let adapterProtocolVersion = "1.4"

/// What an adapter says about itself and the relying party it drives.
///
/// Decoding follows the protocol's rule for minor versions: an absent `protocolVersion` reads as
/// `1.0`, and a capability this harness does not know is ignored (kept in `ignoredCapabilities`
/// for the reports), never an error.
public struct AdapterDescription: Sendable, Codable, Hashable {
    /// The adapter protocol version it implements (`major.minor`).
    public var protocolVersion: String
    /// The relying party's name, e.g. `reference-rp`.
    public var name: String
    /// The relying party's version.
    public var version: String
    /// The target ids (see `TargetCatalog`) it can run on.
    public var targets: [TargetID]
    /// The capabilities it supports (see `Capability`).
    public var capabilities: [Capability]
    /// The RP IDs the relying party is configured with; the first is the primary one.
    public var relyingPartyIDs: [String]
    /// What the adapter declares about its relying party's account model (see `Declaration`);
    /// absent on the wire means none. Unknown values are ignored.
    public var declarations: [Declaration] = []
    /// Where the relying party's web front end lives, for the web targets (protocol 1.3); `nil`
    /// when it has none.
    public var web: WebFrontEnd?
    /// The declared capabilities this harness does not know, ignored, in declaration order (not sent
    /// on the wire; the reports list them).
    public var ignoredCapabilities: [String] = []

    /// Creates a description; the protocol version defaults to the one this harness speaks.
    public init(
        protocolVersion: String = adapterProtocolVersion, name: String, version: String, targets: [TargetID],
        capabilities: [Capability], relyingPartyIDs: [String]
    ) {
        self.protocolVersion = protocolVersion
        self.name = name
        self.version = version
        self.targets = targets
        self.capabilities = capabilities
        self.relyingPartyIDs = relyingPartyIDs
    }

    enum CodingKeys: String, CodingKey {
        case protocolVersion, name, version, targets, capabilities, relyingPartyIDs, declarations, web
    }

    /// Decodes a description: no `protocolVersion` means `1.0`; unknown capabilities are ignored.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        protocolVersion = try container.decodeIfPresent(String.self, forKey: .protocolVersion) ?? "1.0"
        name = try container.decode(String.self, forKey: .name)
        version = try container.decode(String.self, forKey: .version)
        targets = try container.decode([TargetID].self, forKey: .targets)
        relyingPartyIDs = try container.decode([String].self, forKey: .relyingPartyIDs)
        capabilities = []
        for word in try container.decode([String].self, forKey: .capabilities) {
            if let capability = Capability(rawValue: word) {
                if !capabilities.contains(capability) { capabilities.append(capability) }
            } else if !ignoredCapabilities.contains(word) {
                ignoredCapabilities.append(word)
            }
        }
        web = try container.decodeIfPresent(WebFrontEnd.self, forKey: .web)
        for word in try container.decodeIfPresent([String].self, forKey: .declarations) ?? [] {
            if let declaration = Declaration(rawValue: word), !declarations.contains(declaration) { declarations.append(declaration) }
        }
    }

    /// Encodes the wire members (`ignoredCapabilities` is not one).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(protocolVersion, forKey: .protocolVersion)
        try container.encode(name, forKey: .name)
        try container.encode(version, forKey: .version)
        try container.encode(targets, forKey: .targets)
        try container.encode(capabilities, forKey: .capabilities)
        try container.encode(relyingPartyIDs, forKey: .relyingPartyIDs)
        if !declarations.isEmpty { try container.encode(declarations, forKey: .declarations) }
        try container.encodeIfPresent(web, forKey: .web)
    }

    /// The minor number of `protocolVersion` (`1` for `1.1`); `0` when it is not `major.minor`.
    public var protocolMinor: Int {
        let parts = protocolVersion.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let minor = Int(parts[1]), minor >= 0 else { return 0 }
        return minor
    }

    /// Whether the adapter's protocol version has `feature` (an adapter of an older minor is run
    /// without it: the test cases that need it are *not verified*).
    public func implements(_ feature: ProtocolFeature) -> Bool { protocolMinor >= feature.sinceMinor }
}

/// Something a minor version of the adapter protocol added that changes what an adapter must
/// understand; a test case that needs one of an adapter of an older minor is *not verified*.
public enum ProtocolFeature: String, Sendable, Hashable, CaseIterable {
    /// `DeviceInfo.osFamily` (1.1): without it a macOS or visionOS device reads as iOS.
    case osFamily = "DeviceInfo.osFamily"
    /// The fault kind `credential-lookup-failure` (1.1).
    case credentialLookupFailure = "the fault kind credential-lookup-failure"
    /// The fault kind `answer-lost-after-commit` (1.2): an adapter of 1.1 would refuse it as an
    /// unknown kind, or worse, ignore it.
    case answerLostAfterCommit = "the fault kind answer-lost-after-commit"
    /// A web front end (1.3): `web` in the description and `session.webRequest`, which serve the
    /// relying party's page on the web targets.
    case webFrontEnd = "a web front end (session.webRequest)"
    /// `session.inspect` (1.4): the session and several accounts in one call, which the harness
    /// makes after every step to watch the safety monitors; with an older adapter it asks for each
    /// separately, so no test case needs it.
    case batchInspection = "session.inspect"

    /// The minor version of protocol 1 that added it.
    public var sinceMinor: Int {
        switch self {
        case .osFamily, .credentialLookupFailure: 1
        case .answerLostAfterCommit: 2
        case .webFrontEnd: 3
        case .batchInspection: 4
        }
    }

    /// The version that added it: `1.1`, `1.2`.
    public var since: String { "1.\(sinceMinor)" }

    /// Why a test case that needs the feature is not verified with an adapter of `version`.
    public func notVerifiedMessage(adapterVersion version: String) -> String {
        "the test case needs \(rawValue), added in adapter protocol \(since); the adapter implements \(version)"
    }
}
