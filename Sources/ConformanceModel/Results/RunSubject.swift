/// What a run ran against, as the command line chose it: the embedded reference RP (on a design,
/// broken by a mutant), an adapter process the harness starts, or an adapter it connects to.
///
/// Re-run lines, explore's re-run commands and the reports' adapter line are derived from it, never
/// from the adapter's display name. The reports keep it in the members they always had
/// (`metadata.subject`, `metadata.adapter.command`) and in `metadata.adapter.connect` for a socket.
public enum RunSubject: Sendable, Hashable {
    /// The embedded reference RP; `design` is a fixed design's id or a `knobs:` specification.
    case reference(design: String?, mutant: String?)
    /// An adapter process started through `/bin/sh -c` (`--adapter-command`).
    case adapterCommand(String)
    /// An adapter listening on a stream socket (`--adapter-connect`, `unix:PATH` or `tcp:HOST:PORT`).
    case adapterConnection(String)

    /// The options that choose it again, as `(name, value)` pairs in command-line order.
    public var options: [(name: String, value: String)] {
        switch self {
        case .reference(let design, let mutant):
            (design.map { [("design", $0)] } ?? []) + (mutant.map { [("mutant", $0)] } ?? [])
        case .adapterCommand(let line): [("adapter-command", line)]
        case .adapterConnection(let address): [("adapter-connect", address)]
        }
    }

    /// The options as shell words: `--design 'knobs:a=1;b=2'` quoted where a shell would not read
    /// the value back unchanged (an adapter command always double-quoted).
    public var shellWords: [String] {
        options.flatMap { option in
            ["--" + option.name, option.name == "adapter-command" ? ShellWords.doubleQuoted(option.value) : ShellWords.word(option.value)]
        }
    }
}

extension RunMetadata {
    /// What the run ran against, from the members the reports keep it in.
    public var runSubject: RunSubject {
        get {
            if let command = adapter.command { return .adapterCommand(command) }
            if let address = adapter.connect { return .adapterConnection(address) }
            return .reference(design: subject?.design, mutant: subject?.mutant)
        }
        set {
            adapter.command = nil
            adapter.connect = nil
            subject = nil
            switch newValue {
            case .reference(nil, nil): break
            case .reference(let design, let mutant): subject = Subject(design: design, mutant: mutant)
            case .adapterCommand(let line): adapter.command = line
            case .adapterConnection(let address): adapter.connect = address
            }
        }
    }
}

/// Words for a POSIX shell.
public enum ShellWords {
    /// A word as is when the shell would read it unchanged, otherwise double-quoted.
    public static func word(_ text: String) -> String {
        let plain =
            !text.isEmpty
            && text.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "._-+=@%:,/".unicodeScalars.contains($0)
            }
        return plain ? text : doubleQuoted(text)
    }

    /// `"text"`: `\`, `"`, `$` and `` ` `` escaped, line breaks as spaces.
    public static func doubleQuoted(_ text: String) -> String {
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
