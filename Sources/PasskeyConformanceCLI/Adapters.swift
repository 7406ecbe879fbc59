import ConformanceJSONRPC
import ConformanceKit
import Foundation
import PasskeyConformanceAdapter
import ReferenceRP

/// The relying party a command runs against, chosen by `--mutant`, `--design`, `--adapter-command`
/// and `--adapter-connect`; the adapter itself is made only when the command runs (`make()`).
enum AdapterChoice: Sendable {
    /// The embedded reference RP, built on `design` and broken by `mutation` when they are given.
    case reference(design: ReferenceDesign?, mutation: Mutation?)
    /// An adapter process speaking JSON-RPC over stdio, started through `/bin/sh -c`.
    case external(commandLine: String, configuration: ExternalAdapterConfiguration)
    /// An adapter listening on a stream socket, speaking JSON-RPC over it.
    case connected(address: ChannelAddress, configuration: ExternalAdapterConfiguration)

    /// The options `AdapterChoice` reads, declared once for every command that takes an adapter
    /// (`--design` is each command's own: its help differs).
    static let options: [CommandSpec.Option] = [
        .init(
            name: "adapter-command", value: "command",
            help: "The relying party behind an adapter process speaking JSON-RPC over stdio (default: the embedded reference RP)."),
        .init(
            name: "adapter-connect", value: "unix:path|tcp:127.0.0.1:port",
            help:
                "The relying party behind an adapter listening on a stream socket (a device-farm bridge, an adapter run as a service): JSON-RPC over the socket."
        ),
        .init(name: "mutant", value: "id", help: "A faulty variant of the reference RP (see 'selftest --list-mutants')."),
        .init(name: "call-timeout", value: "seconds", help: "Time-out of one adapter call (default 5)."),
        .init(name: "launch-timeout", value: "seconds", help: "Time the adapter has from its start (or the connection) to answer adapter.hello (default 10)."),
        .init(name: "test-case-timeout", value: "seconds", help: "Time-out of one test case over an adapter, from session.open (default 60)."),
    ]

    /// Reads `--mutant`, `--adapter-command` and `--adapter-connect` (with their time-outs); `design`
    /// is the command's `--design`, for the commands that have one.
    init(_ parsed: ParsedArguments, design: ReferenceDesign? = nil) throws(UsageError) {
        let chosen = ["mutant", "adapter-command", "adapter-connect"].filter { parsed.value($0) != nil }
        if chosen.count > 1 { throw parsed.usageError("--\(chosen[0]) and --\(chosen[1]) exclude each other") }
        if let id = parsed.value("mutant") {
            self = .reference(
                design: design, mutation: try MutantOption.mutation(id, parsed: parsed, hint: "; see 'passkey-conformance selftest --list-mutants'"))
            return
        }
        guard chosen.first != nil else {
            self = .reference(design: design, mutation: nil)
            return
        }
        if design != nil { throw parsed.usageError("--design and --\(chosen[0]) exclude each other") }
        let configuration = try ExternalAdapterConfiguration(parsed)
        if let line = parsed.value("adapter-command") {
            guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { throw parsed.usageError("--adapter-command is empty") }
            self = .external(commandLine: line, configuration: configuration)
        } else {
            let text = parsed.value("adapter-connect") ?? ""
            do {
                self = .connected(address: try ChannelAddress(parsing: text), configuration: configuration)
            } catch {
                throw parsed.usageError(option: "adapter-connect", "\(error)")
            }
        }
    }

    /// Whether the relying party is reached over JSON-RPC (a process or a socket).
    var isExternal: Bool {
        if case .reference = self { return false }
        return true
    }

    /// `in-process` or `json-rpc`, as the reports say.
    var transport: String { isExternal ? "json-rpc" : "in-process" }

    /// What the command runs against, as the reports and the re-run lines name it.
    var runSubject: RunSubject {
        switch self {
        case .reference(let design, let mutation):
            .reference(design: design.map { $0.isCombination ? $0.specification : $0.id.rawValue }, mutant: mutation?.id.rawValue)
        case .external(let line, _): .adapterCommand(line)
        case .connected(let address, _): .adapterConnection(address.description)
        }
    }

    /// The adapter.
    func make() -> any RelyingPartyAdapter {
        switch self {
        case .reference(let design, let mutation): ReferenceRP(mutation: mutation, design: design ?? .reference)
        case .external(let line, let configuration): configuration.adapter(commandLine: line)
        case .connected(let address, let configuration): JSONRPCAdapter(connectingTo: address, configuration: configuration.configuration)
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
}
