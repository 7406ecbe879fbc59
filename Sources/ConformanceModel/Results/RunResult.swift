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
    /// Who spoke to whom.
    public var channel: Channel
    /// The call or event, e.g. `user.password-sign-in`, `platform.createCredential`.
    public var name: String
    /// One line for humans.
    public var summary: String
    /// The exact message, when there is one.
    public var payload: JSONValue?

    /// Creates a transcript entry; `payload` is optional.
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
    /// How a step ended; unlike a verdict, a step can also be skipped.
    public enum Status: String, Sendable, Codable, Hashable {
        /// `passed`, `failed`, `error`, `notVerified` and `undefined` mean what the verdicts of the same name
        /// mean; `skipped`: not run because the test case ended before this step.
        case passed, failed, error, notVerified, undefined, skipped
    }
    /// The Gherkin keyword as written (`Given `, `When `, …).
    public var keyword: String
    /// The step text after the keyword.
    public var text: String
    /// The line of the step in its criterion file.
    public var line: Int
    /// How the step ended.
    public var status: Status
    /// Why the step did not pass, when it failed, erred or could not be verified.
    public var message: String?

    /// Creates a step result.
    public init(keyword: String, text: String, line: Int, status: Status, message: String? = nil) {
        self.keyword = keyword
        self.text = text
        self.line = line
        self.status = status
        self.message = message
    }
}

/// What an auditor needs to know about a criterion, independent of any run.
public struct CriterionInfo: Sendable, Codable, Hashable {
    /// The level the source document assigns a criterion: `core` or `quality`.
    public enum Level: String, Sendable, Codable, Hashable { case core, quality }
    /// Where a criterion comes from, which decides whether the default gate covers it.
    public enum Origin: String, Sendable, Codable, Hashable, CaseIterable, Comparable {
        /// One of the criteria documents' own numbered criteria.
        case source
        /// A requirement the harness derives from the documents' text (`@derived`), e.g. N2.6-X01 from the N2.6 warning.
        case derived
        /// A recommendation from another standard (`@recommendation`), e.g. N2.6-X02 from WebAuthn.
        case recommendation

        /// Source first, recommendation last: a gate at one origin covers it and every earlier one.
        public static func < (lhs: Origin, rhs: Origin) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }
    /// `N2.6-AC01`, or `N2.6-X01` for a derived criterion.
    public var id: CriterionID
    /// The feature's name.
    public var title: String
    /// The criterion's level in its source document (`@level:` tag).
    public var level: Level
    /// `N2.6`, `N3.2`.
    public var group: String
    /// Where the criterion comes from: the source, derived from it, or a recommendation of another standard.
    public var origin: Origin
    /// Not numbered by the source documents: derived from their text or recommended by another
    /// standard (every origin but `source`); read from `origin`, never stored beside it.
    public var derived: Bool { origin != .source }
    /// The criterion in the project's own words.
    public var statement: String
    /// How the harness verifies it.
    public var verification: String
    /// Verify items with their text, in order.
    public var verifyItems: [VerifyItem]
    /// The source document and criterion it comes from.
    public var source: String
    /// Further documents the criterion cites, one per line of its `References:` section.
    public var references: [String]
    /// The criterion file, relative to the criteria root.
    public var file: String

    /// One thing the criterion's scenarios verify, from its `Items:` section.
    public struct VerifyItem: Sendable, Codable, Hashable {
        /// The item's full id, the criterion id and the local id (`N2.6-AC01.V1`).
        public var id: VerifyItemID
        /// What the item verifies.
        public var text: String
        /// Creates a verify item.
        public init(id: VerifyItemID, text: String) {
            self.id = id
            self.text = text
        }
    }

