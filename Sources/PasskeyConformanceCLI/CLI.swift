import ConformanceBrowser
import ConformanceKit
import ConformanceEvidence
import ConformanceReports
import Foundation
import PasskeyConformanceAdapter
import Synchronization
import WebAuthn

/// The `passkey-conformance` command line: `run`, `list`, `validate`, `selftest`, `gherkin`, `init-adapter`.
///
/// Exit status: 0 conformant (or nothing wrong), 1 non-conformant or waiver problems (for
/// `validate`: defects found), 2 a harness, adapter or criterion-file error (an undefined step
/// included), 3 incomplete (`run` verified too little; see `ExitStatus`), 64 bad usage, 129 / 130 / 143
/// interrupted by `SIGHUP` / `SIGINT` / `SIGTERM`.
package enum CLI {
    /// Exit statuses of every command.
    package enum Status {
        /// 0: conformant, or nothing wrong.
        package static let ok: Int32 = 0
        /// 1: the relying party broke a criterion, a waiver has a problem, or `validate` found defects.
        package static let nonConformant: Int32 = 1
        /// 2: the harness, the adapter or a criterion file failed, so the run could not decide.
        package static let systemError: Int32 = 2
        /// 3: `run` found nothing wrong but verified too little (no test case, no known target, a
        /// criterion without a verified test case); `--allow-not-verified` accepts that.
        package static let incomplete: Int32 = ExitStatus.incomplete.rawValue
        /// 64: bad usage of the command line.
        package static let usage: Int32 = 64
    }

    /// The platforms `run` and `explore` run test cases on, asked in order for each target's
    /// backend: a new platform family joins the list here (Documentation/platform-seam.md).
    static let platforms = PlatformBackendFactories([SimulatedPlatforms(), browser])
    /// The web family's platform: one Chromium, started at the first web test case of a run.
    static let browser = BrowserPlatforms()

    /// Every command, in the order the overview lists them; the command line's first word picks one by name.
    static let commands: [any CLICommand.Type] = [
        RunCommand.self, ListCommand.self, ValidateCommand.self, SelfTestCommand.self, GherkinCommand.self,
        InitAdapterCommand.self, ExploreCommand.self, MergeCommand.self, VerifyCommand.self, SignCommand.self,
    ]

    /// The commands' tables, in the same order.
    static var specs: [CommandSpec] { commands.map { $0.spec } }

    static var overview: String {
        var lines = [
            "OVERVIEW: Conformance harness for passkey relying parties (automatic passkey upgrade N2.6, Signal API N3.2).",
            "",
            "USAGE: passkey-conformance <command> [options]",
            "",
            "COMMANDS:",
        ]
        for command in specs { lines.append("  " + command.name.padding(toLength: 14, withPad: " ", startingAt: 0) + command.summary) }
        lines += [
            "", "See 'passkey-conformance <command> --help' for a command's options.",
            "Exit status: 0 conformant, 1 non-conformant, 2 harness, adapter or criterion-file error, 3 incomplete (too little verified),",
            "64 bad usage, 129/130/143 interrupted (SIGHUP/SIGINT/SIGTERM).",
        ]
        return lines.joined(separator: "\n")
    }

    /// A first word that names no command (or a `help` asking for more than one): the error is
    /// followed by the overview rather than a command's help.
    struct CommandLineError: Error {
        var message: String
    }

    /// The command called `name`, or an error that names it.
    static func command(named name: String) throws(CommandLineError) -> any CLICommand.Type {
        guard let command = commands.first(where: { $0.spec.name == name }) else { throw CommandLineError(message: "unknown command '\(name)'") }
        return command
    }

    /// Runs the command line (without the program name) and returns the exit status.
    package static func main(_ arguments: [String]) async -> Int32 {
        Output.ignoreBrokenPipes()
        guard let name = arguments.first else {
            Output.error(overview)
            return Status.usage
        }
        do {
            if name == "-h" || name == "--help" || name == "help" {
                // `help <command>` is that command's --help.
                guard arguments.count > 1 else {
                    Output.out(overview)
                    return Status.ok
                }
                guard arguments.count == 2 else { throw CommandLineError(message: "help takes one command, found '\(arguments[2])'") }
                Output.out(try command(named: arguments[1]).spec.help)
                return Status.ok
            }
            if name == "--version" {
                Output.out("passkey-conformance \(Suite.harnessVersion)")
                return Status.ok
            }
            let type = try command(named: name)
            // `run` and `explore` take a signal recorded since main's first statement (`EarlySignals`)
            // into their report; every other command gets the default actions back now.
            if !type.reportsInterruptions, let status = EarlySignals.handOver() { return status }
            let parsed = try ParsedArguments.parse(Array(arguments.dropFirst()), spec: type.spec)
            if parsed.wantsHelp {
                Output.out(type.spec.help)
                return Status.ok
            }
            return try await type.init(parsed).run()
        } catch let error as CommandLineError {
            Output.error("error: \(error.message)\n\n" + overview)
            return Status.usage
        } catch let error as UsageError {
            Output.error("error: \(error.message)\nSee 'passkey-conformance \(error.command ?? name) --help'.")
            return Status.usage
        } catch {
            Output.error("error: \(error)")
            return Status.systemError
        }
    }
}

