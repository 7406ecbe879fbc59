import ConformanceKit
import Foundation
import Testing

/// Transcript payloads are `JSONValue`s made by `Wire.jsonValue`; a report shows them as evidence.
@Suite("Transcript payloads")
struct TranscriptPayloadTests {
    @Test(
        "a test case's seed stays below 2^53, so every JSON reader keeps it exact",
        arguments: [
            UInt64(0), UInt64(1), UInt64(1) << 53 + 1, 13_685_028_334_837_830_001, UInt64.max,
        ])
    func caseSeedsAreExact(_ runSeed: UInt64) throws {
        for id in ["N2.6-AC01/x@apple-18", "N3.2-AC05/y@android-15-gpm", ""] {
            let seed = Runner.caseSeed(runSeed, id)
            #expect(seed < 1 << 53)
            let context = SessionContext(testCase: id, target: "apple-18", device: DeviceInfo(platform: .apple, osVersion: "18.0"), seed: seed)
            let payload = Wire.jsonValue(context)
            #expect(payload != .null, "the context did not encode")
            #expect((try? Wire.decode(SessionContext.self, from: payload))?.seed == seed)
        }
        #expect(Runner.caseSeed(runSeed, "a") != Runner.caseSeed(runSeed, "b"))
    }
}
