#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The authenticator data structure of WebAuthn §6.1.
///
/// Layout: `rpIdHash` (32) | `flags` (1) | `signCount` (4, big-endian) | attested credential data
/// (when AT) | extensions CBOR map (when ED). `bytes` writes `flags` exactly as stored, so tests
/// can build inconsistent data on purpose; the initializer adds AT and ED when the matching
/// parts are present.
public struct AuthenticatorData: Sendable, Hashable {
    /// The flags byte.
    public struct Flags: OptionSet, Sendable, Hashable, CustomStringConvertible {
        /// The raw byte.
        public let rawValue: UInt8

        /// Creates flags from their byte.
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// UP, bit 0: the user was present.
        public static let userPresent = Flags(rawValue: 0x01)
        /// UV, bit 2: the user was verified.
        public static let userVerified = Flags(rawValue: 0x04)
        /// BE, bit 3: the credential is backup eligible (may be synced).
        public static let backupEligible = Flags(rawValue: 0x08)
        /// BS, bit 4: the credential is currently backed up.
        public static let backupState = Flags(rawValue: 0x10)
        /// AT, bit 6: attested credential data follows.
        public static let attestedCredentialData = Flags(rawValue: 0x40)
        /// ED, bit 7: an extensions map follows.
        public static let extensionData = Flags(rawValue: 0x80)

        /// The set flag names, for example `[UP, UV, AT]`, with RFU bits as hex.
        public var description: String {
            let names: [(Flags, String)] = [
                (.userPresent, "UP"), (.userVerified, "UV"), (.backupEligible, "BE"),
                (.backupState, "BS"), (.attestedCredentialData, "AT"), (.extensionData, "ED"),
            ]
            var parts = names.filter { contains($0.0) }.map(\.1)
            let reserved = rawValue & 0x22
            if reserved != 0 { parts.append("RFU 0x" + String(reserved, radix: 16)) }
            return "[" + parts.joined(separator: ", ") + "]"
        }
    }

    /// Attested credential data (WebAuthn §6.5.1).
    public struct AttestedCredentialData: Sendable, Hashable {
        /// The largest credential ID WebAuthn allows.
        public static let maximumCredentialIdLength = 1023

        /// The authenticator model's AAGUID, 16 bytes (all zero when not disclosed).
        public var aaguid: Data
        /// The credential ID (at most 1023 bytes).
        public var credentialId: Data
        /// The credential public key as COSE_Key CBOR bytes, kept exactly as received.
        public var credentialPublicKey: Data

        /// Creates attested credential data; lengths are checked when encoding and parsing.
        public init(aaguid: Data, credentialId: Data, credentialPublicKey: Data) {
            self.aaguid = aaguid
            self.credentialId = credentialId
            self.credentialPublicKey = credentialPublicKey
        }
    }

    /// SHA-256 of the RP ID, 32 bytes.
    public var rpIdHash: Data
    /// The flags.
    public var flags: Flags
    /// The signature counter.
    public var signCount: UInt32
    /// The attested credential data, present in registrations.
    public var attestedCredentialData: AttestedCredentialData?
    /// The authenticator extension outputs, a CBOR map.
    public var extensions: CBOR?

    /// Creates authenticator data; AT and ED are added to `flags` when the matching part is present.
    public init(
        rpIdHash: Data, flags: Flags, signCount: UInt32,
        attestedCredentialData: AttestedCredentialData? = nil, extensions: CBOR? = nil
    ) {
        self.rpIdHash = rpIdHash
        var flags = flags
        if attestedCredentialData != nil { flags.insert(.attestedCredentialData) }
        if extensions != nil { flags.insert(.extensionData) }
        self.flags = flags
        self.signCount = signCount
        self.attestedCredentialData = attestedCredentialData
        self.extensions = extensions
    }

    /// The serialized bytes, with `flags` written as stored.
    ///
    /// The parts are written as given (lengths are not validated here, so malformed data can be
    /// built for negative tests); the credential ID length is written as its low 16 bits.
    public var bytes: Data {
        var output = Data(rpIdHash)
        output.append(flags.rawValue)
        output.append(contentsOf: withUnsafeBytes(of: signCount.bigEndian) { Array($0) })
        if let attested = attestedCredentialData {
            output.append(attested.aaguid)
            output.append(contentsOf: withUnsafeBytes(of: UInt16(truncatingIfNeeded: attested.credentialId.count).bigEndian) { Array($0) })
            output.append(attested.credentialId)
            output.append(attested.credentialPublicKey)
        }
        if let extensions { output.append(extensions.encoded) }
        return output
    }

