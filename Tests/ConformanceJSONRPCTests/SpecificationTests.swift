import Foundation
import Testing
import ConformanceKit
@testable import ConformanceJSONRPC
@testable import PasskeyConformanceAdapter

/// `Documentation/adapter-protocol.md` agrees with the implementation: every example message is a
/// valid envelope going the right way, its params or result decode as the method's types, and every
/// method has an example.
@Suite("The protocol document")
struct SpecificationTests {
    /// One example line: its direction and its message.
    struct Example {
        var fromHarness: Bool
        var message: JSONRPCMessage
        var line: Int
    }

    static let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Documentation/adapter-protocol.md")

    /// The ```jsonrpc blocks of the document, each a list of examples.
    static func blocks() throws -> [[Example]] {
        let text = try String(contentsOf: document, encoding: .utf8)
        var blocks: [[Example]] = []
        var current: [Example]?
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.drop { $0 == " " }  // blocks may be indented inside a list
            if line.hasPrefix("```jsonrpc") {
                current = []
            } else if line.hasPrefix("```"), let block = current {
                blocks.append(block)
                current = nil
            } else if current != nil, line.hasPrefix("→ ") || line.hasPrefix("← ") {
                let json = line.dropFirst(2)
                let message = try JSONRPCMessage(line: ArraySlice(Array(json.utf8)))
                current?.append(Example(fromHarness: line.hasPrefix("→"), message: message, line: number + 1))
            }
        }
        return blocks
    }

    @Test("every example is valid, goes the right way, and decodes as its method's params and result")
    func examplesDecode() throws {
        let blocks = try Self.blocks()
        #expect(blocks.count >= 15 && blocks.joined().count >= 50, "the document lost its examples")
        var methods: Set<JSONRPCMethod> = []
        for block in blocks {
            // Requests by id, per direction: answers travel the opposite way.
            var harnessRequests: [Int: JSONRPCMethod] = [:]
            var adapterRequests: [Int: JSONRPCMethod] = [:]
            for example in block {
                let message = example.message
                switch message.kind {
                case .request, .notification:
                    let method = try #require(JSONRPCMethod(rawValue: message.method ?? ""), "line \(example.line): unknown method")
                    methods.insert(method)
                    let adapterMethod = HarnessConnection.adapterMethods.contains(method)
                    #expect(adapterMethod != example.fromHarness, "line \(example.line): \(method.rawValue) goes the wrong way")
                    #expect(
                        (message.kind == .notification) == HarnessConnection.notificationMethods.contains(method),
                        "line \(example.line): \(method.rawValue) request or notification")
                    try Self.decodeParams(of: method, message, line: example.line)
                    if let id = message.integerID {
                        if example.fromHarness { harnessRequests[id] = method } else { adapterRequests[id] = method }
                    }
                case .result:
                    let id = try #require(message.integerID)
                    let method = try #require(
                        example.fromHarness ? adapterRequests.removeValue(forKey: id) : harnessRequests.removeValue(forKey: id),
                        "line \(example.line): an answer to no request")
                    try Self.decodeResult(of: method, message, line: example.line)
                case .error:
                    Issue.record("line \(example.line): the examples show no error answers")
                }
            }
            #expect(harnessRequests.isEmpty && adapterRequests.isEmpty, "unanswered requests in a block: \(harnessRequests) \(adapterRequests)")
        }
        #expect(methods == Set(JSONRPCMethod.allCases), "methods without an example: \(Set(JSONRPCMethod.allCases).subtracting(methods))")
    }

    static func decodeParams(of method: JSONRPCMethod, _ message: JSONRPCMessage, line: Int) throws {
        typealias P = JSONRPCParams
        do {
            switch method {
            case .hello: try roundTrip(message, P.Hello.self)
            case .shutdown: try roundTrip(message, P.Empty.self)
            case .sessionOpen: try roundTrip(message, P.Open.self)
            case .sessionSetUp: try roundTrip(message, P.SetUp.self)
            case .sessionAddCredential: try roundTrip(message, P.AddCredential.self)
            case .sessionPerform: try roundTrip(message, P.Perform.self)
            case .sessionInspectAccount: try roundTrip(message, P.InspectAccount.self)
            case .sessionInspect: try roundTrip(message, P.Inspect.self)
            case .sessionInspectSession, .sessionClose, .clockNow: try roundTrip(message, P.Session.self)
            case .sessionInjectFault: try roundTrip(message, P.InjectFault.self)
            case .sessionPlatformCompleted: try roundTrip(message, P.PlatformCompleted.self)
            case .sessionTimerFired: try roundTrip(message, P.TimerFired.self)
            case .sessionWebRequest: try roundTrip(message, P.WebRequestParams.self)
            case .platformCreateCredential: try roundTrip(message, P.CreateCredential.self)
            case .platformGetCredential: try roundTrip(message, P.GetCredential.self)
            case .platformSignal: try roundTrip(message, P.Signal.self)
            case .clockSchedule: try roundTrip(message, P.Schedule.self)
            case .clockCancel: try roundTrip(message, P.Cancel.self)
            case .uiShow: try roundTrip(message, P.Show.self)
            case .telemetryRecord: try roundTrip(message, P.Telemetry.self)
            }
        } catch let error as Mismatch {
            Issue.record("line \(line): params of \(method.rawValue): \(error)")
        } catch {
            Issue.record("line \(line): params of \(method.rawValue): \(DecodingErrorText(error))")
        }
    }

    static func decodeResult(of method: JSONRPCMethod, _ message: JSONRPCMessage, line: Int) throws {
        typealias P = JSONRPCParams
        do {
            switch method {
            case .hello: try roundTrip(message, AdapterDescription.self)
            case .sessionOpen: try roundTrip(message, P.Session.self)
            case .sessionPerform: try roundTrip(message, ActionOutcome.self)
            case .sessionInspectAccount: try roundTrip(message, AccountSnapshot.self)
            case .sessionInspectSession: try roundTrip(message, SessionSnapshot.self)
            case .sessionInspect: try roundTrip(message, StateSnapshot.self)
            case .platformCreateCredential, .platformGetCredential, .platformSignal: try roundTrip(message, P.Operation.self)
            case .clockNow: try roundTrip(message, P.Now.self)
            case .clockSchedule: try roundTrip(message, P.Timer.self)
            case .sessionWebRequest: try roundTrip(message, WebResponse.self)
            default: try roundTrip(message, P.Empty.self)
            }
        } catch let error as Mismatch {
            Issue.record("line \(line): result of \(method.rawValue): \(error)")
        } catch {
            Issue.record("line \(line): result of \(method.rawValue): \(DecodingErrorText(error))")
        }
    }

    /// A documented member the harness's decoder does not read (a misspelt or invented member), or
    /// a value it reads differently (a non-canonical base64url string): the document has drifted.
    struct Mismatch: Error, CustomStringConvertible {
        var documented: JSONValue
        var decoded: JSONValue
        var description: String { "the decoder reads \(Wire.jsonString(decoded)) where the document writes \(Wire.jsonString(documented))" }
    }

    /// Decodes a payload as `T` (members, enum values and base64url are checked by the decoder) and
    /// encodes it again: every documented member must survive, with the same value. For results the
    /// protocol allows any value in place of `{}`, so an empty payload is compared as an object.
    static func roundTrip<T: Codable>(_ message: JSONRPCMessage, _ type: T.Type) throws {
        let decoded = try message.decodePayload(T.self)
        let documented = try message.decodePayload(JSONValue.self)
        let again = Wire.jsonValue(decoded)
        if again != documented, !(T.self == JSONRPCParams.Empty.self) {
            throw Mismatch(documented: documented, decoded: again)
        }
    }

    @Test("every JSON-RPC example line of the document is in a checked block")
    func noUncheckedExamples() throws {
        let text = try String(contentsOf: Self.document, encoding: .utf8)
        var inChecked = false
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.drop { $0 == " " }
            if line.hasPrefix("```") {
                inChecked = line.hasPrefix("```jsonrpc") ? true : false
                continue
            }
            let looksLikeMessage = line.hasPrefix("→ {") || line.hasPrefix("← {") || line.hasPrefix("{\"id\"") || line.hasPrefix("{\"jsonrpc\"")
            #expect(!looksLikeMessage || inChecked, "line \(number + 1): a message outside a ```jsonrpc block is not checked")
        }
    }

    @Test("the documented limits are the defaults")
    func limits() throws {
        let text = try String(contentsOf: Self.document, encoding: .utf8)
        let defaults = JSONRPCAdapter.Configuration()
        let callTimeoutRow = "| per-call time-out: time to answer one harness request (`run --call-timeout <seconds>`) | 5 s |"
        #expect(defaults.callTimeout == .seconds(5) && text.contains(callTimeoutRow))
        #expect(text.contains("`run --launch-timeout <seconds>`") && text.contains("`run --test-case-timeout <seconds>`"))
        #expect(text.contains("# The adapter protocol over JSON-RPC (version \(adapterProtocolVersion))") && text.contains("## Changes in 1.1"))
        #expect(defaults.testCaseTimeout == .seconds(60) && text.contains("| 60 s |"))
        #expect(defaults.launchTimeout == .seconds(10) && text.contains("| 10 s |"))
        #expect(defaults.terminationGrace == .seconds(1) && text.contains("`SIGTERM` before `SIGKILL` | 1 s |"))
        #expect(defaults.maximumMessageBytes == 1_048_576 && text.contains("| longest line written by the adapter | 1 MiB |"))
        #expect(defaults.maximumAdapterMessagesPerSecond == 10_000 && text.contains("| 10,000 per second |"))
        #expect(defaults.maximumConsecutiveLaunchFailures == 3)
        #expect(JSONRPCAdapterServer.Configuration().maximumMessageBytes == 16 << 20 && text.contains("16 MiB"))
        for kind in RunFault.Kind.adapterKinds {
            #expect(text.contains("| `\(kind.rawValue)` |"), "fault kind \(kind.rawValue) is not documented")
        }
        for target in TargetCatalog.all {
            #expect(text.contains("| `\(target.id)` |"), "target \(target.id) is not documented")
        }
        for capability in Capability.allCases {
            #expect(text.contains("| `\(capability.rawValue)` |"), "capability \(capability.rawValue) is not documented")
        }
    }
}
