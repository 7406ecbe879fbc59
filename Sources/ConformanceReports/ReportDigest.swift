#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ConformanceCrypto

/// SHA-256 digests as the reports and evidence bundles write them: 64 lowercase hex digits,
/// computed by the WebAuthn module's libcrypto / CryptoKit wrapper.
package enum ReportDigest {
    /// The SHA-256 of `bytes`, lowercase hex.
    package static func sha256Hex(_ bytes: [UInt8]) -> String {
        hex(SHA256.hash(Data(bytes)))
    }

    /// The SHA-256 of `data`, lowercase hex.
    package static func sha256Hex(_ data: Data) -> String {
        hex(SHA256.hash(data))
    }

    /// Lowercase hex of `bytes`.
    package static func hex(_ bytes: Data) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
