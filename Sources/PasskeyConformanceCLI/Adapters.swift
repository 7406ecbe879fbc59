import ConformanceKit
import ReferenceRP

/// The relying party a command runs against, chosen by `--mutant`, `--design` and
/// `--adapter-command`; the adapter itself is made only when the command runs (`make()`).
enum AdapterChoice: Sendable {
    /// The embedded reference RP, built on `design` and broken by `mutation` when they are given.
    case reference(design: ReferenceDesign?, mutation: Mutation?)
    /// An adapter process speaking JSON-RPC over stdio, started through `/bin/sh -c`.
    case external(commandLine: String, configuration: ExternalAdapterConfiguration)

    /// Reads `--mutant` and `--adapter-command` (with its time-outs); `design` is the command's
    /// `--design`, for the commands that have one.
    init(_ parsed: ParsedArguments, design: ReferenceDesign? = nil) throws(UsageError) {
        var mutation: Mutation?
        if let id = parsed.value("mutant") {
            mutation = try MutantOption.mutation(id, parsed: parsed, hint: "; see 'passkey-conformance selftest --list-mutants'")
            if parsed.value("adapter-command") != nil { throw parsed.usageError("--mutant and --adapter-command exclude each other") }
        }
        if mutation == nil, let line = parsed.value("adapter-command") {
            let configuration = try ExternalAdapterConfiguration(parsed)
            guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { throw parsed.usageError("--adapter-command is empty") }
            if design != nil { throw parsed.usageError("--design and --adapter-command exclude each other") }
            self = .external(commandLine: line, configuration: configuration)
        } else {
            self = .reference(design: design, mutation: mutation)
        }
    }

    /// `in-process` or `json-rpc`, as the reports say.
    var transport: String {
        switch self {
        case .reference: "in-process"
        case .external: "json-rpc"
        }
    }

    /// The variant of the reference RP, as the reports record it (`nil` for the reference itself and for an adapter).
    var subject: RunMetadata.Subject? {
        guard case .reference(let design, let mutation) = self, design != nil || mutation != nil else { return nil }
        return RunMetadata.Subject(design: design.map { $0.isCombination ? $0.specification : $0.id.rawValue }, mutant: mutation?.id.rawValue)
    }

    /// The adapter's command line, `nil` in process.
    var commandLine: String? {
        switch self {
        case .reference: nil
        case .external(let line, _): line
        }
    }

    /// The adapter.
    func make() -> any RelyingPartyAdapter {
        switch self {
        case .reference(let design, let mutation): ReferenceRP(mutation: mutation, design: design ?? .reference)
        case .external(let line, let configuration): configuration.adapter(commandLine: line)
        }
    }
}

/// `--mutant`: a faulty variant of the reference RP, by id.
enum MutantOption {
    /// The mutant called `id`; an unknown one is a usage error (followed by `hint`).
    static func mutation(_ id: String, parsed: ParsedArguments, hint: String = "") throws(UsageError) -> Mutation {
        guard let mutation = Mutation(rawValue: id) else { throw parsed.usageError(option: "mutant", "unknown mutant '\(id)'\(hint)") }
        return mutation
    }
}

/// `--design`: a conforming design of the reference RP, the same for every command that takes one:
/// a fixed design's id, or `knobs:name=value;…` (see `selftest --list-designs`).
enum DesignOption {
    /// The design `text` names; an unknown id or a bad knob specification is a usage error (an
    /// unknown id's followed by `hint`).
    static func design(_ text: String, parsed: ParsedArguments, hint: String) throws(UsageError) -> ReferenceDesign {
        if text.hasPrefix("knobs:") {
            do { return try ReferenceDesign.parse(text) } catch { throw parsed.usageError("--design: \(error)") }
        }
        guard let design = ReferenceDesign.all.first(where: { $0.id == DesignID(rawValue: text) }) else {
            throw parsed.usageError(option: "design", "unknown design '\(text)'\(hint)")
        }
        return design
    }

    /// `--design <text>` as a shell reads it back: quoted when the text holds anything but letters,
    /// digits and `-_.:=,`.
    static func argument(_ text: String) -> String {
        let plain = text.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.:=,".unicodeScalars.contains($0) }
        return "--design " + (plain ? text : "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'")
    }
}
