import Foundation
import PasskeyConformanceProtocol
import Testing

/// A platform error is one case per platform family, written as the one flat object the adapter
/// protocol has always carried: the same bytes as before, read back to the same case, and members
/// of no single case refused with a message that names them.
@Suite("Platform error coding")
struct PlatformErrorCodingTests {
    /// The error as it was modelled before: every family's members optional, synthesized `Codable`.
    struct LegacyPlatformError: Codable {
        var name: String
        var type: String?
        var domain: String?
        var code: Int?
        var message: String
        var retryMillis: Int64?
    }

    static func text<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try Wire.encoder().encode(value), as: UTF8.self)
    }

    static func decode(_ json: String) throws -> PlatformError {
        try Wire.decoder().decode(PlatformError.self, from: Data(json.utf8))
    }

    static func decodingFailure(_ json: String) -> String? {
        do {
            _ = try decode(json)
            return nil
        } catch DecodingError.dataCorrupted(let context) {
            return context.debugDescription
        } catch {
            return "\(error)"
        }
    }

    static let cases: [(PlatformError, LegacyPlatformError, String)] = [
        (
            .android(AndroidCredentialException(name: "NoCredentialException", type: "TYPE_NO_CREDENTIAL", message: "none")),
            LegacyPlatformError(name: "NoCredentialException", type: "TYPE_NO_CREDENTIAL", message: "none"),
            #"{"message":"none","name":"NoCredentialException","type":"TYPE_NO_CREDENTIAL"}"#
        ),
        (
            .android(AndroidCredentialException(name: "SignalCredentialRateLimitExceededException", type: "RATE", message: "slow", retryMillis: 1_500)),
            LegacyPlatformError(name: "SignalCredentialRateLimitExceededException", type: "RATE", message: "slow", retryMillis: 1_500),
            #"{"message":"slow","name":"SignalCredentialRateLimitExceededException","retryMillis":1500,"type":"RATE"}"#
        ),
        (
            .apple(
                AppleAuthorizationError(
                    name: "ASAuthorizationError.canceled", domain: "com.apple.AuthenticationServices.AuthorizationError", code: 1001, message: "no")),
            LegacyPlatformError(
                name: "ASAuthorizationError.canceled", domain: "com.apple.AuthenticationServices.AuthorizationError", code: 1001, message: "no"),
            #"{"code":1001,"domain":"com.apple.AuthenticationServices.AuthorizationError","message":"no","name":"ASAuthorizationError.canceled"}"#
        ),
        (
            .general(name: "NoSuchMethodError", message: "missing"), LegacyPlatformError(name: "NoSuchMethodError", message: "missing"),
            #"{"message":"missing","name":"NoSuchMethodError"}"#
        ),
    ]

    @Test("each case writes the bytes the earlier model wrote, and reads back to the same case")
    func sameBytes() throws {
        for (error, legacy, json) in Self.cases {
            #expect(try Self.text(error) == json)
            #expect(try Self.text(legacy) == json)
            #expect(try Self.decode(json) == error)
            #expect(try Self.decode(json).family == error.family)
        }
    }

    @Test("the read helpers give each family's members and nil for the others")
    func readHelpers() throws {
        let android = try Self.decode(#"{"message":"m","name":"n","retryMillis":5,"type":"t"}"#)
        #expect(android.family == .android && android.type == "t" && android.retryMillis == 5 && android.domain == nil && android.code == nil)
        let apple = try Self.decode(#"{"code":1004,"domain":"d","message":"m","name":"n"}"#)
        #expect(apple.family == .apple && apple.domain == "d" && apple.code == 1004 && apple.type == nil && apple.retryMillis == nil)
        let general = try Self.decode(#"{"message":"m","name":"n"}"#)
        #expect(general.family == nil && general.name == "n" && general.message == "m")
    }

    @Test("members of both families, half an Apple error or retryMillis without type are refused, naming the members")
    func badInput() {
        #expect(
            Self.decodingFailure(#"{"code":1,"message":"m","name":"n","type":"t"}"#)
                == #"the error "n" carries Android members ("type", "retryMillis") and Apple members ("domain", "code"); an error is of one platform"#)
        #expect(Self.decodingFailure(#"{"code":1,"message":"m","name":"n"}"#) == #"the Apple error "n" needs both "domain" and "code"; it has only "code""#)
        #expect(
            Self.decodingFailure(#"{"domain":"d","message":"m","name":"n"}"#) == #"the Apple error "n" needs both "domain" and "code"; it has only "domain""#)
        #expect(Self.decodingFailure(#"{"message":"m","name":"n","retryMillis":3}"#) == #"the Android exception "n" has "retryMillis" without "type""#)
        #expect(Self.decodingFailure(#"{"name":"n"}"#) != nil)
    }
}
