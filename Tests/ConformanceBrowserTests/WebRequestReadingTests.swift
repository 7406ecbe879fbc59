import ConformanceBrowser
import ConformanceModel
import Foundation
import Testing

/// The options a page passed to `navigator.credentials.create`, read as the provider model needs
/// them; bad options get an error naming the member, never a crash.
@Suite("Web registration options")
struct WebRequestReadingTests {
    static func options(_ text: String) throws -> JSONValue { try JSONValue.parse(Data(text.utf8)) }

    @Test("a complete request: RP ID, user, challenge, exclusions and the user-verification preference")
    func complete() throws {
        let publicKey = try Self.options(
            #"{"challenge":{"$bytes":"CQkJCQ"},"rp":{"id":"login.example.com"},"user":{"id":{"$bytes":"AQIDBA"},"name":"alice@example.com","displayName":"Alice"},"excludeCredentials":[{"type":"public-key","id":{"$bytes":"BQY"}}],"authenticatorSelection":{"userVerification":"required"}}"#
        )
        let view = try WebRequestReading.registration(publicKey, conditional: true, origin: "https://login.example.com").get()
        #expect(view.rpID == "login.example.com" && view.userName == "alice@example.com" && view.displayName == "Alice")
        #expect(view.userHandle == Data([1, 2, 3, 4]) && view.challenge == Data([9, 9, 9, 9]))
        #expect(view.excludedCredentials == [Data([5, 6])] && view.conditional && view.userVerification == "required")
    }

    @Test("without rp.id the RP ID is the page's host; without a selection, user verification is preferred")
    func defaults() throws {
        let publicKey = try Self.options(#"{"challenge":{"$bytes":"CQkJCQ"},"rp":{},"user":{"id":{"$bytes":"AQ"},"name":"bob"}}"#)
        let view = try WebRequestReading.registration(publicKey, conditional: false, origin: "https://shop.example.org").get()
        #expect(view.rpID == "shop.example.org" && view.userVerification == "preferred" && view.excludedCredentials == nil && !view.conditional)
    }

    @Test(
        "bad options are refused with the member named",
        arguments: [
            ("null", "publicKey is missing"),
            (#"{"rp":{},"user":{"id":{"$bytes":"AQ"},"name":"a"}}"#, "publicKey.challenge"),
            (#"{"challenge":{"$bytes":"CQ"},"user":{"id":"AQ","name":"a"}}"#, "publicKey.user.id"),
            (#"{"challenge":{"$bytes":"CQ"},"user":{"id":{"$bytes":""},"name":"a"}}"#, "publicKey.user.id"),
            (#"{"challenge":{"$bytes":"CQ"},"user":{"id":{"$bytes":"AQ"}}}"#, "publicKey.user.name"),
        ])
    func refused(_ text: String, _ named: String) throws {
        switch WebRequestReading.registration(try Self.options(text), conditional: true, origin: "https://login.example.com") {
        case .success(let view): Issue.record("read \(view)")
        case .failure(let error): #expect(error.message.contains(named), "\(error.message)")
        }
    }
}
