/// A bad command line: the message says what is wrong; the exit status is 64.
package struct UsageError: Error, Sendable, CustomStringConvertible {
    /// What is wrong with the command line, in a sentence.
    package var message: String
    /// The command whose `--help` the error points to; `nil` for the command that was run.
    package var command: String?
    /// Creates a usage error, optionally naming the command whose help to show.
    package init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }
    /// The message.
    package var description: String { message }
}

/// What a command accepts, declared once: the parser reads the command line through it and
/// `--help` is printed from it.
struct CommandSpec: Sendable {
    /// One option of a command.
    struct Option: Sendable {
        /// What follows the option's name on the command line.
        enum Kind: Sendable, Equatable {
            /// Nothing: the option is a flag (`--quiet`).
            case flag
            /// One value, shown in the help as `<placeholder>` (`--out <dir>`).
            case value(placeholder: String)
        }

        var name: String
        var kind: Kind
        var help: String
        /// Whether the option may be given several times (its values may also be comma-separated).
        var repeatable = false

        /// An option that takes a value.
        init(name: String, value: String, help: String, repeatable: Bool = false) {
            self.name = name
            self.kind = .value(placeholder: value)
            self.help = help
            self.repeatable = repeatable
        }

        /// An option that takes no value.
        static func flag(_ name: String, _ help: String) -> Option {
            var option = Option(name: name, value: "", help: help)
            option.kind = .flag
            return option
        }

        /// `--name <placeholder>` or `--name`, as the help shows it.
        var synopsis: String {
            switch kind {
            case .flag: "--\(name)"
            case .value(let placeholder): "--\(name) <\(placeholder)>"
            }
        }
    }

    /// How many arguments that are not options the command takes, and what to call them.
    struct Positionals: Sendable {
        var min: Int
        var max: Int
        var name: String
        /// No argument beside the options.
        static let none = Positionals(min: 0, max: 0, name: "")
    }

    var name: String
    var summary: String
    var usage: String
    var options: [Option]
    var positionals: Positionals = .none

    /// The option called `name`, if the command has one.
    func option(_ name: String) -> Option? { options.first { $0.name == name } }

    /// The command's `--help`: its summary, its usage and every option of its table (those that
    /// take a value first, then the flags).
    var help: String {
        var lines = ["OVERVIEW: \(summary)", "", "USAGE: passkey-conformance \(usage)", ""]
        if !options.isEmpty {
            lines.append("OPTIONS:")
            let ordered = options.filter { $0.kind != .flag } + options.filter { $0.kind == .flag }
            let rows =
                ordered.map { ($0.synopsis, $0.help + ($0.repeatable ? " (repeatable, or comma-separated)" : "")) } + [("-h, --help", "Show this help.")]
            let width = rows.map(\.0.count).max() ?? 0
            for (left, right) in rows {
                lines.append("  " + left.padding(toLength: width + 2, withPad: " ", startingAt: 0) + right)
            }
        }
        return lines.joined(separator: "\n")
    }
}

/// A command line read through a command's table: every option known, every value where the table
/// says one goes. The typed readers below turn the values into what the command uses; a value they
/// cannot read is a usage error that names the option.
struct ParsedArguments: Sendable {
    /// The command's table.
    var spec: CommandSpec
    var options: [String: [String]] = [:]
    var flags: Set<String> = []
    var positionals: [String] = []
    var wantsHelp = false

    /// The command's name, for the usage errors' pointer to its help.
    var command: String { spec.name }

    /// The value of a single-valued option, `nil` when it is not given.
    func value(_ name: String) -> String? {
        assert(spec.option(name) != nil, "'\(spec.name)' has no option --\(name)")
        return options[name]?.last
    }

    /// All values of a repeatable option, split at commas.
    func list(_ name: String) -> [String] {
        assert(spec.option(name)?.repeatable == true, "'\(spec.name)' has no repeatable option --\(name)")
        return (options[name] ?? []).flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }.filter { !$0.isEmpty }
    }

    /// Whether a flag is given.
    func flag(_ name: String) -> Bool {
        assert(spec.option(name)?.kind == .flag, "'\(spec.name)' has no flag --\(name)")
        return flags.contains(name)
    }

    /// A usage error of this command.
    func usageError(_ message: String) -> UsageError { UsageError(message, command: spec.name) }

    /// A usage error about the value of one option, named first: `--name: message`.
    func usageError(option name: String, _ message: String) -> UsageError { usageError("--\(name): \(message)") }

    /// A whole number within `range`; `nil` when the option is not given. The error says
    /// "--name must be <what>, found '<text>'".
    func wholeNumber<Number: FixedWidthInteger>(_ name: String, in range: ClosedRange<Number>, described what: String) throws(UsageError) -> Number? {
        guard let text = value(name) else { return nil }
        guard let number = Number(text), range.contains(number) else { throw usageError("--\(name) must be \(what), found '\(text)'") }
        return number
    }

    /// One of `choices` (given by their spelling on the command line); `nil` when the option is not given.
    func choice<Value>(_ name: String, _ choices: KeyValuePairs<String, Value>) throws(UsageError) -> Value? {
        guard let text = value(name) else { return nil }
        guard let found = choices.first(where: { $0.key == text }) else {
            let words = choices.map(\.key)
            let spelled = words.count < 2 ? words.joined() : words.dropLast().joined(separator: ", ") + " or " + words.last!
            throw usageError("--\(name) must be \(spelled), found '\(text)'")
        }
        return found.value
    }

    /// A value read by `read`; `nil` when the option is not given, a usage error saying
    /// "--name must be <what>, found '<text>'" when `read` returns `nil`.
    func parsed<Value>(_ name: String, described what: String, _ read: (String) -> Value?) throws(UsageError) -> Value? {
        guard let text = value(name) else { return nil }
        guard let result = read(text) else { throw usageError("--\(name) must be \(what), found '\(text)'") }
        return result
    }

    /// Reads `arguments` (the command line after the command's name) through `spec`.
    static func parse(_ arguments: [String], spec: CommandSpec) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments(spec: spec)
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
                guard let option = spec.option(name) else { throw UsageError("unknown option '--\(name)'", command: spec.name) }
                switch option.kind {
                case .flag:
                    guard inline == nil else { throw UsageError("--\(name) takes no value", command: spec.name) }
                    parsed.flags.insert(name)
                case .value(let placeholder):
                    let value: String
                    if let inline {
                        value = inline
                    } else {
                        guard index < arguments.count else { throw UsageError("--\(name) needs a value <\(placeholder)>", command: spec.name) }
                        value = arguments[index]
                        index += 1
                    }
                    if !option.repeatable, parsed.options[name] != nil {
                        throw UsageError("--\(name) is given more than once", command: spec.name)
                    }
                    parsed.options[name, default: []].append(value)
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
