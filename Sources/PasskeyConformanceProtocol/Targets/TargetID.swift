/// The identifier of a target (`apple-18`, `android-15-gpm`): on the command line, in tags and in
/// reports. Written as the plain string; never interchangeable with another kind of identifier.
public struct TargetID: StringIdentifier, ExpressibleByStringInterpolation {
    /// The identifier's text.
    public let rawValue: String

    /// An identifier from its text.
    public init(rawValue: String) { self.rawValue = rawValue }
}
