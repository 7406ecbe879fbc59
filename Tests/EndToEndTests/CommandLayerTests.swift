import ConformanceTestSupport
import Foundation
import ReferenceRP
import Testing

@testable import PasskeyConformanceCLI

/// The command layer: one option table per command, read into typed options and printed as `--help`.
@Suite("command layer")
struct CommandLayerTests {
    /// Reads `arguments` through the table of `command` and makes the command's typed options.
    func command<Command: CLICommand>(_ command: Command.Type, _ arguments: [String]) throws -> Command {
        try Command(ParsedArguments.parse(arguments, spec: Command.spec))
    }

    /// The usage error reading `arguments` gives, or `nil` when they are read.
    func usageError<Command: CLICommand>(_ command: Command.Type, _ arguments: [String]) -> UsageError? {
        do {
            _ = try self.command(command, arguments)
            return nil
        } catch {
            return error as? UsageError
        }
    }

    @Test("every command's table has unique names and help text, and --help shows each of its options")
    func tables() {
        #expect(Set(CLI.specs.map(\.name)).count == CLI.commands.count)
        for spec in CLI.specs {
            #expect(Set(spec.options.map(\.name)).count == spec.options.count, "\(spec.name) declares an option twice")
            for option in spec.options {
                #expect(!option.help.isEmpty, "\(spec.name) --\(option.name) has no help")
                #expect(spec.help.contains("  \(option.synopsis) "), "\(spec.name) --help does not show \(option.synopsis)")
            }
        }
    }

    @Test("a value the typed options cannot read is a usage error naming the option and the value")
    func typedValues() {
        #expect(usageError(RunCommand.self, ["--jobs", "0"])?.message == "--jobs must be a whole number from 1 to 256, found '0'")
        #expect(usageError(RunCommand.self, ["--gate", "some"])?.message == "--gate must be core, quality or all, found 'some'")
        #expect(usageError(RunCommand.self, ["--evidence", "none"])?.message == "--evidence must be failures or all, found 'none'")
        #expect(usageError(ListCommand.self, ["--level", "x"])?.message == "--level must be source, derived or recommendation, found 'x'")
        #expect(usageError(RunCommand.self, ["--call-timeout", "0", "--adapter-command", "x"])?.message.hasPrefix("--call-timeout must be") == true)
        #expect(usageError(ExploreCommand.self, ["--seconds", "-1"])?.message == "--seconds must be a positive number, found '-1'")
        #expect(usageError(ExploreCommand.self, ["--budget", "0"])?.command == "explore")
    }

    @Test("a value the command does not know is a usage error that names its option first")
    func unknownValues() {
        #expect(usageError(RunCommand.self, ["--format", "json,pdf"])?.message == "--format: unknown report format 'pdf'; use json, md, junit or html")
        #expect(usageError(RunCommand.self, ["--target", "windows-11"])?.message.hasPrefix("--target: unknown target 'windows-11'; known targets: ") == true)
        #expect(usageError(RunCommand.self, ["--mutant", "no-such"])?.message.hasPrefix("--mutant: unknown mutant 'no-such'") == true)
        #expect(usageError(SelfTestCommand.self, ["--mutant", "no-such"])?.message == "--mutant: unknown mutant 'no-such'")
        #expect(usageError(ExploreCommand.self, ["--criterion", "N9.9"])?.message.hasPrefix("--criterion: no invariant checks 'N9.9'") == true)
        #expect(usageError(RunCommand.self, ["--sign-key", "/nonexistent", "--bundle", "b"])?.message.hasPrefix("--sign-key is not accepted by run") == true)
        #expect(usageError(VerifyCommand.self, ["b", "--public-key", "/nonexistent"])?.message.hasPrefix("--public-key: cannot read") == true)
    }

    @Test("typed options carry what the command line says")
    func typedOptions() throws {
        let run = try command(
            RunCommand.self, ["--jobs", "3", "--gate", "core", "--evidence", "all", "--target", "apple-18,android-15-gpm", "--seed", "7", "--no-timings"])
        #expect(run.jobs == 3 && run.gate == .core && run.transcriptsForPasses && run.seed == 7 && run.withoutTimings)
        #expect(run.selection.targets == ["apple-18", "android-15-gpm"])
        #expect(run.selection.filterText == ["target": "apple-18,android-15-gpm"])
        let explore = try command(ExploreCommand.self, ["--seconds", "2"])
        #expect(explore.budget == Int.max && !explore.budgetGiven && explore.seconds == 2)
    }

