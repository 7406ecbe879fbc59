/// What a waiver file means for one run on one day: which failures it waives and what is wrong
/// with the waivers themselves.
///
/// Every reporter shows it, and `ExitStatus` counts its problems. The rules:
/// - a `failed` test case covered by a *live* waiver (its `expires` day not yet past) is *waived*;
///   a waiver naming the exact target wins over a `*` waiver for the same criterion;
/// - an *expired* waiver waives nothing and is a problem;
/// - a live waiver whose criterion ran on its target(s), passed at least once there and failed
///   nowhere there is *stale* (the failure no longer happens) and is a problem;
/// - a waiver whose criterion did not run on its target(s), or only ended `error`, `undefined` or
///   `notVerified` there, is *not exercised*: shown, but not a problem (a filtered run, or a run
///   that fails for another reason anyway).
public struct WaiverEvaluation: Sendable, Hashable {
    /// What became of one waiver in this run.
    public enum Status: String, Sendable, Hashable, Codable, CaseIterable {
        /// Live, and the failure it accepts happened: it waived at least one test case.
        case active
        /// Its `expires` day has passed; it waived nothing.
        case expired
        /// Live, but its criterion no longer fails on its target(s): remove the waiver.
        case stale
        /// Live, but nothing in this run could show whether the failure still happens.
        case notExercised
    }

    /// One waiver of the file with its status and the test cases it waived.
    public struct Entry: Sendable, Hashable {
        /// The waiver as the file gives it.
        public var waiver: Waiver
        /// What became of it in this run.
        public var status: Status
        /// The ids of the test cases this waiver turned from failed into waived, in run order.
        public var waivedTestCaseIDs: [String]

        /// An entry for `waiver` with its status and the ids of the test cases it waived.
        public init(waiver: Waiver, status: Status, waivedTestCaseIDs: [String]) {
            self.waiver = waiver
            self.status = status
            self.waivedTestCaseIDs = waivedTestCaseIDs
        }
    }

    /// A failed test case that a live waiver covers.
    public struct WaivedResult: Sendable, Hashable {
        /// The id of the failed test case.
        public var testCaseID: String
        /// Its criterion.
        public var criterionID: CriterionID
        /// Its target.
        public var target: String
        /// The waiver that covers it.
        public var waiver: Waiver

        /// A waived result: the failed test case and the waiver covering it.
        public init(testCaseID: String, criterionID: CriterionID, target: String, waiver: Waiver) {
            self.testCaseID = testCaseID
            self.criterionID = criterionID
            self.target = target
            self.waiver = waiver
        }
    }

    /// A waiver that makes the run fail by itself.
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        /// What is wrong with the waiver.
        public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
            /// The waiver's `expires` day has passed.
            case expired
            /// The failure the waiver accepts no longer happens.
            case stale
        }
        /// What is wrong.
        public var kind: Kind
        /// The waiver at fault.
        public var waiver: Waiver
        /// What is wrong and what to do, in a sentence.
        public var message: String

        /// A problem of `kind` with `waiver`, explained by `message`.
        public init(kind: Kind, waiver: Waiver, message: String) {
            self.kind = kind
            self.waiver = waiver
            self.message = message
        }

        /// `N2.6-AC04@apple-17.4: expired on 2026-03-31 …`
        public var description: String { "\(waiver.id): \(message)" }
    }

    /// The waiver file, when the waivers came from one.
    public let source: String?
    /// The day the waivers were evaluated on; `nil` when there were no waivers to evaluate.
    public let evaluatedOn: CalendarDate?
    /// Every waiver of the file, in file order, with its status.
    public let entries: [Entry]
    /// The failed test cases that are waived, in run order.
    public let waived: [WaivedResult]
    /// The waivers that make the run fail: expired first, then stale, each in file order.
    public let problems: [Problem]
    /// The day of the clock when the waivers were judged on another day (`--today`), else `nil`.
    /// Every report says so in its header, with the waivers that day keeps alive although they
    /// have expired by the clock (`revived`).
    public let clockDay: CalendarDate?

    /// The ids of the waivers live on `evaluatedOn` that had expired by `clockDay`, in file order.
    public var revived: [String] {
        guard let clockDay, let day = evaluatedOn, day < clockDay else { return [] }
        return entries.filter { $0.waiver.isLive(on: day) && !$0.waiver.isLive(on: clockDay) }.map(\.waiver.id)
    }

    /// An evaluation from its parts; `WaiverFile.evaluate(against:today:)` is the usual way to make one.
    public init(
        source: String?, evaluatedOn: CalendarDate?, entries: [Entry], waived: [WaivedResult], problems: [Problem], clockDay: CalendarDate? = nil
    ) {
        self.clockDay = clockDay == evaluatedOn ? nil : clockDay
        self.source = source
        self.evaluatedOn = evaluatedOn
        self.entries = entries
        self.waived = waived
        self.problems = problems
        self.waiverByTestCase = Dictionary(waived.map { ($0.testCaseID, $0.waiver) }, uniquingKeysWith: { first, _ in first })
    }

    /// No waivers: every verdict stands as the run reported it.
    public static let none = WaiverEvaluation(source: nil, evaluatedOn: nil, entries: [], waived: [], problems: [])

    /// The live waiver that covers a failed test case, or `nil` when the failure is unexpected.
    public func waiver(forTestCase id: String) -> Waiver? {
        waiverByTestCase[id]
    }

    /// `waived` by test case id (derived in `init`; the stored lists are constants so it cannot go stale).
    private let waiverByTestCase: [String: Waiver]
}

