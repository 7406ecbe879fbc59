import ConformanceKit
import ConformanceReports
import Foundation

/// The `passkey-conformance` command line: `run`, `list`, `validate`, `selftest`, `gherkin`, `init-adapter`.
///
/// Exit status: 0 conformant (or nothing wrong), 1 non-conformant or waiver problems (for
/// `validate`: defects found), 2 a harness, adapter or criterion-file error (an undefined step
/// included), 3 incomplete (`run` verified too little; see `ExitStatus`), 64 bad usage, 130 / 143
/// interrupted by `SIGINT` / `SIGTERM`.
public enum CLI {
    /// Exit statuses of every command.
    public enum Status {
        /// 0: conformant, or nothing wrong.
        public static let ok: Int32 = 0
        /// 1: the relying party broke a criterion, a waiver has a problem, or `validate` found defects.
        public static let nonConformant: Int32 = 1
        /// 2: the harness, the adapter or a criterion file failed, so the run could not decide.
        public static let systemError: Int32 = 2
        /// 3: `run` found nothing wrong but verified too little (no test case, no known target, a
        /// criterion without a verified test case); `--allow-not-verified` accepts that.
        public static let incomplete: Int32 = ExitStatus.incomplete.rawValue
        /// 64: bad usage of the command line.
        public static let usage: Int32 = 64
    }

    static let commands: [CommandSpec] = [
        RunCommand.spec, ListCommand.spec, ValidateCommand.spec, SelfTestCommand.spec, GherkinCommand.spec,
        InitAdapterCommand.spec, ExploreCommand.spec,
    ]

    static var overview: String {
        var lines = [
            "OVERVIEW: Conformance harness for passkey relying parties (automatic passkey upgrade N2.6, Signal API N3.2).",
            "",
            "USAGE: passkey-conformance <command> [options]",
            "",
            "COMMANDS:",
        ]
        for command in commands { lines.append("  " + command.name.padding(toLength: 14, withPad: " ", startingAt: 0) + command.summary) }
        lines += [
            "", "See 'passkey-conformance <command> --help' for a command's options.",
            "Exit status: 0 conformant, 1 non-conformant, 2 harness, adapter or criterion-file error, 3 incomplete (too little verified),",
            "64 bad usage, 130/143 interrupted (SIGINT/SIGTERM).",
        ]
        return lines.joined(separator: "\n")
    }

    /// Runs the command line (without the program name) and returns the exit status.
    public static func main(_ arguments: [String]) async -> Int32 {
        guard let name = arguments.first else {
            Output.error(overview)
            return Status.usage
        }
        if name == "-h" || name == "--help" || name == "help" {
            Output.out(overview)
            return Status.ok
        }
        if name == "--version" {
            Output.out("passkey-conformance \(Suite.harnessVersion)")
            return Status.ok
        }
        guard let spec = commands.first(where: { $0.name == name }) else {
            Output.error("error: unknown command '\(name)'\n\n" + overview)
            return Status.usage
        }
        do {
            let parsed = try ParsedArguments.parse(Array(arguments.dropFirst()), spec: spec)
            if parsed.wantsHelp {
                Output.out(spec.help)
                return Status.ok
            }
            switch spec.name {
            case RunCommand.spec.name: return try await RunCommand.run(parsed)
            case ListCommand.spec.name: return try ListCommand.run(parsed)
            case ValidateCommand.spec.name: return try ValidateCommand.run(parsed)
            case SelfTestCommand.spec.name: return try await SelfTestCommand.run(parsed)
            case InitAdapterCommand.spec.name: return try InitAdapterCommand.run(parsed)
            case ExploreCommand.spec.name: return try await ExploreCommand.run(parsed)
            default: return try GherkinCommand.run(parsed)
            }
        } catch let error as UsageError {
            Output.error("error: \(error.message)\nSee 'passkey-conformance \(error.command ?? name) --help'.")
            return Status.usage
        } catch {
            Output.error("error: \(error)")
            return Status.systemError
        }
    }
}

/// Where the CLI writes.
///
/// Everything printed through here is passed through `visible(_:)`: names, messages and diagnostics
/// carry text from adapters and criterion files, and no escape sequence, bell or carriage return of
/// theirs may reach the terminal. Only the progress line writes escape sequences, and only to a terminal.
enum Output {
    static func out(_ text: String) {
        FileHandle.standardOutput.write(Data((visible(text) + "\n").utf8))
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data((visible(text) + "\n").utf8))
    }

    /// Text that came from an adapter or a criterion file, safe for a terminal: control characters
    /// (C0 but line feed and tab, DEL, C1) are shown as `\u{1B}` and the like, so that no escape
    /// sequence, bell or carriage return reaches the terminal.
    static func visible(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A, 0x09: result.unicodeScalars.append(scalar)
            case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029: result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether standard error is a terminal (progress is shown only then).
    static var errorIsTerminal: Bool { isatty(2) != 0 }
}
