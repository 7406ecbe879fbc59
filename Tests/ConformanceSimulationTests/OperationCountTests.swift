import ConformanceModel
import ConformanceSimulation
import Foundation
import Testing

/// The host counts its operations by kind and status as a snapshot would, without copying one.
@Suite("Operation counts")
struct OperationCountTests {
    static func create(_ name: String) -> CreateCredentialRequest {
        .apple(
            AppleRegistrationRequest(
                relyingPartyIdentifier: "login.example.com", challenge: Data([1, 2, 3]), name: name, userID: Data(name.utf8), requestStyle: .conditional))
    }

    @Test("held, pending and delivered registrations are counted as the snapshot lists them, and other kinds are not")
    func countsMatchTheSnapshot() throws {
        let target = try #require(TargetCatalog.target(id: "apple-18"))
        let host = SimulationHost(simulator: try PlatformSimulator(target: target, associatedRPIDs: ["login.example.com"], seed: 1))
        host.withProvider { $0.holdRegistrations = true }
        for name in ["alice@example.com", "bob@example.com", "carol@example.com"] { _ = host.createCredential(Self.create(name)) }
        #expect(host.count(.create, in: .held) == 3 && host.count(.create, in: .pending) == 0)
        host.release(.create, onlyFirst: true)
        _ = host.takeDeliverable()
        host.release(.create, onlyFirst: true)
        #expect(host.count(.create, in: .held) == 1 && host.count(.create, in: .pending) == 1 && host.count(.create, in: .delivered) == 1)
        #expect(host.count(.get, in: .pending) == 0 && host.count(.signal, in: .held) == 0)
        for status in [PlatformOperation.Status.held, .pending, .delivered] {
            #expect(host.count(.create, in: status) == host.snapshot.operations.filter { $0.kind == .create && $0.status == status }.count)
        }
    }
}
