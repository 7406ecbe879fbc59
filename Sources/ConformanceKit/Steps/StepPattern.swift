/// A step sentence with typed parameters: `the user signs in as {string} with the autofilled password`.
///
/// Parameter types: `{string}` (text in double quotes), `{int}` (an optionally negative whole
/// number), `{word}` (a run of characters without white space). Everything else is literal text;
/// `(s)` after a word makes the `s` optional, so one pattern reads well for one and for many.
///
/// Matching takes time linear in the length of the text: the pattern compiles to a small
/// nondeterministic automaton that runs over the text once, keeping at most one thread per
/// instruction (a Pike VM). Where several readings match, the one a backtracking matcher would find
/// first wins: the longest `{word}` and the `s` of `(s)` before shorter words and no `s`.
public struct StepPattern: Sendable, Hashable, CustomStringConvertible {
    enum Segment: Sendable, Hashable {
        case literal(String)
        case optionalLiteral(String)
        case string, int, word
    }

    /// The type of a parameter.
    public enum ParameterKind: String, Sendable, Hashable, CaseIterable {
        /// `{string}`: any text between double quotes (none inside).
        case string
        /// `{int}`: an optionally negative whole number, in decimal digits.
        case int
        /// `{word}`: a run of characters without white space.
        case word

        /// The placeholder as a pattern writes it.
        public var placeholder: String { "{\(rawValue)}" }
    }

    /// The pattern as written, with its `{…}` placeholders.
    public let source: String
    let segments: [Segment]
    private let program: [Instruction]

    /// The pattern as written.
    public var description: String { source }

    /// The types of the pattern's parameters, in the order their arguments are read.
    public var parameters: [ParameterKind] {
        segments.compactMap { segment in
            switch segment {
            case .string: .string
            case .int: .int
            case .word: .word
            case .literal, .optionalLiteral: nil
            }
        }
    }

    /// Compiles a pattern from its source text.
    public init(_ source: String) {
        self.source = source
        var segments: [Segment] = []
        var literal = ""
        var rest = Substring(source)
        func flush() {
            if !literal.isEmpty {
                segments.append(.literal(literal))
                literal = ""
            }
        }
        while let character = rest.first {
            if rest.hasPrefix("{string}") {
                flush()
                segments.append(.string)
                rest = rest.dropFirst(8)
                continue
            }
            if rest.hasPrefix("{int}") {
                flush()
                segments.append(.int)
                rest = rest.dropFirst(5)
                continue
            }
            if rest.hasPrefix("{word}") {
                flush()
                segments.append(.word)
                rest = rest.dropFirst(6)
                continue
            }
            if rest.hasPrefix("(s)") {
                flush()
                segments.append(.optionalLiteral("s"))
                rest = rest.dropFirst(3)
                continue
            }
            literal.append(character)
            rest = rest.dropFirst()
        }
        flush()
        self.segments = segments
        self.program = Self.compile(segments)
    }

    /// Two patterns are the same when their sources are.
    public static func == (lhs: StepPattern, rhs: StepPattern) -> Bool { lhs.source == rhs.source }

    /// Hashes the source.
    public func hash(into hasher: inout Hasher) { hasher.combine(source) }

    /// The arguments if `text` matches the whole pattern, else `nil`.
    public func match(_ text: String) -> [String]? {
        match(characters: Array(text))
    }

    /// The arguments if the text, as characters, matches the whole pattern, else `nil`.
    func match(characters: [Character]) -> [String]? {
        guard let bounds = run(characters) else { return nil }
        return stride(from: 0, to: bounds.count, by: 2).map { String(characters[bounds[$0]..<bounds[$0 + 1]]) }
    }

    // MARK: The automaton

    enum Instruction: Sendable, Hashable {
        case character(Character)
        case notQuote
        case digit
        case nonSpace
        /// Continue at both targets; the first has priority.
        case split(Int, Int)
        case jump(Int)
        /// Records the current position as bound `n` of the arguments (start 2k, end 2k+1).
        case save(Int)
        case accept
    }

