import Foundation
import Testing
@testable import WebAuthn

@Suite("Authenticator data")
struct AuthenticatorDataTests {
    typealias Flags = AuthenticatorData.Flags
    static let rpIdHash = SHA256.hash(Data("example.com".utf8))
    static let cose = COSEKey(publicKey: COSEKeyTests.key).bytes
    static let attested = AuthenticatorData.AttestedCredentialData(
        aaguid: Data(repeating: 0xAA, count: 16), credentialId: Data(repeating: 0xC1, count: 16), credentialPublicKey: cose)

    @Test func flagBitsMatchTheSpec() {
        #expect(Flags.userPresent.rawValue == 0x01)
        #expect(Flags.userVerified.rawValue == 0x04)
        #expect(Flags.backupEligible.rawValue == 0x08)
        #expect(Flags.backupState.rawValue == 0x10)
        #expect(Flags.attestedCredentialData.rawValue == 0x40)
        #expect(Flags.extensionData.rawValue == 0x80)
        #expect(Flags(rawValue: 0xFF).description == "[UP, UV, BE, BS, AT, ED, RFU 0x22]")
    }

    @Test func encodesTheFixedPart() throws {
        let data = AuthenticatorData(rpIdHash: Self.rpIdHash, flags: [.userPresent, .userVerified], signCount: 0x0102_0304)
        #expect(data.bytes.hex == Self.rpIdHash.hex + "05" + "01020304")
        #expect(try AuthenticatorData(bytes: data.bytes) == data)
    }

    @Test func encodesAttestedCredentialDataAndExtensions() throws {
        let data = AuthenticatorData(
            rpIdHash: Self.rpIdHash, flags: [.userPresent], signCount: 1,
            attestedCredentialData: Self.attested, extensions: ["credProtect": 2])
        #expect(data.flags == [.userPresent, .attestedCredentialData, .extensionData])
        let expected =
            Self.rpIdHash.hex + "c1" + "00000001" + String(repeating: "aa", count: 16) + "0010"
            + String(repeating: "c1", count: 16) + Self.cose.hex + "a16b6372656450726f7465637402"
        #expect(data.bytes.hex == expected)
        let parsed = try AuthenticatorData(bytes: data.bytes)
        #expect(parsed == data)
        #expect(parsed.attestedCredentialData?.credentialPublicKey == Self.cose)
    }

    @Test func acceptsTheLongestCredentialId() throws {
        var attested = Self.attested
        attested.credentialId = Data(repeating: 7, count: 1023)
        let data = AuthenticatorData(rpIdHash: Self.rpIdHash, flags: [], signCount: 0, attestedCredentialData: attested)
        #expect(try AuthenticatorData(bytes: data.bytes).attestedCredentialData?.credentialId.count == 1023)
    }

    typealias Kind = AuthenticatorData.ParseError.Kind

    static var malformed: [(String, Data, Kind, Int)] {
        let base = rpIdHash + Data([0x41, 0, 0, 0, 1])
        let withKey = AuthenticatorData(rpIdHash: rpIdHash, flags: [.userPresent], signCount: 1, attestedCredentialData: attested).bytes
        var longId = AuthenticatorData(rpIdHash: rpIdHash, flags: [.userPresent], signCount: 1, attestedCredentialData: attested).bytes
        longId[37 + 16] = 0x04  // length 0x0410 = 1040
        let noAT = rpIdHash + Data([0x01, 0, 0, 0, 1])
        let edOnly = rpIdHash + Data([0x81, 0, 0, 0, 1])
        return [
            ("empty", Data(), .tooShort(length: 0), 0),
            ("36 bytes", Data(count: 36), .tooShort(length: 36), 0),
            ("AT without data", base, .attestedCredentialDataTruncated, 37),
            ("AT with short aaguid", base + Data(count: 10), .attestedCredentialDataTruncated, 47),
            ("credential ID too long", longId, .credentialIdTooLong(length: 1040), 53),
            ("credential ID truncated", base + Data(count: 16) + Data([0x00, 0x20]) + Data(count: 8), .attestedCredentialDataTruncated, 63),
            ("no key after ID", base + Data(count: 16) + Data([0x00, 0x01, 0x09]), .attestedCredentialDataTruncated, 56),
            (
                "truncated key", Data(withKey.dropLast()), .malformedCredentialPublicKey(.init(.lengthExceedsInput(declared: 32, remaining: 31), offset: 43)),
                withKey.count - 34
            ),
            (
                "indefinite key", base + Data(count: 16) + Data([0x00, 0x01, 0x09, 0xBF, 0xFF]),
                .malformedCredentialPublicKey(.init(.indefiniteLength, offset: 0)), 56
            ),
            ("trailing after key", withKey + Data([0x00]), .trailingBytes(count: 1), withKey.count),
            ("trailing without AT", noAT + Data([0xA0]), .trailingBytes(count: 1), 37),
            ("ED without extensions", edOnly, .missingExtensions, 37),
            ("ED with array", edOnly + Data([0x80]), .extensionsNotAMap(found: "array"), 37),
            ("ED with truncated map", edOnly + Data([0xA1, 0x01]), .malformedExtensions(.init(.lengthExceedsInput(declared: 1, remaining: 1), offset: 0)), 37),
            ("trailing after extensions", edOnly + Data([0xA0, 0xA0]), .trailingBytes(count: 1), 38),
        ]
    }

    @Test(arguments: malformed)
    func rejectsMalformedData(name: String, bytes: Data, kind: Kind, offset: Int) {
        #expect(throws: AuthenticatorData.ParseError(kind, offset: offset), "\(name)") { try AuthenticatorData(bytes: bytes) }
    }

    @Test func builderWritesFlagsAsGivenForFaultInjection() throws {
        var data = AuthenticatorData(rpIdHash: Self.rpIdHash, flags: [.userPresent], signCount: 0)
        data.flags.insert(.attestedCredentialData)
        #expect(throws: AuthenticatorData.ParseError(.attestedCredentialDataTruncated, offset: 37)) {
            try AuthenticatorData(bytes: data.bytes)
        }
    }

    @Test func parsesFromASliceWithNonZeroStartIndex() throws {
        let data = AuthenticatorData(rpIdHash: Self.rpIdHash, flags: [.userPresent], signCount: 9, attestedCredentialData: Self.attested)
        let padded = Data([0xEE, 0xEE]) + data.bytes
        #expect(try AuthenticatorData(bytes: padded[2...]) == data)
    }
}