/// A command of the command line: a type whose value is the command line read into typed options.
///
/// Making the value reads and checks every option (a bad one is a `UsageError` that names it, exit
/// 64) before anything runs; `run()` then does the work and returns the exit status.
protocol CLICommand: Sendable {
    /// The command's name, summary, usage and option table (parsing and `--help` both read it).
    static var spec: CommandSpec { get }
    /// Reads the parsed command line into the command's typed options.
    init(_ arguments: ParsedArguments) throws
    /// Does the command's work and returns its exit status.
    func run() async throws -> Int32
    /// Whether a signal ends the command with a report marked interrupted (`InterruptionMonitor`)
    /// rather than by its default action.
    static var reportsInterruptions: Bool { get }
}

extension CLICommand {
    static var reportsInterruptions: Bool { false }
}

/// Where the CLI writes.
///
/// Everything printed through here is passed through `TextEscaping.visible(_:keepingLineBreaks:)`:
/// names, messages and diagnostics carry text from adapters and criterion files, and no escape
/// sequence, bell, carriage return or bidirectional control of theirs may reach the terminal. Text
/// from outside that is put into a line of the harness's own goes through `inline(_:)` first, so that
/// not even a line feed of its own can start a line (`Result: conformant` forged by an adapter). Only
/// the progress line writes escape sequences, and only to a terminal.
///
/// Writes go straight to the file descriptors: a reader that closes its end early (`run … | head -1`)
/// makes the write fail with `EPIPE` (`SIGPIPE` is ignored), and from then on nothing more is printed
/// to that stream; the run goes on, writes its reports and exits with its own status.
enum Output {
    /// Streams found closed (`EPIPE`): bit 0 standard output, bit 1 standard error.
    private static let closed = Atomic<Int>(0)

    static func out(_ text: String) { write(Array((visible(text) + "\n").utf8), to: 1) }

    static func error(_ text: String) { write(Array((visible(text) + "\n").utf8), to: 2) }

    /// Bytes as they are (the caller escaped them) to standard output or standard error (`descriptor` 1 or 2).
    static func write(_ bytes: [UInt8], to descriptor: Int32) {
        let bit = descriptor == 1 ? 1 : 2
        guard closed.load(ordering: .relaxed) & bit == 0 else { return }
        // EPIPE (the reader went away) or any other failure: stop printing to this stream.
        if !bytes.withUnsafeBytes({ Platform.writeAll(descriptor, $0) }) { closed.bitwiseOr(bit, ordering: .relaxed) }
    }

    /// Ignores `SIGPIPE`, so that a closed standard output is an `EPIPE` to handle, not a death.
    static func ignoreBrokenPipes() { _ = signal(SIGPIPE, SIG_IGN) }

    /// Text that came from an adapter or a criterion file, safe for a terminal: hidden scalars
    /// (controls but line feed and tab, bidirectional controls) shown as `\u{1B}` and the like.
    static func visible(_ text: String) -> String { TextEscaping.visible(text, keepingLineBreaks: true) }

    /// Text from outside inside a line of the harness's own: line feeds and tabs escaped too.
    static func inline(_ text: String) -> String { TextEscaping.visible(text) }

    /// Whether standard error is a terminal (progress is shown only then).
    static var errorIsTerminal: Bool { isatty(2) != 0 }
}