extension WaiverFile {
    /// Applies the waivers to a run as of `today`.
    ///
    /// - Parameters:
    ///   - run: the run whose failed test cases may be waived.
    ///   - today: the day to judge expiry by, given by the caller (for a CI run, the UTC day the run
    ///     ended; in tests, a fixed date). Nothing here reads a clock.
    ///   - clockDay: the day of the clock, when the caller knows it: a `today` that differs from it
    ///     is recorded, with the expired waivers it keeps alive.
    public func evaluate(against run: RunResult, today: CalendarDate, clockDay: CalendarDate? = nil) -> WaiverEvaluation {
        let live = waivers.filter { $0.isLive(on: today) }
        var waived: [WaiverEvaluation.WaivedResult] = []
        var waivedIDs: [String: [String]] = [:]
        for testCase in run.testCases where testCase.verdict == .failed {
            let candidates = live.filter { $0.matches(criterionID: testCase.criterionID, target: testCase.target) }
            // The waiver for the exact target is the more deliberate statement; it wins over `*`.
            guard let waiver = candidates.first(where: { $0.target != .any }) ?? candidates.first else { continue }
            waived.append(WaiverEvaluation.WaivedResult(testCaseID: testCase.id, criterionID: testCase.criterionID, target: testCase.target, waiver: waiver))
            waivedIDs[waiver.id, default: []].append(testCase.id)
        }

        var entries: [WaiverEvaluation.Entry] = []
        var expiredProblems: [WaiverEvaluation.Problem] = []
        var staleProblems: [WaiverEvaluation.Problem] = []
        for waiver in waivers {
            let matching = run.testCases.filter { waiver.matches(criterionID: $0.criterionID, target: $0.target) }
            let failedHere = matching.contains { $0.verdict == .failed }
            let passedHere = matching.contains { $0.verdict == .passed }
            let stale = !failedHere && passedHere
            let scope = waiver.target == .any ? "on any target" : "on \(waiver.target)"
            let status: WaiverEvaluation.Status
            if !waiver.isLive(on: today) {
                status = .expired
                expiredProblems.append(
                    WaiverEvaluation.Problem(
                        kind: .expired, waiver: waiver,
                        message:
                            "expired on \(waiver.expires) (owner \(waiver.owner)); the failures it covered count as failures again. Fix them, or renew the waiver with a new date."
                    ))
            } else if failedHere {
                status = .active
            } else if stale {
                status = .stale
            } else {
                status = .notExercised
            }
            if stale {
                staleProblems.append(
                    WaiverEvaluation.Problem(
                        kind: .stale, waiver: waiver,
                        message:
                            "\(waiver.criterion) no longer fails \(scope) (\(Counting.count(matching.count, "test case")) ran, none failed); remove the waiver (owner \(waiver.owner))."
                    ))
            }
            entries.append(WaiverEvaluation.Entry(waiver: waiver, status: status, waivedTestCaseIDs: waivedIDs[waiver.id] ?? []))
        }
        return WaiverEvaluation(
            source: path, evaluatedOn: today, entries: entries, waived: waived,
            problems: expiredProblems + staleProblems, clockDay: clockDay)
    }
}
