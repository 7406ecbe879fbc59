import Foundation
import PasskeyConformanceProtocol
import Testing

/// Operation and timer identifiers are their own types, written on the wire as plain strings.
@Suite("Platform identifiers")
struct PlatformIdentifierTests {
    struct Completed: Codable, Equatable {
        var operation: OperationID
        var timer: TimerID
    }

    @Test("an operation's and a timer's identifiers are written as the plain strings they hold, and read back")
    func plainStrings() throws {
        let value = Completed(operation: "op-3", timer: TimerID(rawValue: "timer-1"))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = String(decoding: try encoder.encode(value), as: UTF8.self)
        #expect(text == #"{"operation":"op-3","timer":"timer-1"}"#)
        #expect(try JSONDecoder().decode(Completed.self, from: Data(text.utf8)) == value)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Completed.self, from: Data(#"{"operation":3,"timer":"t"}"#.utf8)) }
    }

    @Test("an identifier reads as its text in messages, and orders by it")
    func text() {
        let number = 7
        let operation: OperationID = "op-\(number)"
        #expect("\(operation): done" == "op-7: done")
        #expect(operation.rawValue == "op-7" && operation.description == "op-7")
        #expect([TimerID("timer-2"), "timer-1"].sorted() == ["timer-1", "timer-2"])
    }
}
