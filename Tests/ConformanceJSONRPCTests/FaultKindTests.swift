import ConformanceJSONRPC
import ConformanceKit
import Foundation
import Testing

/// A fault's kind is a closed set written as its raw value; the adapter protocol's kinds map onto
/// it one for one.
@Suite("Fault kinds")
struct FaultKindTests {
    @Test("the adapter protocol's fault kinds are the reports' kinds less the harness's own four")
    func adapterKinds() {
        #expect(RunFault.Kind.adapterKinds.count == RunFault.Kind.allCases.count - 4)
        #expect(!RunFault.Kind.adapterKinds.contains(.harness) && RunFault.Kind.adapterKinds.contains(.processExited))
        #expect(AdapterFault(.flood, "x").runFault.kind == .flood)
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
