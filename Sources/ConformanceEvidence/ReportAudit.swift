import ConformanceModel
import ConformanceReports
import Foundation

/// Judges a `report.json` by its test cases, never by what it says of them: its digest must match
/// its bytes, each test case's verdict must follow from its steps, and everything the report
/// derives (criterion verdicts, the summary, outcomes, waivers, gaps, the exit status, re-run
/// lines) must be what this harness derives from those test cases and the run's recorded inputs.
///
/// `merge` reads shards through it and `verify` the report of a bundle. It stops every edit that
/// leaves the report inconsistent (a verdict flipped with its failed step left in place, a summary
/// rewritten, a stale digest); a report rewritten consistently (steps, verdicts and digest alike)
/// is indistinguishable from a real one, which only a signature kept out of the relying party's
/// reach can tell (`Documentation/report-format.md`, "What a signature proves").
package enum ReportAudit {
    /// Something in the report that does not follow from its test cases.
    package struct Finding: Sendable, Hashable, CustomStringConvertible {
        /// Where: a member path (`summary.testCases.passed`, `testCases[3]`).
        package var location: String
        /// What does not hold.
        package var message: String
        /// `summary.testCases.passed: …`
        package var description: String { "\(location): \(message)" }
    }

    /// A report read back and judged.
    package struct Audited: Sendable {
        /// The run its test cases make, every derived value computed again.
        package var run: RunResult
        /// Its waivers, evaluated again from the waivers the report records.
        package var waivers: WaiverEvaluation
        /// What does not follow; empty for a report exactly as this harness writes it.
        package var findings: [Finding]
    }

    /// At most this many differences between the report and the report its test cases give are listed.
    static let differenceLimit = 5

    /// Reads and judges the bytes of a `report.json`.
    ///
    /// - Throws: `ReportReader.ReadError` when the bytes are not a report of schema 1.
    package static func audit(_ bytes: Data) throws(ReportReader.ReadError) -> Audited {
        let read = try ReportReader.run(from: bytes)
        var findings: [Finding] = []
        if let problem = digestProblem(bytes) { findings.append(problem) }
        let exploration = read.metadata.filters["explore"] != nil
        for (index, result) in read.testCases.enumerated() {
            if let why = result.verdictInconsistency(exploration: exploration) {
                findings.append(Finding(location: "testCases[\(index)] \(result.id)", message: why))
            }
        }
        var run = RunResult.folding(
            criteria: read.criteria.map(\.criterion), results: read.testCases, metadata: read.metadata, wallSeconds: read.wallSeconds)
        // A run that could not start and planned nothing still reads as an error (`RunResult.unstarted`).
        if run.metadata.fault != nil, run.testCases.isEmpty { run.verdict = .error }
        let waivers = try ReportReader.waivers(from: bytes, against: run)
        do {
            let expected = try JSONReporter.render(run, waivers: waivers)
            findings += differences(recorded: bytes, expected: Data(expected))
        } catch {
            findings.append(Finding(location: "report.json", message: "cannot be written again from its test cases: \(error)"))
        }
        return Audited(run: run, waivers: waivers, findings: findings)
    }

    /// The recorded `metadata.reportDigest` against the SHA-256 of the bytes with it written as
    /// 64 zeros (the recipe `Documentation/report-format.md` gives).
    static func digestProblem(_ bytes: Data) -> Finding? {
        guard let object = try? JSONSerialization.jsonObject(with: bytes) as? [String: Any], let metadata = object["metadata"] as? [String: Any],
            let recorded = metadata["reportDigest"] as? String
        else { return Finding(location: "metadata.reportDigest", message: "missing") }
        let hex = Array(recorded.utf8)
        guard hex.count == 64, hex.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) })
        else { return Finding(location: "metadata.reportDigest", message: "not 64 lowercase hex digits: \(recorded)") }
        let computed = ReportDigest.sha256Hex(replacing(hex, with: Array(JSONReporter.digestPlaceholder.utf8), in: [UInt8](bytes)))
        guard computed != recorded else { return nil }
        return Finding(
            location: "metadata.reportDigest",
            message: "the report's bytes give \(computed), it records \(recorded): report.json was changed after it was written")
    }

    /// `bytes` with every occurrence of `pattern` replaced by `replacement` (of the same length).
    static func replacing(_ pattern: [UInt8], with replacement: [UInt8], in bytes: [UInt8]) -> [UInt8] {
        guard !pattern.isEmpty, bytes.count >= pattern.count else { return bytes }
        var result = bytes
        var index = 0
        while index <= result.count - pattern.count {
            if result[index] == pattern[0], result[index..<(index + pattern.count)].elementsEqual(pattern) {
                result.replaceSubrange(index..<(index + pattern.count), with: replacement)
                index += pattern.count
            } else {
                index += 1
            }
        }
        return result
    }

    /// The members in which the recorded report differs from the one its test cases give, the
    /// digest aside (judged on its own), at most `differenceLimit` of them.
    static func differences(recorded: Data, expected: Data) -> [Finding] {
        guard let left = try? JSONSerialization.jsonObject(with: recorded), let right = try? JSONSerialization.jsonObject(with: expected) else {
            return [Finding(location: "report.json", message: "not JSON")]
        }
        var found: [Finding] = []
        compare(left, right, at: "", into: &found)
        return found
    }

    private static func compare(_ recorded: Any, _ expected: Any, at path: String, into found: inout [Finding]) {
        guard found.count < differenceLimit, path != "metadata.reportDigest" else { return }
        switch (recorded, expected) {
        case (let left as [String: Any], let right as [String: Any]):
            for key in Set(left.keys).union(right.keys).sorted() {
                let member = path.isEmpty ? key : "\(path).\(key)"
                switch (left[key], right[key]) {
                case (let l?, let r?): compare(l, r, at: member, into: &found)
                case (_?, nil): found.append(Finding(location: member, message: "is not a member this harness writes"))
                case (nil, _?): found.append(Finding(location: member, message: "is missing"))
                case (nil, nil): break
                }
            }
        case (let left as [Any], let right as [Any]):
            if left.count != right.count {
                found.append(Finding(location: path, message: "holds \(left.count) entries; its test cases give \(right.count)"))
            }
            for (index, pair) in zip(left, right).enumerated() { compare(pair.0, pair.1, at: "\(path)[\(index)]", into: &found) }
        default:
            let left = leaf(recorded)
            let right = leaf(expected)
            if left != right { found.append(Finding(location: path, message: "says \(left); its test cases give \(right)")) }
        }
    }

    /// A JSON scalar as text, short enough for a message.
    private static func leaf(_ value: Any) -> String {
        let text: String
        switch value {
        case let string as String: text = "\"\(string)\""
        case is NSNull: text = "null"
        case let object as [String: Any]: text = "an object of \(object.count) member(s)"
        case let array as [Any]: text = "an array of \(array.count) entries"
        default: text = "\(value)"
        }
        return TextEscaping.visible(text.count > 120 ? String(text.prefix(117)) + "…" : text)
    }
}
