import ConformanceJSONRPC
import ConformanceKit
import Foundation
import Testing

/// A fault's kind is a closed set written as its raw value; the adapter protocol's kinds map onto
/// it one for one.
@Suite("Fault kinds")
struct FaultKindTests {
    @Test("every adapter fault kind is the report's fault kind of the same name", arguments: AdapterFault.Kind.allCases)
    func adapterKindsMap(kind: AdapterFault.Kind) {
        #expect(kind.runFaultKind.rawValue == kind.rawValue)
    }

    @Test("a fault is written and described with its kind's raw value, and reads back")
    func writtenAsRawValue() throws {
        let fault = RunFault(kind: .processExited, message: "gone", method: "session.open")
        #expect(fault.description == "process-exited in session.open: gone")
        let text = String(decoding: try JSONEncoder().encode(fault), as: UTF8.self)
        #expect(text.contains(#""kind":"process-exited""#))
        #expect(try JSONDecoder().decode(RunFault.self, from: Data(text.utf8)) == fault)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(RunFault.self, from: Data(#"{"kind":"nonsense","message":"m"}"#.utf8)) }
    }
}
