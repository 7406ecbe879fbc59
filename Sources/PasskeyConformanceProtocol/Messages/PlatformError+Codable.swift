#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The wire form of a platform error: one flat object whatever the case. `type` (and, for the rate
// limit, `retryMillis`) make it an Android exception; `domain` and `code` an Apple error; neither a
// general error. Members of both families, an Apple error missing one of its two members, or
// `retryMillis` without `type` do not decode, with a message that names the members.

extension PlatformError: Codable {
    private enum CodingKeys: String, CodingKey {
        case name, type, domain, code, message, retryMillis
    }

    /// Decodes the flat object; members that no single case carries are a `DecodingError` that
    /// names them.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .name)
        let message = try container.decode(String.self, forKey: .message)
        let type = try container.decodeIfPresent(String.self, forKey: .type)
        let retryMillis = try container.decodeIfPresent(Int64.self, forKey: .retryMillis)
        let domain = try container.decodeIfPresent(String.self, forKey: .domain)
        let code = try container.decodeIfPresent(Int.self, forKey: .code)
        func corrupted(_ description: String) -> DecodingError {
            DecodingError.dataCorrupted(DecodingError.Context(codingPath: container.codingPath, debugDescription: description))
        }
        let hasAndroid = type != nil || retryMillis != nil
        let hasApple = domain != nil || code != nil
        switch (hasAndroid, hasApple) {
        case (true, true):
            throw corrupted(
                "the error \"\(name)\" carries Android members (\"type\", \"retryMillis\") and Apple members (\"domain\", \"code\"); an error is of one platform"
            )
        case (true, false):
            guard let type else { throw corrupted("the Android exception \"\(name)\" has \"retryMillis\" without \"type\"") }
            self = .android(AndroidCredentialException(name: name, type: type, message: message, retryMillis: retryMillis))
        case (false, true):
            guard let domain, let code else {
                throw corrupted("the Apple error \"\(name)\" needs both \"domain\" and \"code\"; it has only \"\(domain == nil ? "code" : "domain")\"")
            }
            self = .apple(AppleAuthorizationError(name: name, domain: domain, code: code, message: message))
        case (false, false):
            self = .general(name: name, message: message)
        }
    }

    /// Encodes the flat object with the members of the error's case.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(message, forKey: .message)
        switch self {
        case .android(let exception):
            try container.encode(exception.type, forKey: .type)
            try container.encodeIfPresent(exception.retryMillis, forKey: .retryMillis)
        case .apple(let error):
            try container.encode(error.domain, forKey: .domain)
            try container.encode(error.code, forKey: .code)
        case .general:
            break
        }
    }
}
