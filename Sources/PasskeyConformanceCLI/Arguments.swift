/// A bad command line: the message says what is wrong; the exit status is 64.
public struct UsageError: Error, Sendable, CustomStringConvertible {
    /// What is wrong with the command line, in a sentence.
    public var message: String
    /// The command whose `--help` the error points to; `nil` for the command that was run.
    public var command: String?
    /// Creates a usage error, optionally naming the command whose help to show.
    public init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }
    /// The message.
    public var description: String { message }
}

/// What a command accepts, for parsing and for `--help`.
struct CommandSpec: Sendable {
    struct Option: Sendable {
        var name: String
        var value: String
        var help: String
        var repeatable = false
    }

    var name: String
    var summary: String
    var usage: String
    var options: [Option]
    var flags: [(name: String, help: String)]
    var positionals: (min: Int, max: Int, name: String)

    var help: String {
        var lines = ["OVERVIEW: \(summary)", "", "USAGE: passkey-conformance \(usage)", ""]
        if !options.isEmpty || !flags.isEmpty {
            lines.append("OPTIONS:")
            let rows =
                options.map { ("--\($0.name) <\($0.value)>", $0.help + ($0.repeatable ? " (repeatable, or comma-separated)" : "")) }
                + flags.map { ("--\($0.name)", $0.help) } + [("-h, --help", "Show this help.")]
            let width = rows.map(\.0.count).max() ?? 0
            for (left, right) in rows {
                lines.append("  " + left.padding(toLength: width + 2, withPad: " ", startingAt: 0) + right)
            }
        }
        return lines.joined(separator: "\n")
    }
}

/// A parsed command line.
struct ParsedArguments: Sendable {
    var options: [String: [String]] = [:]
    var flags: Set<String> = []
    var positionals: [String] = []
    var wantsHelp = false

    func value(_ name: String) -> String? { options[name]?.last }

    /// All values of a repeatable option, split at commas.
    func list(_ name: String) -> [String] {
        (options[name] ?? []).flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }.filter { !$0.isEmpty }
    }

    static func parse(_ arguments: [String], spec: CommandSpec) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "-h" || argument == "--help" {
                parsed.wantsHelp = true
                continue
            }
            if argument == "--" {
                parsed.positionals += arguments[index...]
                break
            }
            if argument.hasPrefix("--") {
                var name = String(argument.dropFirst(2))
                var inline: String?
                if let equals = name.firstIndex(of: "=") {
                    inline = String(name[name.index(after: equals)...])
                    name = String(name[..<equals])
                }
                if let option = spec.options.first(where: { $0.name == name }) {
                    let value: String
                    if let inline {
                        value = inline
                    } else {
                        guard index < arguments.count else { throw UsageError("--\(name) needs a value <\(option.value)>", command: spec.name) }
                        value = arguments[index]
                        index += 1
                    }
                    if !option.repeatable, parsed.options[name] != nil {
                        throw UsageError("--\(name) is given more than once", command: spec.name)
                    }
                    parsed.options[name, default: []].append(value)
                } else if spec.flags.contains(where: { $0.name == name }) {
                    guard inline == nil else { throw UsageError("--\(name) takes no value", command: spec.name) }
                    parsed.flags.insert(name)
                } else {
                    throw UsageError("unknown option '--\(name)'", command: spec.name)
                }
                continue
            }
            if argument.hasPrefix("-"), argument.count > 1 {
                throw UsageError("unknown option '\(argument)'", command: spec.name)
            }
            parsed.positionals.append(argument)
        }
        if !parsed.wantsHelp {
            if parsed.positionals.count < spec.positionals.min {
                throw UsageError("missing \(spec.positionals.name)", command: spec.name)
            }
            if parsed.positionals.count > spec.positionals.max {
                throw UsageError("unexpected argument '\(parsed.positionals[spec.positionals.max])'", command: spec.name)
            }
        }
        return parsed
    }
}
