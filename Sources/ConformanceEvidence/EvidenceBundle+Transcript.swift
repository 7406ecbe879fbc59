#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ConformanceModel
import ConformanceReports

extension EvidenceBundle {
    /// One plain-text file per test case, in report order: what ran, how each step ended, and the
    /// transcript the run kept (every entry with its virtual time, channel, call and payload).
    static func transcripts(_ model: ReportModel) -> [File] {
        let width = max(4, String(model.cases.count).count)
        return model.cases.enumerated().map { index, item in
            let number = String(index + 1)
            let name =
                String(repeating: "0", count: width - number.count) + number + "-" + safe(item.result.criterionID.rawValue) + "-" + safe(item.result.target)
            return File(path: "transcripts/\(name).txt", bytes: Array(transcript(item, metadata: model.run.metadata).utf8))
        }
    }

    /// A file name part of letters, digits, `.`, `-` and `_` only.
    static func safe(_ text: String) -> String {
        String(text.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "_") ? $0 : "_" })
    }

    static func transcript(_ item: ReportModel.Case, metadata: RunMetadata) -> String {
        let result = item.result
        var lines = [
            "test case: \(result.id)",
            "criterion: \(result.criterionID)    target: \(result.target)    verdict: \(result.verdict.rawValue)    outcome: \(item.outcome.rawValue)",
            "scenario:  \(result.scenario)",
            "file:      \(result.file):\(result.line)",
            "verifies:  \(result.verifyItems.joined(separator: ", "))",
            "virtual:   \(result.virtualMillis) ms",
        ]
        if let message = result.message { lines.append("message:   \(oneLine(message))") }
        if let waiver = item.waiver { lines.append("waived by: \(waiver.id)") }
        if let fault = result.fault { lines.append("fault:     \(oneLine(fault.description))") }
        if let reason = result.notVerifiedReason { lines.append("not verified: \(reason.kind.rawValue): \(oneLine(reason.detail))") }
        lines.append("rerun:     \(RerunCommand.line(for: result, metadata: metadata))")
        lines.append("")
        lines.append("steps:")
        for step in result.steps {
            lines.append("  \(step.status.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0)) line \(step.line): \(step.keyword)\(oneLine(step.text))")
            if let message = step.message { lines.append("              \(oneLine(message))") }
        }
        lines.append("")
        if result.evidence.isEmpty {
            lines.append("transcript: none kept for this test case")
        } else {
            lines.append("transcript (\(result.evidence.count) entries):")
            let encoder = Wire.encoder()
            encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
            for entry in result.evidence {
                lines.append("  #\(entry.sequence) +\(entry.atMillis) ms  \(entry.channel.rawValue)  \(entry.name)  \(oneLine(entry.summary))")
                if let payload = entry.payload, let bytes = try? encoder.encode(payload) {
                    lines.append("      payload: " + String(decoding: bytes, as: UTF8.self))
                }
            }
        }
        // Text from the adapter or a criterion file never reaches a reader raw: a terminal would run
        // its escape sequences (`cat` of a transcript) and bidirectional controls would reorder it.
        return lines.map { TextEscaping.visible($0) }.joined(separator: "\n") + "\n"
    }

    /// `text` on one line: line breaks shown as `⏎`.
    static func oneLine(_ text: String) -> String {
        text.replacingOccurrences(of: "\r\n", with: "⏎").replacingOccurrences(of: "\n", with: "⏎").replacingOccurrences(of: "\r", with: "⏎")
    }
}
