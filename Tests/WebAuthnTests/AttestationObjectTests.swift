import Foundation
import Testing
@testable import WebAuthn

@Suite("Attestation objects")
struct AttestationObjectTests {
    @Test func encodesNoneAttestationCanonically() throws {
        let object = AttestationObject.none(authenticatorData: Data([1, 2]))
        // {"fmt": "none", "attStmt": {}, "authData": h'0102'}
        #expect(object.bytes.hex == "a3" + "63666d74" + "646e6f6e65" + "6761747453746d74" + "a0" + "68617574684461746142" + "0102")
        #expect(try AttestationObject(bytes: object.bytes) == object)
    }

    @Test func parsesOtherFormats() throws {
        let statement: CBOR = ["alg": -7, "sig": .bytes(Data([0x30]))]
        let object = AttestationObject(format: "packed", statement: statement, authenticatorData: Data([9]))
        let parsed = try AttestationObject(bytes: object.bytes)
        #expect(parsed.format == "packed")
        #expect(parsed.statement["alg"] == -7)
    }

    static let invalid: [(String, Data, AttestationObject.ParseError)] = [
        ("array", CBOR.array([]).encoded, .notAMap(found: "array")),
        ("missing fmt", CBOR(dictionaryLiteral: ("attStmt", [:]), ("authData", .bytes(Data()))).encoded, .missingMember("fmt")),
        ("missing attStmt", CBOR(dictionaryLiteral: ("fmt", "none"), ("authData", .bytes(Data()))).encoded, .missingMember("attStmt")),
        ("missing authData", CBOR(dictionaryLiteral: ("fmt", "none"), ("attStmt", [:])).encoded, .missingMember("authData")),
        (
            "fmt integer", CBOR(dictionaryLiteral: ("fmt", 1), ("attStmt", [:]), ("authData", .bytes(Data()))).encoded,
            .wrongType(member: "fmt", expected: "text string")
        ),
        (
            "attStmt array", CBOR(dictionaryLiteral: ("fmt", "none"), ("attStmt", []), ("authData", .bytes(Data()))).encoded,
            .wrongType(member: "attStmt", expected: "map")
        ),
        (
            "authData text", CBOR(dictionaryLiteral: ("fmt", "none"), ("attStmt", [:]), ("authData", "x")).encoded,
            .wrongType(member: "authData", expected: "byte string")
        ),
        (
            "extra member", CBOR(dictionaryLiteral: ("fmt", "none"), ("attStmt", [:]), ("authData", .bytes(Data())), ("epAtt", true)).encoded,
            .unexpectedMember("\"epAtt\"")
        ),
        ("integer key", CBOR(dictionaryLiteral: (1, "none")).encoded, .unexpectedMember("1")),
        (
            "trailing byte", AttestationObject.none(authenticatorData: Data()).bytes + Data([0]),
            .malformedCBOR(.init(.trailingBytes(count: 1), offset: 29))
        ),
    ]

    @Test(arguments: invalid)
    func rejectsMalformedObjects(name: String, bytes: Data, error: AttestationObject.ParseError) {
        #expect(throws: error, "\(name)") { try AttestationObject(bytes: bytes) }
    }
}
