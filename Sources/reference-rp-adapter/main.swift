// The reference relying party as a stand-alone adapter: JSON-RPC 2.0 over stdin/stdout.
// `reference-rp-adapter [--mutant <id>] [--design <id>] [--latency-ms <n>] [--protocol-version <v>] [--crash-on <text>] [--listen unix:PATH|tcp:127.0.0.1:PORT]`;
// see Documentation/adapter-protocol.md.
import ConformanceModel
import PasskeyConformanceAdapter
import Foundation
import ReferenceRP

let usage =
    "usage: reference-rp-adapter [--mutant <id>] [--design <id>] [--latency-ms <n>] [--protocol-version <v>] [--crash-on <text>] [--listen unix:PATH|tcp:127.0.0.1:PORT]"

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("reference-rp-adapter: \(message)\n\(usage)\n".utf8))
    exit(64)
}

var mutation: Mutation?
var design = ReferenceDesign.reference
var latencyMillis = 0
var protocolVersion: String?
var crashOn: String?
var listenAt: ChannelAddress?
var arguments = Array(CommandLine.arguments.dropFirst())[...]
while let option = arguments.popFirst() {
    guard let value = arguments.popFirst() else { fail("\(option) needs a value") }
    switch option {
    case "--mutant":
        guard let chosen = Mutation(rawValue: value) else { fail("unknown mutant '\(value)'") }
        mutation = chosen
    case "--design":
        // One of the conforming designs `passkey-conformance selftest --list-designs` shows.
        guard let chosen = ([.reference] + ReferenceDesign.variants).first(where: { $0.id == DesignID(rawValue: value) }) else {
            fail("unknown design '\(value)'; one of: " + ([.reference] + ReferenceDesign.variants).map(\.id.rawValue).joined(separator: ", "))
        }
        design = chosen
    case "--latency-ms":
        // Each session.* answer waits this long, as a relying party across a network would.
        guard let millis = Int(value), (0...60_000).contains(millis) else {
            fail("--latency-ms takes a whole number of milliseconds from 0 to 60000, not '\(value)'")
        }
        latencyMillis = millis
    case "--protocol-version":
        // Answer adapter.hello as an adapter of this version (`1.0`: the harness runs it without 1.1's features).
        protocolVersion = value
    case "--crash-on":
        // Exit (status 70) when a session opens for a test case whose id contains the text: a crash
        // while other test cases are in flight, for the tests of `run --jobs`.
        crashOn = value
    case "--listen":
        // Serve harnesses that connect to this socket (`passkey-conformance run --adapter-connect`),
        // one after another or at once, until the process is stopped; stdio is not read.
        do {
            listenAt = try ChannelAddress(parsing: value)
        } catch {
            fail("--listen: \(error)")
        }
    default:
        fail("unknown option '\(option)'")
    }
}
let configuration = JSONRPCAdapterServer.Configuration(answerLatency: .milliseconds(latencyMillis))
let relyingParty = ReferenceRP(mutation: mutation, design: design)
let adapter: any RelyingPartyAdapter =
    protocolVersion == nil && crashOn == nil
    ? relyingParty : ReshapedAdapter(base: relyingParty, protocolVersion: protocolVersion, crashOn: crashOn)
let server = JSONRPCAdapterServer(adapter: adapter, configuration: configuration)
if let listenAt {
    do {
        let listener = try ChannelListener(address: listenAt)
        // One line on standard error once connections are accepted: scripts wait for it.
        try await server.run(listener: listener) { FileHandle.standardError.write(Data("reference-rp-adapter: listening at \(listenAt)\n".utf8)) }
    } catch {
        FileHandle.standardError.write(Data("reference-rp-adapter: \(error)\n".utf8))
        exit(70)
    }
} else {
    await server.run()
}
