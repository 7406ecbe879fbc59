#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One recorded interaction between harness, relying party and platform, at a virtual time.
public struct TranscriptEntry: Sendable, Codable, Hashable {
    /// Who spoke to whom.
    public enum Channel: String, Sendable, Codable, Hashable {
        /// The harness drove the relying party (fixture, user action, inspection, fault, delivery).
        case harnessToRP = "harness→rp"
        /// The relying party called the platform, the clock, the screen or telemetry.
        case rpToPlatform = "rp→platform"
        /// The simulated platform or provider decided something.
        case platform
        /// A remark of the step that ran (assertion, expectation).
        case step
    }
    /// Position in the transcript, from 1.
    public var sequence: Int
    /// Virtual milliseconds since the test case started.
    public var atMillis: Int64
    public var channel: Channel
    /// The call or event, e.g. `user.password-sign-in`, `platform.createCredential`.
    public var name: String
    /// One line for humans.
    public var summary: String
    /// The exact message, when there is one.
    public var payload: JSONValue?

    public init(sequence: Int, atMillis: Int64, channel: Channel, name: String, summary: String, payload: JSONValue? = nil) {
        self.sequence = sequence
        self.atMillis = atMillis
        self.channel = channel
        self.name = name
        self.summary = summary
        self.payload = payload
    }
}

/// How one step of a test case ended.
public struct StepResult: Sendable, Codable, Hashable {
    public enum Status: String, Sendable, Codable, Hashable {
        case passed, failed, error, notVerified, undefined, skipped
    }
    /// The Gherkin keyword as written (`Given `, `When `, …).
    public var keyword: String
    public var text: String
    /// The line of the step in its criterion file.
    public var line: Int
    public var status: Status
    public var message: String?

    public init(keyword: String, text: String, line: Int, status: Status, message: String? = nil) {
        self.keyword = keyword
        self.text = text
        self.line = line
        self.status = status
        self.message = message
    }
}

/// One scenario (one example row of an outline) run on one target.
public struct TestCaseResult: Sendable, Codable, Hashable {
    /// Stable, unique id: `<criterion>/<scenario slug>[/<row>]@<target>`.
    public var id: String
    public var criterionID: String
    /// The scenario's name (outline rows: the name with the row's values).
    public var scenario: String
    /// The criterion file and the line of the scenario (or of the example row).
    public var file: String
    public var line: Int
    /// The verify items the scenario covers (`N2.6-AC01.V1`, …).
    public var verifyItems: [String]
    public var tags: [String]
    public var target: String
    public var verdict: Verdict
    /// Why the verdict is not `passed`.
    public var message: String?
    public var steps: [StepResult]
    /// The transcript excerpt that proves a failure or shows an error; empty for passes.
    public var evidence: [TranscriptEntry]
    /// The virtual time the test case covered.
    public var virtualMillis: Int64
    /// Wall time in seconds (excluded from reproducibility comparisons).
    public var wallSeconds: Double

    public init(id: String, criterionID: String, scenario: String, file: String, line: Int, verifyItems: [String], tags: [String],
                target: String, verdict: Verdict, message: String?, steps: [StepResult], evidence: [TranscriptEntry],
                virtualMillis: Int64, wallSeconds: Double) {
        self.id = id
        self.criterionID = criterionID
        self.scenario = scenario
        self.file = file
        self.line = line
        self.verifyItems = verifyItems
        self.tags = tags
        self.target = target
        self.verdict = verdict
        self.message = message
        self.steps = steps
        self.evidence = evidence
        self.virtualMillis = virtualMillis
        self.wallSeconds = wallSeconds
    }
}