    /// Why bytes are not acceptable authenticator data.
    public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The kind of defect.
        public enum Kind: Sendable, Hashable {
            /// Fewer than the 37 bytes of the fixed part.
            case tooShort(length: Int)
            /// AT is set but the attested credential data ends early.
            case attestedCredentialDataTruncated
            /// The declared credential ID length exceeds 1023.
            case credentialIdTooLong(length: Int)
            /// The credential public key is not one well-formed CBOR item (the CBOR error's
            /// offset counts from the start of the key; `ParseError.offset` is absolute).
            case malformedCredentialPublicKey(CBOR.DecodingError)
            /// ED is set but the extensions are not one well-formed CBOR item (the CBOR error's
            /// offset counts from the start of the extensions; `ParseError.offset` is absolute).
            case malformedExtensions(CBOR.DecodingError)
            /// ED is set but the extensions item is not a map.
            case extensionsNotAMap(found: String)
            /// ED is set but no bytes follow.
            case missingExtensions
            /// Bytes remain after the parts that the flags announce.
            case trailingBytes(count: Int)
        }

        /// The kind of defect.
        public let kind: Kind
        /// The byte offset in the authenticator data where the defect was found.
        public let offset: Int

        /// Creates an error.
        public init(_ kind: Kind, offset: Int) {
            self.kind = kind
            self.offset = offset
        }

        /// A one-line human-readable explanation.
        public var description: String {
            let message =
                switch kind {
                case let .tooShort(length): "authenticator data is \(length) bytes, at least 37 are required"
                case .attestedCredentialDataTruncated: "AT flag is set but the attested credential data is truncated"
                case let .credentialIdTooLong(length): "credential ID length \(length) exceeds 1023"
                case let .malformedCredentialPublicKey(error): "credential public key is not valid CBOR (\(error))"
                case let .malformedExtensions(error): "extensions are not valid CBOR (\(error))"
                case let .extensionsNotAMap(found): "extensions must be a CBOR map, found \(found)"
                case .missingExtensions: "ED flag is set but no extensions follow"
                case let .trailingBytes(count): "\(count) unexpected byte(s) after the parts announced by the flags"
                }
            return "authenticator data error at byte \(offset): \(message)"
        }
    }

    /// Parses authenticator data strictly.
    ///
    /// The AT and ED flags decide which optional parts must follow; anything left over is an
    /// error. The credential public key is checked to be one well-formed CBOR item but is not
    /// interpreted (see `COSEKey`).
    public init(bytes data: Data) throws(ParseError) {
        let bytes = [UInt8](data)
        guard bytes.count >= 37 else { throw ParseError(.tooShort(length: bytes.count), offset: 0) }
        rpIdHash = Data(bytes[0..<32])
        flags = Flags(rawValue: bytes[32])
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        var position = 37
        attestedCredentialData = nil
        extensions = nil
        if flags.contains(.attestedCredentialData) {
            guard bytes.count - position >= 18 else { throw ParseError(.attestedCredentialDataTruncated, offset: bytes.count) }
            let aaguid = Data(bytes[position..<position + 16])
            let length = Int(bytes[position + 16]) << 8 | Int(bytes[position + 17])
            guard length <= AttestedCredentialData.maximumCredentialIdLength else {
                throw ParseError(.credentialIdTooLong(length: length), offset: position + 16)
            }
            position += 18
            guard bytes.count - position >= length else { throw ParseError(.attestedCredentialDataTruncated, offset: bytes.count) }
            let credentialId = Data(bytes[position..<position + length])
            position += length
            guard position < bytes.count else { throw ParseError(.attestedCredentialDataTruncated, offset: position) }
            let keyLength: Int
            do {
                keyLength = try CBOR.decodePrefix(Data(bytes[position...])).length
            } catch {
                throw ParseError(.malformedCredentialPublicKey(error), offset: position + error.offset)
            }
            attestedCredentialData = AttestedCredentialData(
                aaguid: aaguid, credentialId: credentialId, credentialPublicKey: Data(bytes[position..<position + keyLength]))
            position += keyLength
        }
        if flags.contains(.extensionData) {
            guard position < bytes.count else { throw ParseError(.missingExtensions, offset: position) }
            let decoded: (value: CBOR, length: Int)
            do {
                decoded = try CBOR.decodePrefix(Data(bytes[position...]))
            } catch {
                throw ParseError(.malformedExtensions(error), offset: position + error.offset)
            }
            guard decoded.value.mapValue != nil else {
                throw ParseError(.extensionsNotAMap(found: decoded.value.kindName), offset: position)
            }
            extensions = decoded.value
            position += decoded.length
        }
        guard position == bytes.count else { throw ParseError(.trailingBytes(count: bytes.count - position), offset: position) }
    }
}
