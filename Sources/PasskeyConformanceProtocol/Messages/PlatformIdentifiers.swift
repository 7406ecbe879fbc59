/// An identifier of a platform operation the relying party started (create, get or signal), as the
/// platform gave it. Written as the plain string; never interchangeable with a timer's identifier.
public struct OperationID: StringIdentifier, ExpressibleByStringInterpolation {
    /// The identifier as the platform gave it.
    public let rawValue: String

    /// An identifier from its text.
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// An identifier of a timer the relying party scheduled on the virtual clock, as the clock gave it.
/// Written as the plain string; never interchangeable with an operation's identifier.
public struct TimerID: StringIdentifier, ExpressibleByStringInterpolation {
    /// The identifier as the clock gave it.
    public let rawValue: String

    /// An identifier from its text.
    public init(rawValue: String) { self.rawValue = rawValue }
}
