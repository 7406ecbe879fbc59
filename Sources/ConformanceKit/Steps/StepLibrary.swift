/// The step definitions the criterion files may use, looked up by sentence.
public struct StepLibrary: Sendable {
    /// Every definition, in lookup order.
    public let definitions: [StepDefinition]

    /// Creates a library from definitions.
    public init(_ definitions: [StepDefinition]) {
        self.definitions = definitions
    }

    /// Every step the harness defines.
    public static let standard = StepLibrary(
        StepLibrary.fixtureSteps + StepLibrary.signInSteps + StepLibrary.registrationSteps + StepLibrary.signalSteps
            + StepLibrary.observationSteps + StepLibrary.upgradeSteps + StepLibrary.pathProofSteps + StepLibrary.seedPathSteps
    )

    /// The result of looking up a step's text.
    public enum Match: Sendable {
        /// Exactly one definition matches; with the arguments read from the text.
        case found(StepDefinition, [String])
        /// No definition matches.
        case undefined
        /// Several definitions match; the sources of their patterns.
        case ambiguous([String])
    }

    /// A step's text for a diagnostic: at most 120 characters, the rest elided with its length.
    public static func excerpt(_ text: String) -> String { StepCheck.excerpt(text) }

    /// Finds the one definition whose pattern matches `text`.
    public func match(_ text: String) -> Match {
        var found: [(StepDefinition, [String])] = []
        let characters = Array(text)
        for definition in definitions {
            if let arguments = definition.pattern.match(characters: characters) { found.append((definition, arguments)) }
        }
        switch found.count {
        case 0: return .undefined
        case 1: return .found(found[0].0, found[0].1)
        default: return .ambiguous(found.map(\.0.pattern.source))
        }
    }
}

/// Small helpers shared by step bodies.
enum StepSupport {
    /// Parses a count argument.
    static func int(_ text: String) throws -> Int {
        guard let value = Int(text) else { throw SystemIssue("\"\(text)\" is not a whole number") }
        return value
    }

    /// A short reference to a transcript entry for failure messages.
    static func cite(_ operation: PlatformOperation) -> String {
        "#\(operation.sequence) \(operation.id) at \(operation.issuedAtMillis) ms"
    }

    /// A failed outcome when `condition` is false.
    static func expect(_ condition: Bool, _ message: @autoclosure () -> String) -> StepOutcome {
        condition ? .passed : .failed(message())
    }
}

extension StepLibrary: StepMatcher {
    /// Whether `text` names exactly one definition that accepts its arguments.
    public func check(_ text: String) -> StepCheck {
        switch match(text) {
        case .found(let definition, let arguments): definition.problem(with: arguments).map(StepCheck.invalidArguments) ?? .defined
        case .undefined: .undefined
        case .ambiguous(let patterns): .ambiguous(patterns)
        }
    }

    /// The accounts the step matching `text` creates and needs (none when no single definition matches).
    public func accounts(_ text: String) -> StepAccounts {
        guard case .found(let definition, let arguments) = match(text) else { return StepAccounts() }
        let pick = { (indices: [Int]) in indices.filter { $0 < arguments.count }.map { arguments[$0] } }
        return StepAccounts(creates: pick(definition.accounts.creates), uses: pick(definition.accounts.uses))
    }
}

extension CriteriaLoader {
    /// Creates a loader that checks steps against `library` (the standard steps by default).
    public init(library: StepLibrary = .standard) {
        self.init(matcher: library)
    }
}
