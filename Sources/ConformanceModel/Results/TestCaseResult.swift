/// One scenario (one example row of an outline) run on one target.
public struct TestCaseResult: Sendable, Hashable {
    /// Stable, unique id: `<criterion>/<scenario slug>[/<row>]@<target>`.
    public var id: String
    /// The id of the criterion the scenario tests (`N2.6-AC01`).
    public var criterionID: CriterionID
    /// The scenario's name (outline rows: the name with the row's values).
    public var scenario: String
    /// The criterion file and the line of the scenario (or of the example row).
    public var file: String
    /// The 1-based line of the scenario, or of its example row.
    public var line: Int
    /// The verify items the scenario covers (`N2.6-AC01.V1`, …).
    public var verifyItems: [VerifyItemID]
    /// The scenario's tags, inherited ones included (with `@`).
    public var tags: [String]
    /// The id of the target the case ran on.
    public var target: String
    /// How the test case ended, with the message, fault or reason that ending carries.
    public var outcome: TestCaseOutcome
    /// Every step of the scenario with how it ended, in order.
    public var steps: [StepResult]
    /// The transcript excerpt that proves a failure or shows an error; empty for passes unless the
    /// run keeps every transcript (`run --evidence all`).
    public var evidence: [TranscriptEntry]
    /// What the test case's checks read, compactly, one line per observation (see
    /// `Observation.lines(_:trigger:)`): kept for every test case that ran its steps, passes included.
    public var observed: [String] = []
    /// What the safety monitors found while the test case ran (see `MonitorViolation`): breaches
    /// of any criterion's "never" or "only" demands, in the order they were seen. Written only when
    /// there is one.
    public var violations: [MonitorViolation] = []
    /// The virtual time the test case covered.
    public var virtualMillis: Int64
    /// Wall time in seconds (excluded from reproducibility comparisons).
    public var wallSeconds: Double

    /// The verdict of the outcome.
    public var verdict: Verdict { outcome.verdict }
    /// Why the verdict is not `passed`.
    public var message: String? { outcome.message }
    /// The fault behind an `error` verdict, typed (kind, method, excerpt), when there is one.
    public var fault: RunFault? { outcome.fault }
    /// Why the test case is `notVerified`, typed, when it is.
    public var notVerifiedReason: NotVerifiedReason? { outcome.notVerifiedReason }

    /// Creates the result of one test case from all its parts.
    public init(
        id: String, criterionID: CriterionID, scenario: String, file: String, line: Int, verifyItems: [VerifyItemID], tags: [String],
        target: String, outcome: TestCaseOutcome, steps: [StepResult], evidence: [TranscriptEntry],
        virtualMillis: Int64, wallSeconds: Double, observed: [String] = [], violations: [MonitorViolation] = []
    ) {
        self.violations = violations
        self.id = id
        self.criterionID = criterionID
        self.scenario = scenario
        self.file = file
        self.line = line
        self.verifyItems = verifyItems
        self.tags = tags
        self.target = target
        self.outcome = outcome
        self.steps = steps
        self.evidence = evidence
        self.observed = observed
        self.virtualMillis = virtualMillis
        self.wallSeconds = wallSeconds
    }
}

extension TestCaseResult: Codable {
    /// The members as they are written: the outcome side by side as `verdict`, `message`, `fault`
    /// and `notVerifiedReason`, each optional one left out when absent.
    enum CodingKeys: String, CodingKey {
        case id, criterionID, scenario, file, line, verifyItems, tags, target, verdict, message, steps, evidence, observed
        case virtualMillis, wallSeconds, fault, notVerifiedReason, violations
    }

    /// Reads a result written with its outcome's members side by side.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id), criterionID: try container.decode(CriterionID.self, forKey: .criterionID),
            scenario: try container.decode(String.self, forKey: .scenario), file: try container.decode(String.self, forKey: .file),
            line: try container.decode(Int.self, forKey: .line), verifyItems: try container.decode([VerifyItemID].self, forKey: .verifyItems),
            tags: try container.decode([String].self, forKey: .tags), target: try container.decode(String.self, forKey: .target),
            outcome: TestCaseOutcome(
                verdict: try container.decode(Verdict.self, forKey: .verdict), message: try container.decodeIfPresent(String.self, forKey: .message),
                fault: try container.decodeIfPresent(RunFault.self, forKey: .fault),
                notVerifiedReason: try container.decodeIfPresent(NotVerifiedReason.self, forKey: .notVerifiedReason)),
            steps: try container.decode([StepResult].self, forKey: .steps), evidence: try container.decode([TranscriptEntry].self, forKey: .evidence),
            virtualMillis: try container.decode(Int64.self, forKey: .virtualMillis), wallSeconds: try container.decode(Double.self, forKey: .wallSeconds),
            observed: try container.decode([String].self, forKey: .observed),
            violations: try container.decodeIfPresent([MonitorViolation].self, forKey: .violations) ?? [])
    }

    /// Writes the result with its outcome's members side by side, in the order they have always had.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(criterionID, forKey: .criterionID)
        try container.encode(scenario, forKey: .scenario)
        try container.encode(file, forKey: .file)
        try container.encode(line, forKey: .line)
        try container.encode(verifyItems, forKey: .verifyItems)
        try container.encode(tags, forKey: .tags)
        try container.encode(target, forKey: .target)
        try container.encode(verdict, forKey: .verdict)
        try container.encodeIfPresent(message, forKey: .message)
        try container.encode(steps, forKey: .steps)
        try container.encode(evidence, forKey: .evidence)
        try container.encode(observed, forKey: .observed)
        try container.encode(virtualMillis, forKey: .virtualMillis)
        try container.encode(wallSeconds, forKey: .wallSeconds)
        try container.encodeIfPresent(fault, forKey: .fault)
        try container.encodeIfPresent(notVerifiedReason, forKey: .notVerifiedReason)
        if !violations.isEmpty { try container.encode(violations, forKey: .violations) }
    }
}

/// Why a test case could not be verified: a kind for machines and a detail for people.
public struct NotVerifiedReason: Sendable, Codable, Hashable {
    /// The kinds of reason.
    public enum Kind: String, Sendable, Codable, Hashable, CaseIterable {
        /// The adapter does not declare the test case's target.
        case undeclaredTarget
        /// The adapter does not declare a capability the scenario needs (`detail` lists them).
        case missingCapability
        /// A step found that what it checks cannot be shown on this target or with this adapter.
        case step
        /// The adapter implements an older minor of the adapter protocol than the test case needs
        /// (`detail` names the feature, e.g. `DeviceInfo.osFamily`).
        case protocolVersion
        /// The target's platform is not available on this machine (`detail` says why, e.g. no
        /// Chromium for a web target).
        case platformUnavailable
    }
    /// The kind of reason.
    public var kind: Kind
    /// The target id, the missing capabilities (comma-separated) or the step's sentence.
    public var detail: String
    /// Creates a reason.
    public init(kind: Kind, detail: String) {
        self.kind = kind
        self.detail = detail
    }
}
