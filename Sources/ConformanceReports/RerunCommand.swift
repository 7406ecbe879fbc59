import ConformanceModel

/// The command that re-runs one test case alone, as the reports print it:
/// `swift run passkey-conformance run --criterion <id> --target <target> --seed <seed> --scenario "<name>"`,
/// or the installed binary's path instead of `swift run passkey-conformance` when that is what ran.
enum RerunCommand {
    /// The shell command line for a test case of a run: the same adapter (command, design, mutant), criteria
    /// root (when `--criteria` was given), criterion, target, seed and scenario.
    static func line(for result: TestCaseResult, metadata: RunMetadata) -> String {
        var words = (metadata.harnessCommand.map { [word($0)] } ?? ["swift", "run", "passkey-conformance"]) + ["run"]
        if let command = metadata.adapter.command {
            words += ["--adapter-command", doubleQuoted(command)]
        } else if let subject = metadata.subject {
            if let design = subject.design { words += ["--design", word(design)] }
            if let mutant = subject.mutant { words += ["--mutant", word(mutant)] }
        }
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

    /// A word as is when the shell would read it unchanged, otherwise double-quoted.
    static func word(_ text: String) -> String {
        let plain =
            !text.isEmpty
            && text.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "._-+=@%:,/".unicodeScalars.contains($0)
            }
        return plain ? text : doubleQuoted(text)
    }

    /// `"text"` for a POSIX shell: `\`, `"`, `$` and `` ` `` escaped, line breaks as spaces.
    static func doubleQuoted(_ text: String) -> String {
        var quoted = "\""
        for character in text {
            switch character {
            case "\\", "\"", "$", "`": quoted += "\\\(character)"
            case "\n", "\r", "\r\n": quoted += " "
            default: quoted.append(character)
            }
        }
        return quoted + "\""
    }
}