    /// Creates the description of a criterion from all its parts.
    public init(
        id: CriterionID, title: String, level: Level, group: String, origin: Origin, statement: String, verification: String,
        verifyItems: [VerifyItem], source: String, references: [String], file: String
    ) {
        self.id = id
        self.title = title
        self.level = level
        self.group = group
        self.origin = origin
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
    /// The criterion the verdicts are about.
    public var criterion: CriterionInfo
    /// Passed only when every test case passed on every target it applies to.
    public var verdict: Verdict
    /// The folded verdict per target id.
    public var targets: [String: Verdict]

    /// Creates a criterion's result with its overall and per-target verdicts.
    public init(criterion: CriterionInfo, verdict: Verdict, targets: [String: Verdict]) {
        self.criterion = criterion
        self.verdict = verdict
        self.targets = targets
    }
}

/// What is needed to reproduce a run.
public struct RunMetadata: Sendable, Codable, Hashable {
    /// The version of the harness that ran.
    public var harnessVersion: String
    /// SHA-256 over the criterion files (paths and bytes, in path order), hex.
    public var criteriaDigest: String
    /// The relying party and how it was reached.
    public var adapter: AdapterInfo
    /// The ids of the targets the run covered.
    public var targets: [String]
    /// The run's seed; each test case's seed derives from it and the case id.
    public var seed: UInt64
    /// ISO 8601.
    public var startedAt: String
    /// The filters the run was given (tag expression, criteria, targets), as given.
    public var filters: [String: String]
    /// Whether the user allowed criteria that no test case verified (`--allow-not-verified`):
    /// an incomplete run then exits 0 instead of with the *incomplete* status. Recorded so that a
    /// report never hides that its gate was relaxed.
    public var allowNotVerified: Bool
    /// The signal that stopped the run before it ended, when one did; the report is then partial.
    public var interruption: Interruption?
    /// A fault that kept the whole run from starting (the adapter failed at launch or during
    /// `adapter.hello`); every planned test case then ends `error` with this fault.
    public var fault: RunFault?
    /// The criteria root the user gave (`--criteria`), as given; `nil` for the default (the
    /// working directory's `Criteria`, or the criteria shipped with the harness). Re-run commands
    /// repeat it.
    public var criteriaRoot: String?
    /// Whether the run used the criteria shipped inside the harness; `nil` when not recorded (a run
    /// assembled in code). Every report says so first when it did not.
    public var criteriaSource: CriteriaSource?
    /// The git commit the harness binary was built from (`unknown` when it was built outside a git
    /// checkout); `nil` when not recorded (`--no-build-info`, or a run assembled in code).
    public var harnessCommit: String?
    /// Whether the harness's sources differed from `harnessCommit` when it was built; `nil` when
    /// that is unknown or not recorded.
    public var harnessModified: Bool?
    /// The SHA-256 of the running harness executable, 64 lowercase hex digits; `nil` when not recorded.
    public var harnessBinarySHA256: String?
    /// The host the run ran on (kernel, release, machine, distribution); `nil` when not recorded.
    public var host: String?
    /// The part of the plan this run covered (`run --shard I/N`); `nil` for a whole run.
    public var shard: Shard?

    /// Where a run's criteria came from, compared by digest with the suite shipped in the harness.
    public enum CriteriaSource: Sendable, Codable, Hashable {
        /// The criteria are the bundled, versioned suite (same digest).
        case bundled
        /// Other criteria; `bundledDigest` is the bundled suite's digest, `nil` when the harness's
        /// resource bundle is missing.
        case other(bundledDigest: String?)

        /// The source of criteria with `digest`, given the bundled suite's digest.
        public init(digest: String, bundledDigest: String?) {
            self = digest == bundledDigest ? .bundled : .other(bundledDigest: bundledDigest)
        }
    }
    /// Which criteria fail the gate (`run --gate`); `nil` means `all`, as before the option existed.
    public var gate: Gate?
    /// Whether passes keep their whole transcript as evidence (`run --evidence all`); `nil` or
    /// `false`: only test cases that did not pass do.
    public var transcriptsForPasses: Bool?
    /// The harness executable re-run commands name: an installed binary's path
    /// (`/opt/passkey-conformance/passkey-conformance`); `nil` for `swift run passkey-conformance`,
    /// the harness run from a checkout's build directory.
    public var harnessCommand: String?
    /// Which variant of the embedded reference RP ran, as the command line chose it (`--design`,
    /// `--mutant`); `nil` for the reference itself and for an adapter (`adapter.command`). Re-run
    /// lines are written from it, never from the adapter's display name.
    public var subject: Subject?

    /// A variant of the embedded reference RP: the design it is built on and the mutant that breaks it.
    public struct Subject: Sendable, Codable, Hashable {
        /// `--design`: a fixed design's id or a `knobs:` specification.
        public var design: String?
        /// `--mutant`: the mutant's id.
        public var mutant: String?

        /// A variant built on `design` and broken by `mutant`, either of which may be absent.
        public init(design: String? = nil, mutant: String? = nil) {
            self.design = design
            self.mutant = mutant
        }

        private enum CodingKeys: String, CodingKey { case design, mutant }

        /// Encodes both members, an absent one as `null` (the report's convention).
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(design, forKey: .design)
            try container.encode(mutant, forKey: .mutant)
        }
    }

    /// The signal that interrupted a run.
    public enum Interruption: String, Sendable, Codable, Hashable, CaseIterable {
        /// `SIGINT` (Ctrl-C): exit status 130.
        case sigint = "SIGINT"
        /// `SIGTERM` (a CI job cancelled): exit status 143.
        case sigterm = "SIGTERM"
        /// `SIGHUP` (the terminal or the CI runner's session went away): exit status 129.
        case sighup = "SIGHUP"
    }

