/// The identifier of a target (`apple-18`, `android-15-gpm`): on the command line, in tags and in
/// reports. Written as the plain string; never interchangeable with another kind of identifier.
public struct TargetID: RawRepresentable, Sendable, Hashable, Comparable, Codable, CustomStringConvertible, ExpressibleByStringInterpolation {
    /// The identifier's text.
    public let rawValue: String

    /// An identifier from its text.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// An identifier written as a literal (`"apple-18"`).
    public init(stringLiteral text: String) { rawValue = text }
    /// Reads the plain string.
    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }

    /// Writes the plain string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
    /// The identifier's text.
    public var description: String { rawValue }
    /// Orders identifiers by their text.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
