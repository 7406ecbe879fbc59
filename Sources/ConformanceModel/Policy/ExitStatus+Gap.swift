extension ExitStatus {
    /// Why a run that failed nothing is still *incomplete*: a kind, what it concerns and a sentence.
    ///
    /// The gate is per verify item: every verify item a selected test case covers must be shown by
    /// at least one test case that passed. An item whose test cases were all *not verified* names
    /// what each lacked (the capability to declare, the target to support); an item whose every
    /// verified test case failed under a waiver is a gap too, since nothing shows that it holds.
    public struct Gap: Sendable, Hashable, Codable {
        /// The kinds of gap. A consumer treats a kind it does not know as a gap all the same.
        public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
            /// The filters (or an empty criteria directory) selected no test case.
            case noTestCase
            /// The adapter declared no target the harness knows.
            case noKnownTarget
            /// A selected criterion whose test cases name no verify item has no test case that passed.
            case criterionNotVerified
            /// A selected verify item has no verified test case: each was *not verified*.
            case verifyItemNotVerified
            /// A selected verify item was verified only by failures that waivers accept: nothing passed.
            case verifyItemOnlyWaived
            /// The gate (`run --gate`) covers none of the selected criteria: nothing decides the status.
            case nothingGated

            /// Whether `--allow-not-verified` may accept a gap of this kind (only when something passed).
            var isAcceptable: Bool { self != .noTestCase && self != .noKnownTarget && self != .nothingGated }
        }

        /// The kind of gap.
        public var kind: Kind
        /// The criterion concerned, else `nil`.
        public var criterion: CriterionID?
        /// The verify item concerned (`N2.6-AC01.V5`), else `nil`.
        public var verifyItem: VerifyItemID?
        /// What the test cases of the item lacked, each once, in test case order (for
        /// `verifyItemNotVerified`): the undeclared target, the missing capabilities, the step.
        public var lacks: [NotVerifiedReason]
        /// A sentence for a reader.
        public var detail: String

        /// Creates a gap.
        public init(kind: Kind, criterion: CriterionID? = nil, verifyItem: VerifyItemID? = nil, lacks: [NotVerifiedReason] = [], detail: String) {
            self.kind = kind
            self.criterion = criterion
            self.verifyItem = verifyItem
            self.lacks = lacks
            self.detail = detail
        }

        private enum CodingKeys: String, CodingKey { case kind, criterion, verifyItem, lacks, detail }

        /// Encodes every member, absent ones as `null` (the report's convention).
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(kind, forKey: .kind)
            try container.encode(criterion, forKey: .criterion)
            try container.encode(verifyItem, forKey: .verifyItem)
            try container.encode(lacks, forKey: .lacks)
            try container.encode(detail, forKey: .detail)
        }

        /// Every gap of `run` with its waivers applied, in a stable order: the run-wide ones, then
        /// criteria in run order, and their verify items in the order the criterion lists them.
        public static func all(in run: RunResult, waivers: WaiverEvaluation = .none) -> [Gap] {
            var gaps: [Gap] = []
            if run.testCases.isEmpty {
                gaps.append(Gap(kind: .noTestCase, detail: "the filters selected no test case"))
            }
            let adapter = run.metadata.adapter
            if let declaredTargets = adapter.declaredTargets, declaredTargets.allSatisfy({ adapter.unknownTargets.contains($0) }) {
                let declared = declaredTargets.isEmpty ? "none" : declaredTargets.joined(separator: ", ")
                gaps.append(Gap(kind: .noKnownTarget, detail: "the adapter declares no known target (declared: \(declared))"))
            }
            if let nothing = nothingGated(in: run) { gaps.append(nothing) }
            var criterionOrder: [CriterionID] = run.criteria.map(\.criterion.id)
            for id in run.testCases.map(\.criterionID) where !criterionOrder.contains(id) { criterionOrder.append(id) }
            for id in criterionOrder {
                let cases = run.testCases.filter { $0.criterionID == id }
                guard !cases.isEmpty else { continue }
                let listed = run.criteria.first { $0.criterion.id == id }?.criterion.verifyItems.map(\.id) ?? []
                var items = listed.filter { item in cases.contains { $0.verifyItems.contains(item) } }
                for item in cases.flatMap(\.verifyItems) where !items.contains(item) { items.append(item) }
                if items.isEmpty {
                    if !cases.contains(where: { $0.verdict == .passed }) {
                        gaps.append(Gap(kind: .criterionNotVerified, criterion: id, detail: "\(id) has no test case that passed"))
                    }
                    continue
                }
                for item in items {
                    if let gap = gap(item: item, criterion: id, cases: cases.filter { $0.verifyItems.contains(item) }, waivers: waivers) {
                        gaps.append(gap)
                    }
                }
            }
            return gaps
        }

        /// The gap of a run whose gate covers none of the criteria it selected: every failure and
        /// gap would be a warning, so a green status would say nothing about the relying party.
        static func nothingGated(in run: RunResult) -> Gap? {
            guard let gate = run.metadata.gate, gate != .all, !run.testCases.isEmpty else { return nil }
            var selected: [CriterionID] = []
            for id in run.criteria.map(\.criterion.id) + run.testCases.map(\.criterionID) where !selected.contains(id) { selected.append(id) }
            guard !selected.contains(where: { run.gateCovers(criterion: $0) }) else { return nil }
            let names = selected.prefix(5).map(\.rawValue).joined(separator: ", ") + (selected.count > 5 ? ", … \(selected.count - 5) more" : "")
            return Gap(
                kind: .nothingGated,
                detail:
                    "the gate '\(gate.rawValue)' covers none of the selected criteria (\(names)): nothing decides the status; select a criterion it covers or use --gate all"
            )
        }

        /// The gaps that decide the exit status: those of criteria the run's gate covers, and the
        /// run-wide ones.
        public static func gating(in run: RunResult, waivers: WaiverEvaluation = .none) -> [Gap] {
            all(in: run, waivers: waivers).filter { run.gateCovers(criterion: $0.criterion) }
        }

        /// The gaps of criteria below the run's gate: reported as warnings, never deciding the status.
        public static func belowGate(in run: RunResult, waivers: WaiverEvaluation = .none) -> [Gap] {
            all(in: run, waivers: waivers).filter { !run.gateCovers(criterion: $0.criterion) }
        }

        /// The gap of one verify item, if it has one.
        static func gap(item: VerifyItemID, criterion: CriterionID, cases: [TestCaseResult], waivers: WaiverEvaluation) -> Gap? {
            if cases.contains(where: { $0.verdict == .passed }) { return nil }
            // An unexpected failure makes the run not conformant; it is not a gap.
            if cases.contains(where: { $0.verdict == .failed && waivers.waiver(forTestCase: $0.id) == nil }) { return nil }
            if cases.contains(where: { $0.verdict == .error || $0.verdict == .undefined }) { return nil }
            if cases.contains(where: { $0.verdict == .failed }) {
                return Gap(
                    kind: .verifyItemOnlyWaived, criterion: criterion, verifyItem: item,
                    detail: "\(item) only failed, under waivers: no test case shows that it holds")
            }
            var lacks: [NotVerifiedReason] = []
            for reason in cases.compactMap(\.notVerifiedReason) where !lacks.contains(reason) { lacks.append(reason) }
            let needs = lacks.isEmpty ? "" : ": " + Self.needs(lacks)
            return Gap(kind: .verifyItemNotVerified, criterion: criterion, verifyItem: item, lacks: lacks, detail: "\(item) not verified\(needs)")
        }

        /// `needs capability recovery; target apple-26.2 undeclared`: what to declare, in words.
        static func needs(_ lacks: [NotVerifiedReason]) -> String {
            var capabilities: [String] = []
            var targets: [String] = []
            var steps: [String] = []
            var protocols: [String] = []
            var platforms: [String] = []
            for reason in lacks {
                switch reason.kind {
                case .missingCapability:
                    for name in reason.detail.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !capabilities.contains(name) {
                        capabilities.append(name)
                    }
                case .undeclaredTarget: if !targets.contains(reason.detail) { targets.append(reason.detail) }
                case .step: if !steps.contains(reason.detail) { steps.append(reason.detail) }
                case .protocolVersion: if !protocols.contains(reason.detail) { protocols.append(reason.detail) }
                case .platformUnavailable: if !platforms.contains(reason.detail) { platforms.append(reason.detail) }
                }
            }
            var parts: [String] = []
            if !capabilities.isEmpty { parts.append("declare capability " + capabilities.joined(separator: ", ")) }
            if !targets.isEmpty { parts.append("declare target " + targets.joined(separator: " or ")) }
            if !steps.isEmpty { parts.append("unsupported step " + steps.joined(separator: "; ")) }
            if !protocols.isEmpty { parts.append("a newer adapter protocol: " + protocols.joined(separator: "; ")) }
            if !platforms.isEmpty { parts.append("a platform on this machine: " + platforms.joined(separator: "; ")) }
            return parts.joined(separator: "; or ")
        }
    }
}
