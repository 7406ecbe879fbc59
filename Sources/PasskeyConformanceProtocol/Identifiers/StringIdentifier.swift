/// An identity written as a plain string: a criterion, a verify item, a mutant, a design, a target,
/// an operation or a timer.
///
/// Each kind of identity is its own type, so that one kind cannot be passed where another is
/// expected; all of them are encoded as the bare string (the JSON of every report and message is
/// the same as when they were strings), print as that string and order by it. A literal
/// (`"N2.6-AC01"`) is taken as written; text read from a file or the command line goes through the
/// type's checking initialiser, which names what is wrong.
public protocol StringIdentifier: RawRepresentable<String>, Sendable, Hashable, Comparable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// An identifier from text already known to be well formed.
    init(rawValue: String)
}

extension StringIdentifier {
    /// An identifier written as a literal, taken as written.
    public init(stringLiteral text: String) { self.init(rawValue: text) }

    /// Reads the plain string.
    public init(from decoder: any Decoder) throws { self.init(rawValue: try decoder.singleValueContainer().decode(String.self)) }

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

/// Why a text is not a well-formed identifier of its kind, in a sentence that quotes it.
public struct IdentifierError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the text, quoting it.
    public var message: String

    /// An error with its message.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }

    /// Whether every character of `text` is an ASCII letter or digit, or one of `extra`.
    package static func isWord(_ text: Substring, allowing extra: Set<Character>) -> Bool {
        !text.isEmpty && text.allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || extra.contains($0) }
    }
}

extension Sequence where Element: StringIdentifier {
    /// The identifiers' texts joined by `separator`, as reports and messages list them.
    public func joined(separator: String = "") -> String { map(\.rawValue).joined(separator: separator) }
}
