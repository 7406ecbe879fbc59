import ConformanceKit
import Foundation
import Testing

/// Transcript payloads are `JSONValue`s made by `Wire.jsonValue`; a report shows them as evidence.
@Suite("Transcript payloads")
struct TranscriptPayloadTests {
    @Test("a session's seed survives into the transcript exactly, so the case can be re-run from it", arguments: [
        UInt64(1), UInt64(1) << 53 + 1, 13_685_028_334_837_830_001, UInt64.max,
    ])
    func seedSurvives(_ seed: UInt64) throws {
        let context = SessionContext(testCase: "N2.6-AC01/x@apple-18", target: "apple-18", device: DeviceInfo(platform: .apple, osVersion: "18.0"), seed: seed)
        let payload = Wire.jsonValue(context)
        let check = {
            #expect(payload != .null, "the context did not encode")
            #expect((try? Wire.decode(SessionContext.self, from: payload))?.seed == seed)
        }
        if seed <= 1 << 53 {
            check()
        } else {
            withKnownIssue("JSONValue keeps numbers as Double, so seeds above 2^53 are rounded (or fail to decode) in session.open payloads") { check() }
        }
    }
}
