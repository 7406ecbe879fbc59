import Foundation
import Testing
import TestSupportCore
@testable import WebAuthn

/// Runs `Python/check_webauthn.py`, which decodes the bytes with `cbor2` and verifies the ES256
/// signature with `cryptography`, sharing no code with this module.
enum PythonChecker {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Python").appendingPathComponent("check_webauthn.py")

    static let skipNote: Comment = "needs python3 with the cbor2 and cryptography modules (pip install cbor2 cryptography)"

    /// Whether python3 and both modules can be imported; computed once.
    static let isAvailable: Bool = (try? run(["-c", "import cbor2, cryptography"]).status) == 0

    /// Runs python3 with `arguments`, returning its exit status and standard output.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Writes a registration and an assertion to a new temporary directory and returns it.
    static func writeCeremony(fault: VirtualAuthenticator.Fault? = nil) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("webauthn-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let ceremony = try Ceremony(configuration: .init(credentialIdLength: 32))
        let (registration, registrationJSON) = try ceremony.register(flags: [.userPresent, .userVerified, .backupEligible])
        let assertionJSON = Ceremony.clientData(.get).jsonBytes
        let assertion = try ceremony.authenticator.getAssertion(
            credential: registration.credential,
            clientDataHash: SHA256.hash(assertionJSON), fault: fault)
        let expected = """
            {"rpId":"\(Ceremony.rpId)","origin":"\(Ceremony.origin)",\
            "registrationChallenge":"\(Base64URL.encode(Ceremony.registrationChallenge))",\
            "assertionChallenge":"\(Base64URL.encode(Ceremony.assertionChallenge))"}
            """
        let files: [(String, Data)] = [
            ("expected.json", Data(expected.utf8)),
            ("registration.clientDataJSON", registrationJSON),
            ("registration.attestationObject", registration.attestationObject),
            ("assertion.clientDataJSON", assertionJSON),
            ("assertion.authenticatorData", assertion.authenticatorData),
            ("assertion.signature", assertion.signature),
        ]
        for (name, data) in files { try data.write(to: directory.appendingPathComponent(name)) }
        return directory
    }
}

@Suite("Independent check with Python cbor2 and cryptography", .heavy)
struct PythonCrossCheckTests {
    @Test(.enabled(if: PythonChecker.isAvailable, PythonChecker.skipNote))
    func pythonAcceptsGeneratedBytes() throws {
        let directory = try PythonChecker.writeCeremony()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try PythonChecker.run([PythonChecker.script.path, directory.path])
        #expect(result.status == 0, "checker output: \(result.output)")
        #expect(result.output.contains("ES256 signature over authData || SHA-256(clientDataJSON) verifies"))
        #expect(result.output.contains("COSE key is canonical CBOR"))
    }

    /// The checker must be able to fail: an injected bad signature is caught.
    @Test(.enabled(if: PythonChecker.isAvailable, PythonChecker.skipNote))
    func pythonRejectsAnInvalidSignature() throws {
        let directory = try PythonChecker.writeCeremony(fault: .signatureOverOtherData)
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try PythonChecker.run([PythonChecker.script.path, directory.path])
        #expect(result.status == 1, "checker output: \(result.output)")
        #expect(result.output.contains(#""failures": ["#))
        #expect(result.output.contains("signature over authData"))
    }
}
