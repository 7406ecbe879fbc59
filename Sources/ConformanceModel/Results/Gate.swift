/// Which criteria fail a run when they fail: the rest are reported as warnings.
///
/// Criteria carry a level from their source document (`Core` or `Quality`, the `@level:` tag) and an
/// origin (`source`, `derived`, `recommendation`). A gate names the criteria whose failures and gaps
/// decide the exit status:
///
/// | gate | criteria that fail the run | reported as warnings |
/// |---|---|---|
/// | `core` | Core-level criteria of the source documents and those derived from them | Quality-level criteria, recommendations |
/// | `quality` | every criterion of the source documents and every derived one, Core and Quality | recommendations |
/// | `all` | every selected criterion (the default) | nothing |
///
/// Recommendations run only when `--level recommendation` selects them, so under the default
/// selection `quality` and `all` gate the same criteria. A test case of a criterion the run does not
/// describe is always gated: nothing says it may be a warning.
public enum Gate: String, Sendable, Codable, Hashable, CaseIterable {
    /// Core-level source and derived criteria.
    case core
    /// Source and derived criteria of both levels.
    case quality
    /// Every selected criterion.
    case all

    /// Whether the gate covers a criterion: its failures and gaps then decide the exit status.
    public func covers(_ criterion: CriterionInfo) -> Bool {
        switch self {
        case .all: true
        case .quality: criterion.origin != .recommendation
        case .core: criterion.origin != .recommendation && criterion.level == .core
        }
    }
}

extension RunResult {
    /// Whether the run's gate covers the criterion `id` (`true` for a criterion the run does not describe).
    public func gateCovers(criterion id: CriterionID?) -> Bool {
        guard let id, let gate = metadata.gate, gate != .all else { return true }
        guard let info = criteria.first(where: { $0.criterion.id == id })?.criterion else { return true }
        return gate.covers(info)
    }
}
