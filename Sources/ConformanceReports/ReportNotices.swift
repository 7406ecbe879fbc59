import ConformanceModel

/// The sentences every report (and the console) puts first, when they apply.
public enum ReportNotices {
    /// Criteria that are not the suite shipped with the harness, with both digests; `nil` when they
    /// are, or when the run did not record where its criteria came from.
    public static func criteria(_ metadata: RunMetadata) -> String? {
        guard case .other(let bundled) = metadata.criteriaSource else { return nil }
        let digest = metadata.criteriaDigest.isEmpty ? "none (they did not load)" : metadata.criteriaDigest
        let root = metadata.criteriaRoot.map { " from \($0)" } ?? ""
        return "the run used criteria\(root) that are NOT the suite shipped with this harness: criteria digest \(digest), bundled suite digest "
            + (bundled ?? "unknown (the harness's resource bundle is missing)")
    }

    /// Waivers judged as of a `--today` other than the clock's day, and the expired waivers that
    /// keeps alive; `nil` when they were judged on the clock's day.
    public static func waiverDate(_ waivers: WaiverEvaluation) -> String? {
        guard let clock = waivers.clockDay, let day = waivers.evaluatedOn else { return nil }
        let revived = waivers.revived
        let kept =
            revived.isEmpty
            ? "no expired waiver is revived"
            : "\(revived.count) waiver(s) expired by \(clock) count as live: " + revived.joined(separator: ", ")
        return "waivers judged as of \(day) (--today), not the clock's day \(clock): \(kept)"
    }
}