    @Test("explore and selftest read --design the same way: a fixed id or a knob specification")
    func designs() throws {
        let specification = "knobs:lookup-retries=2;submission-retries=1"
        let explore = try command(ExploreCommand.self, ["--design", specification])
        let selfTest = try command(SelfTestCommand.self, ["--design", specification])
        guard case .reference(let design?, nil) = explore.adapter else {
            Issue.record("explore's --design made no design")
            return
        }
        #expect(selfTest.designs == [design])
        #expect(design == (try ReferenceDesign.parse(specification)))
        // Written out whole (every knob), so that a later change of a knob's default cannot change the re-run.
        #expect(explore.adapter.runSubject.shellWords == ["--design", "\"\(design.specification)\""], "the re-run line quotes the specification for the shell")
        let fixed = try command(ExploreCommand.self, ["--design", "upgrade-after-3s", "--mutant", "double-request"])
        #expect(fixed.adapter.runSubject == .reference(design: "upgrade-after-3s", mutant: "double-request"))
        #expect(fixed.adapter.runSubject.shellWords == ["--design", "upgrade-after-3s", "--mutant", "double-request"])
        for bad in ["knobs:no-such-knob=1", "no-such-design"] {
            let fromExplore = usageError(ExploreCommand.self, ["--design", bad])
            let fromSelfTest = usageError(SelfTestCommand.self, ["--design", bad])
            #expect(fromExplore != nil && fromSelfTest != nil, "\(bad)")
            #expect(fromExplore?.message.hasPrefix(fromSelfTest?.message.prefix(20) ?? "-") == true, "\(bad): \(String(describing: fromExplore))")
        }
        #expect(
            usageError(ExploreCommand.self, ["--design", "upgrade-after-3s", "--adapter-command", "x"])?.message
                == "--design and --adapter-command exclude each other")
    }
}

/// `help <command>` and unknown commands, through the binary.
@Suite("passkey-conformance help <command>", binaryBuilt)
struct HelpCommandTests {
    @Test("help <command> prints the command's --help", arguments: ["run", "explore", "gherkin"])
    func helpCommand(_ name: String) async throws {
        let help = try await Binary.run(["help", name])
        let option = try await Binary.run([name, "--help"])
        #expect(help.status == 0, "\(help)")
        #expect(help.stdout == option.stdout && help.stdout.contains("USAGE: passkey-conformance \(name)"), "\(help)")
    }

    @Test("help with an unknown command is a usage error naming it")
    func helpUnknown() async throws {
        let result = try await Binary.run(["help", "frobnicate"])
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("error: unknown command 'frobnicate'") && result.stderr.contains("COMMANDS:"), "\(result)")
    }

    @Test("explore runs a design given by its knobs, as selftest does")
    func exploreKnobs() async throws {
        let result = try await Binary.run(
            ["explore", "--design", "knobs:lookup-retries=2;submission-retries=1", "--budget", "20", "--no-reports"] + Binary.criteria)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("explore: 20 histories"), "\(result)")
    }
}

/// The command explore prints to run its finding runs, whatever relying party it explored.
@Suite("explore's Run it line", binaryBuilt)
struct ExploreRunItTests {
    @Test("the Run it line of a finding on a mutant built on a design runs, and fails that mutant")
    func runItOnDesign() async throws {
        let directory = try PackagePaths.temporaryDirectory("e2e-explore-design")
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("explore").path
        let explored = try await Binary.run(
            ["explore", "--mutant", "late-response-to-current-account", "--design", "upgrade-after-3s", "--budget", "300", "--seed", "4", "--out", out]
                + Binary.criteria)
        #expect(explored.status == 1, "\(explored)")
        let line = try #require(explored.stdout.split(separator: "\n").first { $0.hasPrefix("Run it: passkey-conformance run ") }, "\(explored)")
        let arguments = line.dropFirst("Run it: passkey-conformance ".count).split(separator: " ").map(String.init)
        #expect(arguments.contains("--design"), "\(line)")
        let rerun = try await Binary.run(arguments + ["--no-reports", "--quiet"])
        #expect(rerun.status == 1, "the scenario fails the mutant it was found on: \(rerun)")
    }
}
