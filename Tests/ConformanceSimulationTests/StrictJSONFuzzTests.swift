import ConformanceModel
import ConformanceSimulation
import Foundation
import Testing

/// Mutated JSON texts never crash the strict reader: each is either read (and then survives a round
/// trip) or refused with a located error, and building and validating agree on every one.
@Suite("Strict JSON reader: fuzzing and the simulator")
struct StrictJSONFuzzTests {
    static let seeds: [String] = [
        #"{"jsonrpc":"2.0","id":7,"method":"session.perform","params":{"session":"s1","action":{"kind":"tap","x":-1.5e3}}}"#,
        #"[null,true,false,0,-0.25,1E+9,"a\"\\\/\b\f\n\r\t","\u00e9\uD83D\uDE00",[],{}]"#,
        "{\n  \"challenge\": \"AAECAw\",\n  \"rp\": {\"id\": \"login.example.com\"},\n  \"user\": {\"id\": \"AAEC\", \"name\": \"é😀\"}\n}",
        #"[[[[[{"a":[1,2,{"b":[3]}]}]]]]]"#,
        #""just a string with \u0041 and ünïcödé""#,
    ]

    /// Bytes that make mutations interesting: structure, escapes, digits, and bytes no JSON holds.
    static let interesting: [UInt8] = Array(#"{}[]",:\u0-.eE+D8"#.utf8) + [0xFF, 0xC3, 0xED, 0x00, 0x0A, 0x09, 0x20]

    static func mutate(_ input: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
        var bytes = input
        for _ in 0...random.below(3) {
            let position = bytes.isEmpty ? 0 : random.below(bytes.count)
            switch random.below(6) {
            case 0 where !bytes.isEmpty: bytes.remove(at: position)
            case 1: bytes.insert(random.pick(interesting), at: position)
            case 2 where !bytes.isEmpty: bytes[position] = random.pick(interesting)
            case 3 where !bytes.isEmpty:
                let end = min(bytes.count, position + 1 + random.below(12))
                bytes.insert(contentsOf: bytes[position..<end], at: random.below(bytes.count))
            case 4: bytes.removeSubrange(position...)
            case 5 where bytes.count > 1: bytes.swapAt(position, random.below(bytes.count))
            default: break
            }
        }
        return bytes
    }

    @Test("Mutated texts are read or refused with a position, never a crash, the same way by both entry points")
    func mutations() throws {
        var random = SplitMix64(seed: 0x15_0A_5E_ED)
        var accepted = 0
        var refused = 0
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        for round in 0..<6_000 {
            let bytes = Self.mutate(Array(random.pick(Self.seeds).utf8), &random)
            let excerpt = String(decoding: bytes.prefix(120), as: UTF8.self)
            var built: Result<JSONValue, JSONSyntaxError>
            do { built = .success(try JSONValue.parse(bytes)) } catch { built = .failure(error) }
            var validated: Result<JSONReader.ValueKind, JSONSyntaxError>
            do { validated = .success(try JSONReader.validate(bytes)) } catch { validated = .failure(error) }
            switch (built, validated) {
            case (.success(let value), .success(let kind)):
                accepted += 1
                #expect(kind == Self.kind(of: value), "round \(round): \(excerpt)")
                #expect(try JSONValue.parse(try encoder.encode(value)) == value, "round \(round): \(excerpt)")
            case (.failure(let error), .failure(let other)):
                refused += 1
                #expect(error == other, "round \(round): \(excerpt)")
                #expect((0...bytes.count).contains(error.offset), "round \(round): \(error)")
                #expect(!error.message.isEmpty)
                let before = bytes.prefix(error.offset)
                let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
                #expect(error.line == before.count(where: { $0 == 0x0A }) + 1 && error.column == error.offset - lineStart + 1, "\(error)")
            default:
                Issue.record("round \(round): parse \(built), validate \(validated) for \(excerpt)")
            }
        }
        // The mutations both keep and break texts, so both paths above were exercised.
        #expect(accepted > 300 && refused > 3_000, "accepted \(accepted), refused \(refused)")
    }

    static func kind(of value: JSONValue) -> JSONReader.ValueKind {
        switch value {
        case .null: .null
        case .bool: .bool
        case .number: .number
        case .string: .string
        case .array: .array
        case .object: .object
        }
    }

    // MARK: - The simulator judges unreadable Android JSON with the reader's message

    static func simulator() throws -> PlatformSimulator {
        try PlatformSimulator(target: try #require(TargetCatalog.target(id: "android-15-gpm")), associatedRPIDs: ["login.example.com"], seed: 1)
    }

    static let user = #""user":{"id":"AAECAw","name":"alice@example.com","displayName":"Alice"}"#

    @Test(
        "A registration requestJson with a repeated member or a leading zero is unreadable JSON, with the reader's message in the note",
        arguments: [
            (#"{"challenge":"AAECAw","challenge":"BAUG","rp":{"id":"login.example.com"},"# + user + "}", #"duplicate member name "challenge""#, 22),
            (#"{"challenge":"AAECAw","timeout":060000,"rp":{"id":"login.example.com"},"# + user + "}", "leading zero in a number", 32),
        ])
    func registration(json: String, fragment: String, offset: Int) throws {
        var simulator = try Self.simulator()
        let request = CreateCredentialRequest.android(AndroidCreatePublicKeyCredentialRequest(requestJson: json, isConditional: false))
        let (outcome, notes) = simulator.create(request, now: 0)
        let error = try #require(outcome.error)
        #expect(error.name == "IllegalArgumentException")
        #expect(error.message.contains("is not valid JSON: JSON error at byte \(offset) (line 1, column \(offset + 1)): \(fragment)"), "\(error.message)")
        #expect(notes.contains { $0.kind == .malformedRequest && $0.text == error.message }, "\(notes)")
    }

    @Test("A sign-in requestJson with a repeated rpId is unreadable JSON, with the reader's message in the note")
    func signIn() throws {
        var simulator = try Self.simulator()
        let request = GetCredentialRequest.android(
            AndroidGetPublicKeyCredentialOption(
                requestJson: #"{"challenge":"CQgHBgUEAwIB","rpId":"login.example.com","rpId":"evil.example"}"#))
        let (outcome, notes) = simulator.get(request, now: 0)
        let error = try #require(outcome.error)
        #expect(error.message == #"requestJson: is not valid JSON: JSON error at byte 55 (line 1, column 56): duplicate member name "rpId" in one object"#)
        #expect(notes.contains { $0.kind == .malformedRequest && $0.text == error.message }, "\(notes)")
    }

    @Test("A signal requestJson with a leading zero is unreadable JSON, with the reader's message in the note")
    func signal() throws {
        var simulator = try Self.simulator()
        let request = SignalRequest.android(
            AndroidSignalRequest(
                type: AndroidSignalRequest.unknownCredentialType,
                requestJson: #"{"rpId":"login.example.com","credentialId":"AAEC","n":01}"#))
        let (outcome, notes) = simulator.signal(request, now: 0)
        let error = try #require(outcome.error)
        #expect(error.message.contains("not valid JSON: JSON error at byte 54 (line 1, column 55): leading zero in a number"), "\(error.message)")
        #expect(notes.contains { $0.kind == .malformedRequest && $0.text == error.message }, "\(notes)")
    }
}
