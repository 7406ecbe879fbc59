#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ConformanceModel

/// Writes a run as the versioned JSON report (`report.json`): the machine-readable, diffable record
/// of a run, described by `Reports/schema/run-report.v1.schema.json` and
/// `Documentation/report-format.md`.
///
/// Keys are sorted and every member is always present (`null` when it has no value), so two equal
/// runs give the same bytes and a consumer never has to test for a missing member.
package enum JSONReporter: ReportRenderer {
    /// `json`: the versioned JSON report, `report.json`.
    static let format = ReportFormat("json", fileNames: ["report.json"])

    static func files(_ model: ReportModel) throws -> [(path: String, bytes: [UInt8])] { [(format.fileName, try render(model))] }

    /// The version of the report format, following semantic versioning: a new major version
    /// removes, renames or retypes members or adds values to an enum a consumer must understand
    /// (verdicts, outcomes); a minor version adds members, or values of `summary.status` and
    /// `summary.exitStatus` (a gate reads `exitStatus == 0`, so a new non-zero status stays safe).
    ///
    /// 1.1.0 added `summary.gaps`, the statuses `incomplete` (3), `interrupted` (130) and
    /// `terminated` (143), `metadata.allowNotVerified`, `metadata.interruption`, `metadata.fault`
    /// and the adapter's `declaredTargets`, `capabilities` and `unknownTargets`. 1.2.0 added each
    /// criterion's `origin` (source, derived, recommendation). 1.3.0 added the gate per verify item
    /// and the notices.
    ///
    /// 1.4.0 added the provenance members `metadata.harnessCommit`, `harnessModified`,
    /// `harnessBinarySHA256`, `host` and `reportDigest`, and `metadata.shard`. 1.5.0 added
    /// `fidelity`, `metadata.gate`, `metadata.evidence`, `summary.warnings`, each criterion's
    /// `gated`, and each test case's `observed` and `warning`. 1.6.0 added `metadata.subject` and
    /// the gap kind `nothingGated`. 1.7.0 added each test case's `violations` (the safety monitors'
    /// findings), the monitors' own test cases (tag `@monitor`) and `metadata.adapter.declarations`.
    package static let schemaVersion = "1.7.0"

    /// The `$id` of the JSON Schema of major version 1, written as the report's `$schema` member.
    package static let schemaID = "urn:passkey-conformance:schema:run-report:v1"

    /// The report as UTF-8 JSON bytes, pretty-printed with sorted keys and a final newline.
    ///
    /// Wall times that are negative or not finite numbers are written as `0`; transcript payload numbers that
    /// are not finite are written as the strings `"NaN"`, `"Infinity"`, `"-Infinity"`.
    ///
    /// - Throws: only if the system's JSON encoder fails, which the document's types rule out in practice.
    package static func render(_ run: RunResult, waivers: WaiverEvaluation = .none) throws -> [UInt8] {
        try render(ReportModel(run, waivers: waivers))
    }

    static func render(_ model: ReportModel) throws -> [UInt8] {
        var document = Document(model)
        let placeholder = try encode(document)
        document.metadata.reportDigest = ReportDigest.sha256Hex(placeholder)
        return try encode(document)
    }

    /// What `metadata.reportDigest` holds while the digest is computed: 64 zeros, as long as the
    /// digest, so that the report's bytes differ from the hashed bytes in that value only.
    package static let digestPlaceholder = String(repeating: "0", count: 64)

    /// The report's `metadata.reportDigest`: the SHA-256 of its bytes with that value written as
    /// 64 zeros (`Documentation/report-format.md` gives the recipe to check it).
    package static func reportDigest(of model: ReportModel) throws -> String {
        try ReportDigest.sha256Hex(encode(Document(model)))
    }

    private static func encode(_ document: Document) throws -> [UInt8] {
        let encoder = Wire.encoder(pretty: true)
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        var bytes = [UInt8](try encoder.encode(document))
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }
}
