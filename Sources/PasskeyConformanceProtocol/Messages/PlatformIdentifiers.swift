/// An identifier of a platform operation the relying party started (create, get or signal), as the
/// platform gave it. Written as the plain string; never interchangeable with a timer's identifier.
public struct OperationID: RawRepresentable, Sendable, Hashable, Comparable, Codable, CustomStringConvertible, ExpressibleByStringInterpolation {
    /// The identifier as the platform gave it.
    public let rawValue: String

    /// An identifier from its text.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// An identifier written as a literal (`"op-1"`).
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

/// An identifier of a timer the relying party scheduled on the virtual clock, as the clock gave it.
/// Written as the plain string; never interchangeable with an operation's identifier.
public struct TimerID: RawRepresentable, Sendable, Hashable, Comparable, Codable, CustomStringConvertible, ExpressibleByStringInterpolation {
    /// The identifier as the clock gave it.
    public let rawValue: String

    /// An identifier from its text.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// An identifier written as a literal (`"timer-1"`).
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
