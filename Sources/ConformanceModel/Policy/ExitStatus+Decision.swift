extension ExitStatus {
    /// A run's exit status with every reason behind it: the one place where the status is decided
    /// (`ExitStatus.for(_:_:)` returns `status`), so that what a report says about the status can
    /// never disagree with it.
    ///
    /// The reasons come in the order of the table on `ExitStatus`: an interruption (then nothing
    /// else is judged: the report is partial); a run fault, or test cases that ended `error` or
    /// `undefined` (exit 2); waiver problems, unexpected failures (exit 1); and, only when none of
    /// those applies, the gaps (exit 3). Every reason that applies is listed, not only the one that
    /// decides: a run that erred and has an expired waiver names both, so that fixing one does not
    /// hide the other.
    public struct Decision: Sendable, Hashable {
        /// The exit status.
        public var status: ExitStatus
        /// Every reason that makes the status other than `conformant`, most severe first; empty for
        /// a conformant run (and only for one).
        public var reasons: [Reason]

        /// The decision for `run` with `waivers` applied.
        public init(_ run: RunResult, waivers: WaiverEvaluation = .none) {
            if let signal = run.metadata.interruption {
                let status: ExitStatus =
                    switch signal {
                    case .sigint: .interrupted
                    case .sigterm: .terminated
                    case .sighup: .hangup
                    }
                self.status = status
                reasons = [
                    Reason(
                        kind: .interrupted, status: status,
                        summary: "\(status.name) by \(signal.rawValue): the report is partial (\(run.testCases.count) test cases ran)")
                ]
                return
            }
            var reasons = Self.harnessReasons(run)
            reasons += Self.failureReasons(run, waivers: waivers)
            if let worst = reasons.first {
                status = worst.status
                self.reasons = reasons
                return
            }
            // An exploration (`explore`) judges invariants over random histories, not verify items: one
            // that broke none has nothing to be incomplete about. A shard runs part of the plan: whether
            // every verify item was verified is decided when the shards' reports are merged.
            let gaps = run.metadata.filters["explore"] != nil || run.metadata.shard != nil ? [] : Gap.gating(in: run, waivers: waivers)
            if gaps.isEmpty || ExitStatus.gapsAccepted(gaps, in: run) {
                status = .conformant
                self.reasons = []
                return
            }
            let items = gaps.compactMap(\.verifyItem)
            let listed =
                items.isEmpty ? "" : ": unverified " + items.prefix(10).joined(separator: ", ") + (items.count > 10 ? ", … \(items.count - 10) more" : "")
            status = .incomplete
            self.reasons = [
                Reason(kind: .gaps, status: .incomplete, summary: "\(gaps.count) gap(s)\(listed)", items: gaps.map { "\($0.kind.rawValue): \($0.detail)" })
            ]
        }

        /// The reasons for exit 2: the run could not start, or test cases (or verdicts) say `error` or `undefined`.
        static func harnessReasons(_ run: RunResult) -> [Reason] {
            if let fault = run.metadata.fault {
                // Every test case of a run that could not start ends `error` with this fault: one reason.
                let what = fault.kind == .criteria ? "the criteria did not load" : "the adapter failed before the run"
                return [Reason(kind: .runFault, status: .harnessError, summary: "\(what): \(fault.message)")]
            }
            let verdicts: [(Verdict, Reason.Kind, String)] = [
                (.error, .error, "ended error: the harness, the adapter or the transport failed"),
                (.undefined, .undefined, "ended undefined: a step matches no step definition"),
            ]
            var reasons = verdicts.compactMap { verdict, kind, what -> Reason? in
                let ids = run.testCases.filter { $0.verdict == verdict }.map(\.id)
                guard !ids.isEmpty else { return nil }
                return Reason(kind: kind, status: .harnessError, summary: "\(Counting.count(ids.count, "test case")) \(what)", items: ids)
            }
            if reasons.isEmpty {
                let undecided: Set<Verdict> = [.error, .undefined]
                let criteria = run.criteria.filter { undecided.contains($0.verdict) || $0.targets.values.contains(where: undecided.contains) }
                if undecided.contains(run.verdict) || !criteria.isEmpty {
                    reasons.append(
                        Reason(
                            kind: .undecidedVerdict, status: .harnessError,
                            summary: "the run or a criterion ended error or undefined without a test case that did",
                            items: criteria.map(\.criterion.id.rawValue)))
                }
            }
            return reasons
        }

        /// The reasons for exit 1: waiver problems, and failures no live waiver accepts in criteria the gate covers.
        static func failureReasons(_ run: RunResult, waivers: WaiverEvaluation) -> [Reason] {
            var reasons: [Reason] = []
            let problems = waivers.problems
            if !problems.isEmpty {
                let named = problems.prefix(5).map { "\($0.waiver.id) \($0.kind.rawValue)" }.joined(separator: ", ")
                reasons.append(
                    Reason(
                        kind: .waiverProblems, status: .nonConformant,
                        summary: "\(problems.count) waiver problem(s): \(named)\(problems.count > 5 ? ", … \(problems.count - 5) more" : "")",
                        items: problems.map(\.description)))
            }
            // Below the gate (`run --gate`), a failure is a warning: it does not decide the status.
            let unexpected = run.testCases.filter {
                $0.verdict == .failed && waivers.waiver(forTestCase: $0.id) == nil && run.gateCovers(criterion: $0.criterionID)
            }
            if !unexpected.isEmpty {
                reasons.append(
                    Reason(
                        kind: .failed, status: .nonConformant,
                        summary: "\(Counting.count(unexpected.count, "failed test case")) that no live waiver accepts",
                        items: unexpected.map(\.id)))
            }
            // A criterion (or the run) that says `failed` without a failed test case behind it is not
            // covered by any waiver: the failure is unexpected.
            let failedTestCases = run.testCases.filter { $0.verdict == .failed }
            let criteria = run.criteria.filter { criterion in
                criterion.verdict == .failed && run.gateCovers(criterion: criterion.criterion.id)
                    && !failedTestCases.contains { $0.criterionID == criterion.criterion.id }
            }
            if !criteria.isEmpty || (run.verdict == .failed && failedTestCases.isEmpty) {
                reasons.append(
                    Reason(
                        kind: .failedWithoutTestCase, status: .nonConformant, summary: "the run or a criterion failed without a failed test case",
                        items: criteria.map(\.criterion.id.rawValue)))
            }
            return reasons
        }
    }

    /// One reason why a run's exit status is not `conformant`.
    public struct Reason: Sendable, Hashable {
        /// What kind of reason it is.
        public enum Kind: String, Sendable, Hashable, CaseIterable {
            /// A signal stopped the run (exit 129, 130 or 143).
            case interrupted
            /// The run could not start: the adapter failed at launch or in `adapter.hello`, or the criteria did not load (exit 2).
            case runFault
            /// Test cases ended `error`: the harness, the adapter or the transport failed (exit 2).
            case error
            /// Test cases ended `undefined`: a step matches no step definition (exit 2).
            case undefined
            /// The run or a criterion ended `error` or `undefined` without a test case that did (exit 2).
            case undecidedVerdict
            /// Expired or stale waivers (exit 1).
            case waiverProblems
            /// Failed test cases that no live waiver accepts, of criteria the gate covers (exit 1).
            case failed
            /// The run or a criterion failed without a failed test case behind it (exit 1).
            case failedWithoutTestCase
            /// Nothing failed, but the run showed too little (exit 3).
            case gaps
        }

        /// What kind of reason it is.
        public var kind: Kind
        /// The exit status this reason leads to by itself.
        public var status: ExitStatus
        /// One sentence for a reader (`2 waiver problem(s): N2.6-AC04@apple-17.4 expired, …`).
        public var summary: String
        /// What it concerns, one line each: test case ids, waiver problems, gaps; empty when the
        /// summary says it all.
        public var items: [String]

        /// A reason of `kind` leading to `status`, described by `summary` and `items`.
        public init(kind: Kind, status: ExitStatus, summary: String, items: [String] = []) {
            self.kind = kind
            self.status = status
            self.summary = summary
            self.items = items
        }
    }
}
