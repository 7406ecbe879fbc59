import ConformanceKit
import Foundation
import Testing

/// Each platform family sits behind one seam: listed once, answering only its own requests, owning
/// its failure classes and its targets; a platform operation holds exactly the payload of its call.
@Suite("Platform seam")
struct PlatformSeamTests {
    static let appleCreate = CreateCredentialRequest.apple(
        AppleRegistrationRequest(
            relyingPartyIdentifier: "login.example.com", challenge: Data([1, 2, 3]), name: "alice@example.com", userID: Data([4, 5]),
            requestStyle: .conditional))
    static let androidSignal = SignalRequest.android(
        AndroidSignalRequest(type: AndroidSignalRequest.unknownCredentialType, requestJson: #"{"rpId":"login.example.com","credentialId":"AQI"}"#))

    @Test("every platform family has exactly one reader, and each reads its own family; the web is read, never simulated whole")
    func oneSimulationPerFamily() {
        #expect(
            PlatformFamilies.readers.map(\.family).sorted { $0.rawValue < $1.rawValue } == PlatformFamily.allCases.sorted { $0.rawValue < $1.rawValue })
        #expect(!PlatformFamilies.all.contains { $0.family == .web })
        #expect(!SimulatedPlatforms().serves(TargetCatalog.web[0]) && TargetCatalog.web.allSatisfy { $0.platform == .web })
        for family in PlatformFamily.allCases { #expect(PlatformFamilies.simulation(of: family).family == family) }
    }

    @Test("a family's failure classes and targets are of that family")
    func ownedByTheirFamily() {
        for simulation in PlatformFamilies.readers {
            #expect(!simulation.createFailureClasses.isEmpty)
            // A DOMException is a name and a message: the general error form.
            let errorFamily: PlatformFamily? = simulation.family == .web ? nil : simulation.family
            #expect(simulation.createFailureClasses.allSatisfy { $0.platform == simulation.family && $0.error.family == errorFamily })
        }
        #expect(TargetCatalog.apple.allSatisfy { $0.platform == .apple } && TargetCatalog.android.allSatisfy { $0.platform == .android })
        #expect(Set(TargetCatalog.all.map(\.id)).count == TargetCatalog.all.count)
    }

    @Test("a family handed another family's request refuses it as written for the wrong platform, never crashes")
    func wrongFamilyRefused() throws {
        let android = PlatformFamilies.simulation(of: .android)
        let apple = PlatformFamilies.simulation(of: .apple)
        #expect(throws: PlatformError.general(name: "UnsupportedPlatform", message: "request for the wrong platform")) {
            try android.readRegistration(Self.appleCreate).get()
        }
        #expect(throws: PlatformError.general(name: "UnsupportedPlatform", message: "request for the wrong platform")) {
            try apple.readSignal(Self.androidSignal).get()
        }
        #expect(try apple.readRegistration(Self.appleCreate).get().conditional)
        #expect(
            android.signalSummary(Self.androidSignal) == SignalSummary(kind: .unknownCredential, interface: "signalCredentialState", rpID: "login.example.com"))
        #expect(apple.signalSummary(Self.androidSignal) == SignalSummary(kind: nil, interface: "?"))
    }

    @Test("an operation holds its call's request and reading, and the read helpers of the other calls are empty")
    func operationHoldsItsCall() throws {
        let target = try #require(TargetCatalog.target(id: "apple-18"))
        let host = SimulationHost(simulator: try PlatformSimulator(target: target, associatedRPIDs: ["login.example.com"], seed: 1))
        let id = host.createCredential(Self.appleCreate)
        let operation = try #require(host.snapshot.operations.first { $0.id == id })
        guard case .create(let request, let registration) = operation.call else {
            Issue.record("a registration was recorded as \(operation.kind)")
            return
        }
        #expect(request == Self.appleCreate && operation.kind == .create && operation.call.platform == .apple)
        #expect(registration?.userName == "alice@example.com" && operation.registration == registration)
        #expect(operation.getRequest == nil && operation.signalRequest == nil && operation.signal == nil)
    }

    @Test("a request the host read already gives the simulator's own answer: registrations and signals, good and malformed")
    func readOnceGivesTheSameAnswer() throws {
        let android = try #require(TargetCatalog.target(id: "android-15-gpm"))
        let apple = try #require(TargetCatalog.target(id: "apple-26.2"))
        let malformed = CreateCredentialRequest.android(AndroidCreatePublicKeyCredentialRequest(requestJson: #"{"user":{}}"#, isConditional: true))
        let badSignal = SignalRequest.android(AndroidSignalRequest(type: AndroidSignalRequest.unknownCredentialType, requestJson: "[]"))
        func simulator(_ target: Target) throws -> PlatformSimulator {
            try PlatformSimulator(target: target, associatedRPIDs: ["login.example.com"], seed: 5)
        }
        for (target, request) in [(apple, Self.appleCreate), (android, malformed)] {
            var own = try simulator(target)
            var given = try simulator(target)
            let answer = own.create(request, now: 0)
            #expect(given.create(request, read: RegistrationView.read(request), now: 0) == answer)
        }
        for request in [Self.androidSignal, badSignal] {
            var own = try simulator(android)
            var given = try simulator(android)
            let answer = own.signal(request, now: 0)
            #expect(given.signal(request, read: SignalView.read(request), now: 0) == answer)
        }
    }

    @Test("a target id is written as the plain string, and reads back")
    func targetIDPlainString() throws {
        let target = try #require(TargetCatalog.target(id: TargetID(rawValue: "android-15-gpm")))
        let text = String(decoding: try Wire.encoder().encode([target.id]), as: UTF8.self)
        #expect(text == #"["android-15-gpm"]"#)
        #expect(try Wire.decoder().decode([TargetID].self, from: Data(text.utf8)) == [target.id])
        #expect("\(target.id)" == "android-15-gpm" && TargetCatalog.target(id: "android-15-gpm") == target)
    }
}