/// What an auditor needs to know about a criterion, independent of any run.
public struct CriterionInfo: Sendable, Codable, Hashable {
    public enum Level: String, Sendable, Codable, Hashable { case core, quality }
    /// `N2.6-AC01`, or `N2.6-X01` for a derived criterion.
    public var id: String
    /// The feature's name.
    public var title: String
    public var level: Level
    /// `N2.6`, `N3.2`.
    public var group: String
    /// Derived by the harness from the source's text rather than numbered by it.
    public var derived: Bool
    /// The criterion in the project's own words.
    public var statement: String
    /// How the harness verifies it.
    public var verification: String
    /// Verify items with their text, in order.
    public var verifyItems: [VerifyItem]
    /// The source document and criterion it comes from.
    public var source: String
    public var references: [String]
    /// The criterion file, relative to the criteria root.
    public var file: String

    public struct VerifyItem: Sendable, Codable, Hashable {
        public var id: String
        public var text: String
        public init(id: String, text: String) {
            self.id = id
            self.text = text
        }
    }

    public init(id: String, title: String, level: Level, group: String, derived: Bool, statement: String, verification: String,
                verifyItems: [VerifyItem], source: String, references: [String], file: String) {
        self.id = id
        self.title = title
        self.level = level
        self.group = group
        self.derived = derived
        self.statement = statement
        self.verification = verification
        self.verifyItems = verifyItems
        self.source = source
        self.references = references
        self.file = file
    }
}

/// A criterion's verdict over all its test cases, overall and per target.
public struct CriterionResult: Sendable, Codable, Hashable {
    public var criterion: CriterionInfo
    /// Passed only when every test case passed on every target it applies to.
    public var verdict: Verdict
    /// The folded verdict per target id.
    public var targets: [String: Verdict]

    public init(criterion: CriterionInfo, verdict: Verdict, targets: [String: Verdict]) {
        self.criterion = criterion
        self.verdict = verdict
        self.targets = targets
    }
}

/// What is needed to reproduce a run.
public struct RunMetadata: Sendable, Codable, Hashable {
    public var harnessVersion: String
    /// SHA-256 over the criterion files (paths and bytes, in path order), hex.
    public var criteriaDigest: String
    public var adapter: AdapterInfo
    public var targets: [String]
    public var seed: UInt64
    /// ISO 8601.
    public var startedAt: String
    /// The filters the run was given (tag expression, criteria, targets), as given.
    public var filters: [String: String]

    public struct AdapterInfo: Sendable, Codable, Hashable {
        public var name: String
        public var version: String
        /// `in-process` or `json-rpc`.
        public var transport: String
        /// The command line of an out-of-process adapter.
        public var command: String?
        public init(name: String, version: String, transport: String, command: String? = nil) {
            self.name = name
            self.version = version
            self.transport = transport
            self.command = command
        }
    }

    public init(harnessVersion: String, criteriaDigest: String, adapter: AdapterInfo, targets: [String], seed: UInt64,
                startedAt: String, filters: [String: String]) {
        self.harnessVersion = harnessVersion
        self.criteriaDigest = criteriaDigest
        self.adapter = adapter
        self.targets = targets
        self.seed = seed
        self.startedAt = startedAt
        self.filters = filters
    }
}

/// Everything one run produced: the single result model every reporter reads.
public struct RunResult: Sendable, Codable, Hashable {
    public var metadata: RunMetadata
    public var criteria: [CriterionResult]
    public var testCases: [TestCaseResult]
    /// The run's overall verdict (fold of the criteria).
    public var verdict: Verdict
    public var wallSeconds: Double
    public var virtualMillis: Int64

    public init(metadata: RunMetadata, criteria: [CriterionResult], testCases: [TestCaseResult], verdict: Verdict,
                wallSeconds: Double, virtualMillis: Int64) {
        self.metadata = metadata
        self.criteria = criteria
        self.testCases = testCases
        self.verdict = verdict
        self.wallSeconds = wallSeconds
        self.virtualMillis = virtualMillis
    }

    /// Counts of test cases per verdict.
    public var counts: [Verdict: Int] {
        testCases.reduce(into: [:]) { $0[$1.verdict, default: 0] += 1 }
    }
}