    /// The adapter as the run knew it.
    public struct AdapterInfo: Sendable, Codable, Hashable {
        /// The relying party's name, as the adapter described it.
        public var name: String
        /// The relying party's version, as the adapter described it.
        public var version: String
        /// `in-process` or `json-rpc`.
        public var transport: String
        /// The command line of an out-of-process adapter the harness started.
        public var command: String?
        /// The socket address of an adapter the harness connected to (`unix:PATH`, `tcp:HOST:PORT`).
        public var connect: String?
        /// The target ids the adapter declared, as declared; `nil` when it did not describe itself.
        public var declaredTargets: [String]?
        /// The capabilities the adapter declared, as declared; `nil` when it did not describe itself.
        public var capabilities: [String]?
        /// The declared target ids that the harness does not know (ignored for the run, warned about).
        public var unknownTargets: [String]
        /// The adapter protocol version the adapter implements; `nil` when it did not describe itself.
        public var protocolVersion: String?
        /// The declared capabilities that the harness does not know (ignored, as the protocol says).
        public var ignoredCapabilities: [String]
        /// What the adapter declared about the relying party's model (e.g. `passkey-second-factor`),
        /// as the harness understood it; empty when it declared nothing.
        public var declarations: [String]
        /// Creates the adapter's description for the metadata.
        public init(
            name: String, version: String, transport: String, command: String? = nil, declaredTargets: [String]? = nil,
            capabilities: [String]? = nil, unknownTargets: [String] = [], protocolVersion: String? = nil,
            ignoredCapabilities: [String] = [], declarations: [String] = []
        ) {
            self.declarations = declarations
            self.protocolVersion = protocolVersion
            self.ignoredCapabilities = ignoredCapabilities
            self.name = name
            self.version = version
            self.transport = transport
            self.command = command
            self.declaredTargets = declaredTargets
            self.capabilities = capabilities
            self.unknownTargets = unknownTargets
        }
    }

    /// Creates run metadata.
    public init(
        harnessVersion: String, criteriaDigest: String, adapter: AdapterInfo, targets: [String], seed: UInt64,
        startedAt: String, filters: [String: String], allowNotVerified: Bool = false, interruption: Interruption? = nil,
        fault: RunFault? = nil, criteriaRoot: String? = nil
    ) {
        self.criteriaRoot = criteriaRoot
        self.harnessVersion = harnessVersion
        self.criteriaDigest = criteriaDigest
        self.adapter = adapter
        self.targets = targets
        self.seed = seed
        self.startedAt = startedAt
        self.filters = filters
        self.allowNotVerified = allowNotVerified
        self.interruption = interruption
        self.fault = fault
    }
}

/// Everything one run produced: the single result model every reporter reads.
public struct RunResult: Sendable, Codable, Hashable {
    /// What is needed to reproduce the run.
    public var metadata: RunMetadata
    /// One result per criterion in the plan, in plan order.
    public var criteria: [CriterionResult]
    /// Every test case's result, in run order.
    public var testCases: [TestCaseResult]
    /// The run's overall verdict (fold of the criteria).
    public var verdict: Verdict
    /// Wall time of the whole run in seconds (excluded from reproducibility comparisons).
    public var wallSeconds: Double
    /// The virtual time all test cases covered together, in milliseconds.
    public var virtualMillis: Int64

    /// Creates a run result; `assemble(plan:results:metadata:wallSeconds:)` builds one from test case results.
    public init(
        metadata: RunMetadata, criteria: [CriterionResult], testCases: [TestCaseResult], verdict: Verdict,
        wallSeconds: Double, virtualMillis: Int64
    ) {
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

extension CriterionInfo.Origin {
    /// The origin of a criterion described before origins existed, from its `derived` flag.
    public init(derived: Bool) { self = derived ? .derived : .source }
}

extension CriterionInfo {
    /// The members as they are written: `derived` beside `origin`, as before origins existed.
    enum CodingKeys: String, CodingKey {
        case id, title, level, group, derived, origin, statement, verification, verifyItems, source, references, file
    }

    /// Decodes a criterion; one written before origins existed takes its origin from `derived`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let derived = try container.decode(Bool.self, forKey: .derived)
        self.init(
            id: try container.decode(CriterionID.self, forKey: .id), title: try container.decode(String.self, forKey: .title),
            level: try container.decode(Level.self, forKey: .level), group: try container.decode(String.self, forKey: .group),
            origin: try container.decodeIfPresent(Origin.self, forKey: .origin) ?? Origin(derived: derived),
            statement: try container.decode(String.self, forKey: .statement), verification: try container.decode(String.self, forKey: .verification),
            verifyItems: try container.decode([VerifyItem].self, forKey: .verifyItems), source: try container.decode(String.self, forKey: .source),
            references: try container.decode([String].self, forKey: .references), file: try container.decode(String.self, forKey: .file))
    }

    /// Writes the criterion with `derived` (read from `origin`) beside `origin`, in their usual order.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(level, forKey: .level)
        try container.encode(group, forKey: .group)
        try container.encode(derived, forKey: .derived)
        try container.encode(origin, forKey: .origin)
        try container.encode(statement, forKey: .statement)
        try container.encode(verification, forKey: .verification)
        try container.encode(verifyItems, forKey: .verifyItems)
        try container.encode(source, forKey: .source)
        try container.encode(references, forKey: .references)
        try container.encode(file, forKey: .file)
    }
}
