/// The step definitions the criterion files may use, looked up by sentence, in titled sections.
public struct StepLibrary: Sendable {
    /// A titled group of definitions: a heading of the step catalogue.
    public struct Section: Sendable {
        /// The catalogue's heading.
        public var title: String
        /// The definitions, in lookup order.
        public var definitions: [StepDefinition]

        /// A section titled `title`.
        public init(_ title: String, _ definitions: [StepDefinition]) {
            self.title = title
            self.definitions = definitions
        }
    }

    /// The sections, in the catalogue's order.
    public let sections: [Section]
    /// Every definition, in lookup order.
    public let definitions: [StepDefinition]

    /// Creates a library from its sections.
    public init(sections: [Section]) {
        self.sections = sections
        definitions = sections.flatMap(\.definitions)
    }

    /// Creates a library of one untitled section.
    public init(_ definitions: [StepDefinition]) {
        self.init(sections: [Section("Steps", definitions)])
    }

    /// Every step the harness defines, in the sections the step catalogue shows: declared here, not
    /// derived from the files that define them.
    public static let standard = StepLibrary(sections: [
        Section("Accounts, saved passwords and provider behaviour", fixtureSteps),
        Section("Signing in, time and the app's session", signInSteps),
        Section("Registration requests and the server's passkeys", registrationSteps),
        Section("Signal scenarios: passkeys, passkey sign-ins, faults and profile changes", signalFixtureSteps),
        Section("Signal checks", signalAssertionSteps),
        Section("Signal paths: faults until the check, failed creations, outcomes judged by the server", signalPathSteps),
        Section("Observation: settling, proving the path, comparing without the trigger", observationSteps),
        Section("Automatic upgrade: failure classes, other sign-ins, relaunches, the request's account", upgradeSteps),
        Section("Path proofs: the trigger happened, the failure had its reason", pathProofSteps),
        Section("Seed paths: answers lost after the server committed, another RP ID, malformed responses", seedPathSteps),
    ])

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
