import ConformanceModel

/// The sentences every report (and the console) puts first, when they apply.
package enum ReportNotices {
    /// Criteria that are not the suite shipped with the harness, with both digests; `nil` when they
    /// are, or when the run did not record where its criteria came from.
    package static func criteria(_ metadata: RunMetadata) -> String? {
        guard case .other(let bundled) = metadata.criteriaSource else { return nil }
        let digest = metadata.criteriaDigest.isEmpty ? "none (they did not load)" : metadata.criteriaDigest
        let root = metadata.criteriaRoot.map { " from \($0)" } ?? ""
        return "the run used criteria\(root) that are NOT the suite shipped with this harness: criteria digest \(digest), bundled suite digest "
            + (bundled ?? "unknown (the harness's resource bundle is missing)")
    }

    /// Waivers judged as of a `--today` other than the clock's day, and the expired waivers that
    /// keeps alive; `nil` when they were judged on the clock's day.
    package static func waiverDate(_ waivers: WaiverEvaluation) -> String? {
        guard let clock = waivers.clockDay, let day = waivers.evaluatedOn else { return nil }
        let revived = waivers.revived
        let kept =
            revived.isEmpty
            ? "no expired waiver is revived"
            : "\(revived.count) waiver(s) expired by \(clock) count as live: " + revived.joined(separator: ", ")
        return "waivers judged as of \(day) (--today), not the clock's day \(clock): \(kept)"
    }
}

extension ReportNotices {
    /// The first thing to check when an adapter process did not start (the run's fault, with the
    /// command that started it): run the command by hand, and what it must do; `nil` when the run
    /// has no such fault (or its adapter ran in process).
    package static func faultHint(_ metadata: RunMetadata) -> String? {
        guard let fault = metadata.fault, fault.kind != .criteria, let command = metadata.adapter.command else { return nil }
        let byHand = "run the adapter command by hand: `\(command)`"
        switch fault.kind {
        case .timeout:
            return "\(byHand); it must answer adapter.hello on stdout within the launch time-out (a slow start needs --launch-timeout <seconds>)"
        case .malformedMessage, .truncatedMessage, .oversizedMessage, .protocolViolation, .unknownResponseID, .flood:
            return "\(byHand); it must write nothing but JSON-RPC messages on stdout, one a line, and its logs on stderr"
        case .versionMismatch:
            return "the adapter speaks another major version of the adapter protocol; update it to protocol \(adapterProtocolVersion)"
        default:
            return "\(byHand); it must speak JSON-RPC on stdin/stdout"
        }
    }

    /// The lines of the adapter's standard error a fault carries (its excerpt when it is the tail of
    /// the standard error, `stderr: …`), as they were written, the last ones included: the caller
    /// shows each on a line of its own, its hidden characters made visible. `nil` when the excerpt
    /// is something else (the offending bytes of a message) or absent.
    package static func standardErrorLines(_ fault: RunFault) -> [String]? {
        guard let excerpt = fault.excerpt, excerpt.hasPrefix(standardErrorPrefix) else { return nil }
        let lines = excerpt.dropFirst(standardErrorPrefix.count).replacing("\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false)
        return lines.map(String.init)
    }

    /// A fault in one line without the standard error it carries (shown apart, line by line):
    /// `process-exited in adapter.hello: …`; with any other excerpt, the whole description.
    package static func faultLine(_ fault: RunFault) -> String {
        guard standardErrorLines(fault) != nil else { return fault.description }
        var bare = fault
        bare.excerpt = nil
        return bare.description
    }

    /// How a fault's excerpt starts when it is the tail of the adapter's standard error.
    static let standardErrorPrefix = "stderr: "
}
