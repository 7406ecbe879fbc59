/// A step sentence with typed parameters: `the user signs in as {string} with the autofilled password`.
///
/// Parameter types: `{string}` (text in double quotes), `{int}` (an integer), `{word}` (a run of
/// characters without white space). Everything else is literal text; `(s)` after a word makes the
/// `s` optional, so one pattern reads well for one and for many.
public struct StepPattern: Sendable, Hashable, CustomStringConvertible {
    enum Segment: Sendable, Hashable {
        case literal(String)
        case optionalLiteral(String)
        case string, int, word
    }

    /// The pattern as written, with its `{…}` placeholders.
    public let source: String
    let segments: [Segment]

    /// The pattern as written.
    public var description: String { source }

    /// Compiles a pattern from its source text.
    public init(_ source: String) {
        self.source = source
        var segments: [Segment] = []
        var literal = ""
        var rest = Substring(source)
        func flush() {
            if !literal.isEmpty { segments.append(.literal(literal)); literal = "" }
        }
        while let character = rest.first {
            if rest.hasPrefix("{string}") { flush(); segments.append(.string); rest = rest.dropFirst(8); continue }
            if rest.hasPrefix("{int}") { flush(); segments.append(.int); rest = rest.dropFirst(5); continue }
            if rest.hasPrefix("{word}") { flush(); segments.append(.word); rest = rest.dropFirst(6); continue }
            if rest.hasPrefix("(s)") { flush(); segments.append(.optionalLiteral("s")); rest = rest.dropFirst(3); continue }
            literal.append(character)
            rest = rest.dropFirst()
        }
        flush()
        self.segments = segments
    }

    /// The arguments if `text` matches the whole pattern, else `nil`.
    public func match(_ text: String) -> [String]? {
        var arguments: [String] = []
        return Self.match(segments[...], Substring(text), &arguments) ? arguments : nil
    }

    private static func match(_ segments: ArraySlice<Segment>, _ text: Substring, _ arguments: inout [String]) -> Bool {
        guard let segment = segments.first else { return text.isEmpty }
        let rest = segments.dropFirst()
        switch segment {
        case .literal(let literal):
            guard text.hasPrefix(literal) else { return false }
            return match(rest, text.dropFirst(literal.count), &arguments)
        case .optionalLiteral(let literal):
            if text.hasPrefix(literal), match(rest, text.dropFirst(literal.count), &arguments) { return true }
            return match(rest, text, &arguments)
        case .string:
            guard text.first == "\"" else { return false }
            let body = text.dropFirst()
            guard let end = body.firstIndex(of: "\"") else { return false }
            arguments.append(String(body[..<end]))
            if match(rest, body[body.index(after: end)...], &arguments) { return true }
            arguments.removeLast()
            return false
        case .int:
            var end = text.startIndex
            if end < text.endIndex, text[end] == "-" { end = text.index(after: end) }
            let digitsStart = end
            while end < text.endIndex, text[end].isASCII, text[end].isNumber { end = text.index(after: end) }
            guard end > digitsStart else { return false }
            arguments.append(String(text[..<end]))
            if match(rest, text[end...], &arguments) { return true }
            arguments.removeLast()
            return false
        case .word:
            var end = text.startIndex
            while end < text.endIndex, !text[end].isWhitespace { end = text.index(after: end) }
            guard end > text.startIndex else { return false }
            // Try the longest word first, then shorter ones, so a literal after it can still match.
            var candidate = end
            while candidate > text.startIndex {
                arguments.append(String(text[..<candidate]))
                if match(rest, text[candidate...], &arguments) { return true }
                arguments.removeLast()
                candidate = text.index(before: candidate)
            }
            return false
        }
    }
}

/// How a step ended, as a value: an RP that breaks a criterion is a failed step, not an error.
public enum StepOutcome: Sendable, Hashable {
    /// The step did what it checks, or what it sets up.
    case passed
    /// The relying party broke the criterion; the message says how, citing the transcript.
    case failed(String)
    /// Something the step needs is missing (capability, platform feature).
    case notVerified(String)
}

/// A fault that stops a test case with the verdict `error`: the adapter, the transport or the
/// harness failed, or a step was used in a way its definition cannot serve (an authoring defect).
public struct SystemIssue: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, for the report.
    public var message: String
    /// Creates an issue with a message.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}

/// What the relying party did that stops a step from going on (it started hundreds of platform
/// operations in one step, its timers ran away): the test case *fails* with this message and the
/// transcript as evidence, because the RP, not the harness, broke it.
public struct RelyingPartyFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// What the relying party did, for the report.
    public var message: String
    /// Creates a failure with a message.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}

/// Binds a sentence pattern to what the harness does for it.
public struct StepDefinition: Sendable {
    /// The sentence the step's text must match.
    public let pattern: StepPattern
    /// Capabilities the adapter must declare for the step to run.
    public let needs: Set<Capability>
    /// What the step does, given the test case's world and the arguments read from the text.
    public let body: @Sendable (World, [String]) async throws -> StepOutcome
    /// Checks the arguments when the criterion files load: a message for a value the step cannot
    /// use (an unknown policy, flag or fault), so `validate` reports it with its location.
    public let check: (@Sendable ([String]) -> String?)?

    /// Creates a definition from its pattern source, its capabilities, an argument check and its body.
    public init(_ pattern: String, needs: Set<Capability> = [], check: (@Sendable ([String]) -> String?)? = nil,
                body: @escaping @Sendable (World, [String]) async throws -> StepOutcome) {
        self.pattern = StepPattern(pattern)
        self.needs = needs
        self.check = check
        self.body = body
    }

    /// An argument check: the argument at `index` must be one of `values`.
    public static func oneOf(_ values: [String], at index: Int = 0) -> @Sendable ([String]) -> String? {
        { arguments in
            values.contains(arguments[index]) ? nil
                : "\"\(arguments[index])\" is not one of " + values.map { "\"\($0)\"" }.joined(separator: ", ")
        }
    }
}
