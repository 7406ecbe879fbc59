import Foundation
import Testing
@testable import WebAuthn

@Suite("Base64URL")
struct Base64URLTests {
    /// RFC 4648 §10 vectors, without padding and in the URL-safe alphabet.
    @Test(arguments: [
        ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy"),
    ])
    func rfc4648Vectors(plain: String, encoded: String) throws {
        #expect(Base64URL.encode(Data(plain.utf8)) == encoded)
        #expect(try Base64URL.decode(encoded) == Data(plain.utf8))
    }

    @Test func usesTheURLSafeAlphabet() throws {
        let bytes = Data([0xFB, 0xFF, 0xBF])
        #expect(Base64URL.encode(bytes) == "-_-_")
        #expect(try Base64URL.decode("-_-_") == bytes)
    }

    @Test func roundTripsEveryLength() throws {
        var generator = SeededGenerator(seed: 7)
        for length in 0..<70 {
            let bytes = generator.bytes(length)
            #expect(try Base64URL.decode(Base64URL.encode(bytes)) == bytes)
        }
    }

    @Test(arguments: [
        ("Zg==", Base64URL.DecodingError.invalidCharacter("=", offset: 2)),
        ("Zm9v+A", .invalidCharacter("+", offset: 4)),
        ("Zm9v/A", .invalidCharacter("/", offset: 4)),
        ("Zm 9v", .invalidCharacter(" ", offset: 2)),
        ("Zm9vé", .invalidCharacter("é", offset: 4)),
        // A character of several UTF-8 bytes is named whole, at its offset in characters.
        ("Zéa!", .invalidCharacter("é", offset: 1)),
        ("Zm9v\u{1F600}", .invalidCharacter("\u{1F600}", offset: 4)),
        ("Z", .impossibleLength(1)),
        ("Zm9vY", .impossibleLength(5)),
        ("Zh", .nonZeroTrailingBits),
        ("Zm9", .nonZeroTrailingBits),
    ])
    func rejectsNonCanonicalText(text: String, error: Base64URL.DecodingError) {
        #expect(throws: error) { try Base64URL.decode(text) }
        #expect(Base64URL.decodeIfValid(text) == nil)
    }

    @Test func paddingErrorSaysPaddingIsNotAccepted() {
        #expect(Base64URL.DecodingError.invalidCharacter("=", offset: 2).description.contains("padding is not accepted"))
    }
}
