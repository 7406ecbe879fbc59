/// A safety monitor's finding in one test case: a "never" or "only" demand of a criterion broken
/// while the test case ran, whatever criterion its scenario was written for.
///
/// The test case that saw it keeps the finding and its transcript; the run folds every finding into
/// a test case of the monitor's own criterion (see `RunResult.monitorCases(_:criteria:)`), so that
/// the verify item the finding breaks fails where it belongs and the report names where it was seen.
public struct MonitorViolation: Sendable, Codable, Hashable {
    /// The monitor's stable name, e.g. `signals-only-while-signed-in`.
    public var monitor: String
    /// The verify item the finding breaks, e.g. `N3.2-AC03.V5`.
    public var item: VerifyItemID
    /// The transcript entry (its `sequence`) of the platform call the finding is about.
    public var sequence: Int
    /// What was seen, in one sentence that cites the call.
    public var message: String

    /// Creates a finding.
    public init(monitor: String, item: VerifyItemID, sequence: Int, message: String) {
        self.monitor = monitor
        self.item = item
        self.sequence = sequence
        self.message = message
    }

    /// The criterion the finding fails.
    public var criterion: CriterionID { item.criterion }
}

extension TestCaseResult {
    /// The id prefix of a monitor's test case within its criterion: `N3.2-AC04/monitor:<name>@<target>`.
    static let monitorMarker = "/monitor:"
    /// The tag every monitor test case carries, and only those.
    public static let monitorTag = "@monitor"

    /// Whether this is a monitor's test case, derived from the findings of the run's other test
    /// cases (never run on its own, never read back: `RunResult.folding` derives it again).
    public var isMonitorCase: Bool { tags == [Self.monitorTag] && id.contains(Self.monitorMarker) }
}

extension RunResult {
    /// One failed test case per monitor, criterion and target with findings, in the order of the
    /// criteria, then the monitor's name, then the target: the findings of `results` (in run order)
    /// as its step's message, each naming the test case and the transcript entry where it was seen,
    /// and the offending calls as its evidence (each entry's summary prefixed with its test case).
    ///
    /// A finding whose criterion is not among `criteria` (a run filtered to other criteria) has no
    /// place to fail and is left to the test case that keeps it.
    public static func monitorCases(_ results: [TestCaseResult], criteria: [CriterionInfo]) -> [TestCaseResult] {
        struct Key: Hashable {
            var criterion: CriterionID
            var monitor: String
            var target: String
        }
        var found: [Key: [(testCase: TestCaseResult, violation: MonitorViolation)]] = [:]
        for result in results where !result.isMonitorCase {
            for violation in result.violations {
                found[Key(criterion: violation.criterion, monitor: violation.monitor, target: result.target), default: []].append((result, violation))
            }
        }
        var cases: [TestCaseResult] = []
        for info in criteria {
            let keys = found.keys.filter { $0.criterion == info.id }.sorted { ($0.monitor, $0.target) < ($1.monitor, $1.target) }
            for key in keys {
                let seen = found[key] ?? []
                let items = Array(Set(seen.map(\.violation.item))).sorted { $0.rawValue < $1.rawValue }
                let places = Set(seen.map(\.testCase.id)).count
                let first = seen[0]
                let lines = seen.prefix(50).map { "\($0.testCase.id), transcript #\($0.violation.sequence): \($0.violation.message)" }
                let more = seen.count > 50 ? ["… and \(seen.count - 50) more"] : []
                let message =
                    "the monitor \(key.monitor) found \(seen.count) breach\(seen.count == 1 ? "" : "es") in \(places) test case\(places == 1 ? "" : "s") of this run; first in "
                    + "\(first.testCase.id) at transcript #\(first.violation.sequence): \(first.violation.message)"
                let step = StepResult(
                    keyword: "Then ", text: "no test case of the run breaks the monitor \(key.monitor)", line: 0, status: .failed,
                    message: Caps.text((lines + more).joined(separator: "\n")))
                // The offending calls as evidence, each from the transcript of the test case that saw it.
                let evidence = seen.prefix(50).compactMap { found -> TranscriptEntry? in
                    guard var entry = found.testCase.evidence.first(where: { $0.sequence == found.violation.sequence }) else { return nil }
                    entry.summary = "[\(found.testCase.id)] \(entry.summary)"
                    return entry
                }
                cases.append(
                    TestCaseResult(
                        id: "\(info.id)\(TestCaseResult.monitorMarker)\(key.monitor)@\(key.target)", criterionID: info.id,
                        scenario: "Safety monitor \(key.monitor), over every test case of the run", file: info.file, line: 0, verifyItems: items,
                        tags: [TestCaseResult.monitorTag], target: key.target, outcome: TestCaseOutcome(verdict: .failed, message: Caps.text(message)),
                        steps: [step], evidence: Caps.evidence(evidence), virtualMillis: 0, wallSeconds: 0))
            }
        }
        return cases
    }
}