    static func compile(_ segments: [Segment]) -> [Instruction] {
        var program: [Instruction] = []
        var slot = 0
        /// `x+` (greedy): one `x`, then a loop that prefers another `x`.
        func oneOrMore(_ instruction: Instruction) {
            program.append(instruction)
            let loop = program.count
            program.append(.split(loop + 1, loop + 3))
            program.append(instruction)
            program.append(.jump(loop))
        }
        for segment in segments {
            switch segment {
            case .literal(let text):
                program += text.map(Instruction.character)
            case .optionalLiteral(let text):
                let split = program.count
                program.append(.split(split + 1, split + 1 + text.count))
                program += text.map(Instruction.character)
            case .string:
                program.append(.character("\""))
                program.append(.save(slot))
                let loop = program.count
                program.append(.split(loop + 1, loop + 3))
                program.append(.notQuote)
                program.append(.jump(loop))
                program.append(.save(slot + 1))
                program.append(.character("\""))
                slot += 2
            case .int:
                program.append(.save(slot))
                let split = program.count
                program.append(.split(split + 1, split + 2))
                program.append(.character("-"))
                oneOrMore(.digit)
                program.append(.save(slot + 1))
                slot += 2
            case .word:
                program.append(.save(slot))
                oneOrMore(.nonSpace)
                program.append(.save(slot + 1))
                slot += 2
            }
        }
        program.append(.accept)
        return program
    }

    private struct Thread {
        var pc: Int
        var bounds: [Int]
    }

    /// Runs the automaton over the whole text; the argument bounds of the preferred match, or `nil`.
    private func run(_ text: [Character]) -> [Int]? {
        var seen = [Int](repeating: -1, count: program.count)
        var pending: [Thread] = []
        var current: [Thread] = []
        var next: [Thread] = []
        add(Thread(pc: 0, bounds: [Int](repeating: 0, count: parameters.count * 2)), at: 0, to: &current, seen: &seen, pending: &pending)
        for position in 0..<text.count {
            if current.isEmpty { return nil }
            let character = text[position]
            next.removeAll(keepingCapacity: true)
            for thread in current {
                let matches: Bool
                switch program[thread.pc] {
                case .character(let expected): matches = character == expected
                case .notQuote: matches = character != "\""
                case .digit: matches = character.isASCII && character.isNumber
                case .nonSpace: matches = !character.isWhitespace
                case .accept, .split, .jump, .save: matches = false
                }
                if matches {
                    add(Thread(pc: thread.pc + 1, bounds: thread.bounds), at: position + 1, to: &next, seen: &seen, pending: &pending)
                }
            }
            swap(&current, &next)
        }
        return current.first { program[$0.pc] == .accept }?.bounds
    }

