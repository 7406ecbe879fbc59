import Foundation
import Testing
@testable import WebAuthn

@Suite("Client data")
struct CollectedClientDataTests {
    @Test func serializesInSpecOrder() {
        let data = CollectedClientData(type: .create, challenge: Data([0xFB, 0xFF, 0xBF, 0x01]), origin: "https://example.com")
        #expect(
            String(decoding: data.jsonBytes, as: UTF8.self)
                == #"{"type":"webauthn.create","challenge":"-_-_AQ","origin":"https://example.com","crossOrigin":false}"#)
        #expect(data.hash == SHA256.hash(data.jsonBytes))
    }

    @Test func serializesCrossOriginAndTopOrigin() {
        let data = CollectedClientData(
            type: .get, challenge: Data([1]), origin: "https://a.example", crossOrigin: true,
            topOrigin: "https://top.example")
        #expect(
            String(decoding: data.jsonBytes, as: UTF8.self)
                == #"{"type":"webauthn.get","challenge":"AQ","origin":"https://a.example","crossOrigin":true,"topOrigin":"https://top.example"}"#)
    }

    @Test func escapesLikeCCDToString() throws {
        let data = CollectedClientData(type: .get, challenge: Data(), origin: "a\"b\\c\u{01}\u{1f}é/")
        let text = String(decoding: data.jsonBytes, as: UTF8.self)
        #expect(text.contains(#""origin":"a\"b\\c\u0001\u001fé/""#))
        #expect(try CollectedClientData(jsonBytes: data.jsonBytes).origin == data.origin)
    }

    @Test func roundTrips() throws {
        let data = CollectedClientData(
            type: .get, challenge: Data(repeating: 0x5A, count: 32), origin: "https://example.com",
            crossOrigin: true, topOrigin: "https://top.example")
        #expect(try CollectedClientData(jsonBytes: data.jsonBytes) == data)
    }

    @Test func toleratesReorderingAndUnknownMembers() throws {
        let json =
            #"{"origin":"https://example.com","other_keys_can_be_added_here":"do not compare clientDataJSON against a template","challenge":"AQID","type":"webauthn.get","tokenBinding":{"status":"present"}}"#
        let data = try CollectedClientData(jsonBytes: Data(json.utf8))
        #expect(data.type == .get)
        #expect(data.challenge == Data([1, 2, 3]))
        #expect(data.origin == "https://example.com")
        #expect(data.crossOrigin == nil)
        #expect(data.topOrigin == nil)
    }

    @Test(arguments: [
        Data(#"{"type":"webauthn.get","challenge":"AQ","origin":"o""#.utf8),
        Data([0xFF, 0xFE]),
        Data(),
        Data("{'type':'webauthn.get'}".utf8),
    ])
    func rejectsInvalidJSON(bytes: Data) {
        #expect {
            try CollectedClientData(jsonBytes: bytes)
        } throws: { error in
            if case .invalidJSON = error as? CollectedClientData.ParseError { true } else { false }
        }
    }

    @Test(arguments: [
        (#"["webauthn.get"]"#, CollectedClientData.ParseError.notAnObject),
        (#""webauthn.get""#, .notAnObject),
        (#"{"challenge":"AQ","origin":"o"}"#, .missingMember("type")),
        (#"{"type":"webauthn.get","origin":"o"}"#, .missingMember("challenge")),
        (#"{"type":"webauthn.get","challenge":"AQ"}"#, .missingMember("origin")),
        (#"{"type":1,"challenge":"AQ","origin":"o"}"#, .wrongType(member: "type", expected: "string")),
        (#"{"type":null,"challenge":"AQ","origin":"o"}"#, .wrongType(member: "type", expected: "string")),
        (#"{"type":"webauthn.get","challenge":["AQ"],"origin":"o"}"#, .wrongType(member: "challenge", expected: "string")),
        (#"{"type":"webauthn.get","challenge":"AQ","origin":{}}"#, .wrongType(member: "origin", expected: "string")),
        (#"{"type":"webauthn.get","challenge":"AQ","origin":"o","crossOrigin":"false"}"#, .wrongType(member: "crossOrigin", expected: "boolean")),
        (#"{"type":"webauthn.get","challenge":"AQ","origin":"o","crossOrigin":0}"#, .wrongType(member: "crossOrigin", expected: "boolean")),
        (#"{"type":"webauthn.get","challenge":"AQ","origin":"o","topOrigin":true}"#, .wrongType(member: "topOrigin", expected: "string")),
        (#"{"type":"webauthn.get","challenge":"AQ==","origin":"o"}"#, .invalidChallenge(.invalidCharacter("=", offset: 2))),
        (#"{"type":"webauthn.get","challenge":"A+8","origin":"o"}"#, .invalidChallenge(.invalidCharacter("+", offset: 1))),
    ])
    func rejectsMissingAndIllTypedMembers(json: String, error: CollectedClientData.ParseError) {
        #expect(throws: error) { try CollectedClientData(jsonBytes: Data(json.utf8)) }
    }

    @Test func errorsNameTheMember() {
        #expect(
            CollectedClientData.ParseError.missingMember("origin").description
                == #"clientDataJSON lacks the required member "origin""#)
    }

    /// Inputs the plain reader takes and inputs it leaves to `JSONDecoder`: what it takes, it reads
    /// as `JSONDecoder` does.
    static let plainInputs: [(json: String, plain: Bool)] = [
        (#"{"type":"webauthn.get","challenge":"AQID","origin":"https://example.com","crossOrigin":false}"#, true),
        (#" { "origin" : "o" , "challenge":"AQ","type":"t", "x":null, "y":true, "z":"w" , "topOrigin":"t2","crossOrigin":true } "#, true),
        (#"{"type":"t","challenge":"AQ","origin":"o"}"#, true),
        (#"{"type":"t","challenge":"AQ","origin":"o","crossOrigin":null}"#, false),
        (#"{"type":"t","challenge":"AQ","origin":"o","crossOrigin":"true"}"#, false),
        (#"{"type":"t","challenge":"AQ","origin":"o","topOrigin":false}"#, false),
        (#"{"type":"t","challenge":"AQ","origin":"o","n":1}"#, false),
        (#"{"type":"t","challenge":"AQ","origin":"o","n":{"a":"b"}}"#, false),
        (#"{"type":"t","challenge":"AQ","origin":"o\/p"}"#, false),
        (#"{"type":"t","challenge":"AQ","origin":"é"}"#, false),
        (#"{"type":"t","challenge":"AQ","type":"u","origin":"o"}"#, false),
        (#"{"type":"t","challenge":"AQ"}"#, false),
        (#"{"type":true,"challenge":"AQ","origin":"o"}"#, false),
        (#"{"type":"t","challenge":"AQ","origin":"o"} x"#, false),
        (#"{"type":"t","challenge":"AQ","origin":"o",}"#, false),
        (#"{"type":"t","challenge":"AQ","origin":"o""#, false),
        (#"{"type":"t","challenge":"AQ","origin":"o" "a":"b"}"#, false),
        (#"{}"#, false),
        (#"[]"#, false),
        (#""#, false),
        (#"{"type":"t","challenge":"AQ","origin":"o","b":tru}"#, false),
    ]

    @Test(arguments: plainInputs)
    func plainReaderAgreesWithJSONDecoder(json: String, plain: Bool) {
        let bytes = Data(json.utf8)
        let read = CollectedClientData.Members(plain: bytes)
        #expect((read != nil) == plain)
        if let read { #expect(read == (try? JSONDecoder().decode(CollectedClientData.Members.self, from: bytes))) }
    }
}
