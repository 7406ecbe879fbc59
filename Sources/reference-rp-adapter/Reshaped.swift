import ConformanceModel
import Foundation

/// The reference relying party with what the tests of the transport need changed: the protocol
/// version it answers `adapter.hello` with, and a test case during which the process dies.
struct ReshapedAdapter: RelyingPartyAdapter {
    let base: any RelyingPartyAdapter
    /// The version `adapter.hello` answers, when not the harness's own.
    let protocolVersion: String?
    /// The process exits (status 70) when it opens a session whose test case id contains this.
    let crashOn: String?

    func describe() async throws -> AdapterDescription {
        var description = try await base.describe()
        if let protocolVersion { description.protocolVersion = protocolVersion }
        return description
    }

    func openSession(_ context: SessionContext, host: any PlatformHost) async throws -> any RelyingPartySession {
        if let crashOn, context.testCase.contains(crashOn) {
            FileHandle.standardError.write(Data("reference-rp-adapter: exiting on purpose in \(context.testCase)\n".utf8))
            exit(70)
        }
        return try await base.openSession(context, host: host)
    }

    func shutdown() async { await base.shutdown() }
}