    /// Adds a thread, and every thread reachable from it without reading a character, to `list` in
    /// priority order (depth first, the first target of a split before the second). An instruction
    /// already reached at this position keeps its earlier, preferred thread. `pending` is scratch space.
    private func add(_ start: Thread, at position: Int, to list: inout [Thread], seen: inout [Int], pending: inout [Thread]) {
        pending.append(start)
        while let thread = pending.popLast() {
            guard seen[thread.pc] != position else { continue }
            seen[thread.pc] = position
            switch program[thread.pc] {
            case .split(let first, let second):
                pending.append(Thread(pc: second, bounds: thread.bounds))
                pending.append(Thread(pc: first, bounds: thread.bounds))
            case .jump(let target):
                pending.append(Thread(pc: target, bounds: thread.bounds))
            case .save(let slot):
                var bounds = thread.bounds
                bounds[slot] = position
                pending.append(Thread(pc: thread.pc + 1, bounds: bounds))
            default:
                list.append(thread)
            }
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

/// The arguments a step's pattern read from its text, typed by the pattern's parameters: an
/// `{int}` is read as a number once, when the text is matched (its range was checked when the
/// criterion files loaded); `{string}` and `{word}` arguments are text.
public struct StepArguments: Sendable, Hashable {
    /// The arguments as read, in the pattern's order.
    public let texts: [String]
    private let numbers: [Int?]

    /// The arguments `texts` of a pattern with `parameters`.
    public init(_ texts: [String], parameters: [StepPattern.ParameterKind]) {
        self.texts = texts
        numbers = texts.indices.map { index in index < parameters.count && parameters[index] == .int ? Int(texts[index]) : nil }
    }

    /// The text of argument `index` (an account's alias, a phrase, a word).
    public subscript(index: Int) -> String { texts[index] }

    /// The number of `{int}` argument `index`.
    public func int(_ index: Int) throws -> Int {
        guard index < numbers.count, let number = numbers[index] else {
            throw SystemIssue("argument \(index + 1) (\(index < texts.count ? texts[index] : "missing")) is not a whole number")
        }
        return number
    }

    /// How many arguments were read.
    public var count: Int { texts.count }
}

/// Binds a sentence pattern to what the harness does for it.
public struct StepDefinition: Sendable {
    /// A definition's identity: the source of its pattern, declared once as a constant where
    /// another part of the harness names the definition (`StepDefinition+IDs.swift`).
    public struct ID: Sendable, Hashable, CustomStringConvertible {
        /// The pattern's source.
        public let pattern: String
        /// The identity of the definition with this pattern.
        public init(_ pattern: String) { self.pattern = pattern }
        /// The pattern.
        public var description: String { pattern }
    }

    /// The definition's identity.
    public var id: ID { ID(pattern.source) }

    /// The values an `{int}` parameter accepts unless its definition says otherwise: counts,
    /// seconds and minutes in criterion files are small, and a value outside is an authoring slip.
    public static let defaultIntRange: ClosedRange<Int> = 0...10_000
    /// The longest argument (in characters) any parameter accepts. The longest in the package's
    /// criteria is a few dozen characters; anything near this bound is a mistake, not a name.
    public static let maximumArgumentLength = 256

    /// The sentence the step's text must match.
    public let pattern: StepPattern
    /// Capabilities the adapter must declare for the step to run.
    public let needs: Set<Capability>
    /// What a later minor of the adapter protocol added that the step uses: with an adapter of an
    /// older minor the test case is *not verified*.
    public let protocolFeatures: Set<ProtocolFeature>
    /// What the step does, given the test case's world and the arguments read from the text.
    public let body: @Sendable (World, StepArguments) async throws -> StepOutcome
    /// A check of the arguments' meaning when the criterion files load: a message for a value the
    /// step cannot use (an unknown policy, flag or fault). Ranges and lengths are checked apart
    /// from it (``problem(with:)``).
    public let check: (@Sendable ([String]) -> String?)?
    /// The range of each `{int}` argument that does not take ``defaultIntRange``, by its index among
    /// all the pattern's arguments (as in the body's `arguments.int(index)`).
    public let ranges: [Int: ClosedRange<Int>]
    /// Which arguments name accounts the step creates or needs, so that loading can reject a
    /// scenario that uses an account no earlier step created.
    public let accounts: AccountArguments

    /// The arguments of a step that are account aliases (`"alice"`), by index.
    public struct AccountArguments: Sendable, Hashable {
        /// The arguments naming accounts the step creates.
        public var creates: [Int]
        /// The arguments naming accounts that must exist before the step.
        public var uses: [Int]
        /// A step that names no account.
        public static let none = AccountArguments(creates: [], uses: [])
        /// A step that creates the accounts named by these arguments.
        public static func creates(_ indices: Int...) -> AccountArguments { .init(creates: indices, uses: []) }
        /// A step that needs the accounts named by these arguments to exist.
        public static func uses(_ indices: Int...) -> AccountArguments { .init(creates: [], uses: indices) }
    }

    /// Creates a definition from its pattern source, its capabilities, the ranges of `{int}`
    /// arguments that differ from the default, an argument check and its body.
    public init(
        _ pattern: String, accounts: AccountArguments = .none, needs: Set<Capability> = [], protocolFeatures: Set<ProtocolFeature> = [],
        ranges: [Int: ClosedRange<Int>] = [:],
        check: (@Sendable ([String]) -> String?)? = nil,
        body: @escaping @Sendable (World, StepArguments) async throws -> StepOutcome
    ) {
        self.pattern = StepPattern(pattern)
        self.needs = needs
        self.protocolFeatures = protocolFeatures
        self.ranges = ranges
        self.check = check
        self.accounts = accounts
        self.body = body
    }

    /// A definition named by its identity (see ``init(_:accounts:needs:protocolFeatures:ranges:check:body:)``).
    public init(
        _ id: ID, accounts: AccountArguments = .none, needs: Set<Capability> = [], protocolFeatures: Set<ProtocolFeature> = [],
        ranges: [Int: ClosedRange<Int>] = [:],
        check: (@Sendable ([String]) -> String?)? = nil,
        body: @escaping @Sendable (World, StepArguments) async throws -> StepOutcome
    ) {
        self.init(id.pattern, accounts: accounts, needs: needs, protocolFeatures: protocolFeatures, ranges: ranges, check: check, body: body)
    }

    /// The arguments read from a step's text, typed by this definition's parameters (read once,
    /// when the step is bound).
    public func arguments(_ texts: [String]) -> StepArguments {
        StepArguments(texts, parameters: pattern.parameters)
    }

    /// The parameters with their types and, for `{int}`, the values they accept.
    public var parameters: [Parameter] {
        pattern.parameters.enumerated().map { index, kind in
            Parameter(index: index, kind: kind, range: kind == .int ? ranges[index] ?? Self.defaultIntRange : nil)
        }
    }

    /// One parameter of a definition.
    public struct Parameter: Sendable, Hashable {
        /// Its index among the pattern's arguments.
        public var index: Int
        /// Its type.
        public var kind: StepPattern.ParameterKind
        /// The values an `{int}` accepts; `nil` for the other types.
        public var range: ClosedRange<Int>?
    }

    /// What is wrong with arguments read from a step's text, or `nil`: an argument longer than
    /// ``maximumArgumentLength``, an `{int}` outside its range, or what ``check`` says.
    public func problem(with arguments: [String]) -> String? {
        for parameter in parameters where parameter.index < arguments.count {
            let argument = arguments[parameter.index]
            if argument.count > Self.maximumArgumentLength {
                return
                    "argument \(parameter.index + 1) (\(parameter.kind.placeholder)) is \(argument.count) characters long; at most \(Self.maximumArgumentLength) are allowed"
            }
            if let range = parameter.range {
                guard let value = Int(argument), range.contains(value) else {
                    return "\(argument) is out of range for argument \(parameter.index + 1) ({int}) of \"\(pattern.source)\": \(Self.describe(range))"
                }
            }
        }
        return check?(arguments)
    }

    /// A range as the catalogue and diagnostics write it: `0…10,000`.
    public static func describe(_ range: ClosedRange<Int>) -> String {
        "\(grouped(range.lowerBound))…\(grouped(range.upperBound))"
    }

    private static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return value < 0 ? "-" + result : result
    }

    /// An argument check: the argument at `index` must be one of `values`.
    public static func oneOf(_ values: [String], at index: Int = 0) -> @Sendable ([String]) -> String? {
        { arguments in
            values.contains(arguments[index])
                ? nil
                : "\"\(arguments[index])\" is not one of " + values.map { "\"\($0)\"" }.joined(separator: ", ")
        }
    }
}
