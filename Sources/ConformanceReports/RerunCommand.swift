import ConformanceModel

/// The command that re-runs one test case alone, as the reports print it:
/// `swift run passkey-conformance run --criterion <id> --target <target> --seed <seed> --scenario "<name>"`,
/// or the installed binary's path instead of `swift run passkey-conformance` when that is what ran.
package enum RerunCommand {
    /// The shell command line for a test case of a run: the same adapter (command, design, mutant), criteria
    /// root (when `--criteria` was given), criterion, target, seed and scenario.
    package static func line(for result: TestCaseResult, metadata: RunMetadata) -> String {
        var words = (metadata.harnessCommand.map { [word($0)] } ?? ["swift", "run", "passkey-conformance"]) + ["run"]
        words += metadata.runSubject.shellWords
        if let root = metadata.criteriaRoot {
            words += ["--criteria", word(root)]
        }
        // A monitor's test case is derived from breaches seen in test cases of any criterion: the
        // whole suite on its target, with the run's seed, shows it again.
        if result.isMonitorCase {
            words += ["--target", word(result.target), "--seed", String(metadata.seed)]
            return words.joined(separator: " ")
        }
        words += ["--criterion", word(result.criterionID.rawValue), "--target", word(result.target), "--seed", String(metadata.seed)]
        if !result.scenario.isEmpty {
            words += ["--scenario", doubleQuoted(result.scenario)]
        }
        return words.joined(separator: " ")
    }

    static func word(_ text: String) -> String { ShellWords.word(text) }

    static func doubleQuoted(_ text: String) -> String { ShellWords.doubleQuoted(text) }
}
