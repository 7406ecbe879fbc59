import ConformanceModel

// The provenance lines of the Markdown header and the JUnit properties: the harness build, the
// host, the shard and the JSON report's own digest. What a run did not record (`--no-build-info`)
// is left out.

extension MarkdownReporter.Document {
    /// The header lines about the harness build, the host, the shard and the report's digest.
    static func provenance(_ model: ReportModel) -> [String] {
        let metadata = model.run.metadata
        var lines: [String] = []
        if let commit = metadata.harnessCommit {
            let state =
                switch metadata.harnessModified {
                case true?: " (built with changes to the sources not in the commit)"
                case false?: ""
                case nil: ""
                }
            lines.append("- **Harness commit:** \(TextEscaping.markdownCode(commit))\(state)")
        }
        if let digest = metadata.harnessBinarySHA256 {
            lines.append("- **Harness binary SHA-256:** \(TextEscaping.markdownCode(digest))")
        }
        if let host = metadata.host {
            lines.append("- **Host:** \(TextEscaping.markdownInline(host))")
        }
        if let shard = metadata.shard {
            lines.append(
                "- **Shard:** \(shard.index) of \(shard.count) (\(shard.testCases) of \(shard.plannedTestCases) test cases): a partial run; "
                    + "`passkey-conformance merge` combines the shards' reports into the run's report")
        }
        if let digest = model.reportDigest {
            lines.append("- **Report digest:** \(TextEscaping.markdownCode(digest)) (SHA-256 of `report.json`, see its `metadata.reportDigest`)")
        }
        return lines
    }
}

extension JUnitReporter {
    /// The properties about the harness build, the host, the shard and the report's digest.
    static func provenance(_ model: ReportModel) -> [(String, String)] {
        let metadata = model.run.metadata
        var properties: [(String, String)] = []
        if let commit = metadata.harnessCommit { properties.append(("harness.commit", commit)) }
        if let modified = metadata.harnessModified { properties.append(("harness.modified", String(modified))) }
        if let digest = metadata.harnessBinarySHA256 { properties.append(("harness.binarySHA256", digest)) }
        if let host = metadata.host { properties.append(("host", host)) }
        if let command = metadata.adapter.command { properties.append(("adapter.command", command)) }
        if let address = metadata.adapter.connect { properties.append(("adapter.connect", address)) }
        if let shard = metadata.shard { properties.append(("shard", shard.description)) }
        if let digest = model.reportDigest { properties.append(("report.digest", digest)) }
        return properties
    }
}
