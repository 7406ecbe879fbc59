#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import Base64URLCoding

/// The byte and key conventions shared by every wire format of the harness.
///
/// Binary values travel as unpadded base64url strings (as in WebAuthn's JSON forms), keys are
/// sorted, and decoding rejects anything that is not base64url.
public enum Wire {
    /// An encoder with sorted keys and base64url binary values.
    public static func encoder(pretty: Bool = false) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        encoder.dataEncodingStrategy = .custom { data, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(Base64URL.encode(data))
        }
        return encoder
    }

    /// A decoder that reads binary values as base64url strings.
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dataDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let data = Base64URL.decodeIfValid(text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not base64url: \(text.prefix(40))")
            }
            return data
        }
        return decoder
    }

    /// Encodes a value as a `JSONValue` (for transcripts).
    public static func jsonValue<T: Encodable>(_ value: T) -> JSONValue {
        guard let data = try? encoder().encode(value), let parsed = try? JSONValue.parse(data) else { return .null }
        return parsed
    }

    /// Decodes a typed value from a `JSONValue`.
    public static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        let data = try encoder().encode(value)
        return try decoder().decode(type, from: data)
    }
}

extension Wire {
    /// A JSON value as compact text with sorted keys: the text `JSONEncoder` writes for it,
    /// written directly.
    public static func jsonString(_ value: JSONValue) -> String {
        value.compactText() ?? encodedText(value)
    }

    /// Encodes a value as compact JSON text with sorted keys.
    public static func jsonString<T: Encodable>(_ value: T) -> String { encodedText(value) }

    /// Compact JSON text with sorted keys, through `JSONEncoder`.
    private static func encodedText<T: Encodable>(_ value: T) -> String {
        guard let data = try? encoder().encode(value) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }
}
