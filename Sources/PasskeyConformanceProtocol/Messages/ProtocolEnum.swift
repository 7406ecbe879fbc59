#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An enum of the adapter protocol: a string on the wire, one of a fixed list of values.
///
/// Decoding a value outside the list fails with a message that quotes the value and lists every
/// valid one, so an adapter author reads what to send instead (`"signed_in" is not a valid value;
/// the valid values are signed-in, second-factor-required, …`).
public protocol ProtocolEnum: RawRepresentable, CaseIterable, Codable where RawValue == String {}

extension ProtocolEnum {
    /// The valid values, in declaration order, as the wire writes them.
    public static var validValues: [String] { allCases.map(\.rawValue) }

    /// Decodes one of the valid values; any other string fails with the list of valid values.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let raw = try container.decode(String.self)
        guard let value = Self(rawValue: raw) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: Self.invalidValueMessage(raw))
        }
        self = value
    }

    /// `"x" is not a valid value; the valid values are a, b, c`.
    public static func invalidValueMessage(_ raw: String) -> String {
        let quoted = raw.count > 80 ? String(raw.prefix(80)) + "…" : raw
        return "\"\(quoted.debugDescription.dropFirst().dropLast())\" is not a valid value; the valid values are "
            + validValues.joined(separator: ", ")
    }
}
