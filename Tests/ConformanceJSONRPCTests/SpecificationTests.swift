import Foundation
import Testing
import ConformanceKit
@testable import ConformanceJSONRPC

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
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
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
                    #expect((message.kind == .notification) == HarnessConnection.notificationMethods.contains(method),
                            "line \(example.line): \(method.rawValue) request or notification")
                    try Self.decodeParams(of: method, message, line: example.line)
                    if let id = message.integerID {
                        if example.fromHarness { harnessRequests[id] = method } else { adapterRequests[id] = method }
                    }
                case .result:
                    let id = try #require(message.integerID)
                    let method = try #require(example.fromHarness ? adapterRequests.removeValue(forKey: id) : harnessRequests.removeValue(forKey: id),
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
            case .hello: _ = try message.decodePayload(P.Hello.self)
            case .shutdown: _ = try message.decodePayload(P.Empty.self)
            case .sessionOpen: _ = try message.decodePayload(P.Open.self)
            case .sessionSetUp: _ = try message.decodePayload(P.SetUp.self)
            case .sessionAddCredential: _ = try message.decodePayload(P.AddCredential.self)
            case .sessionPerform: _ = try message.decodePayload(P.Perform.self)
            case .sessionInspectAccount: _ = try message.decodePayload(P.InspectAccount.self)
            case .sessionInspectSession, .sessionClose, .clockNow: _ = try message.decodePayload(P.Session.self)
            case .sessionInjectFault: _ = try message.decodePayload(P.InjectFault.self)
            case .sessionPlatformCompleted: _ = try message.decodePayload(P.PlatformCompleted.self)
            case .sessionTimerFired: _ = try message.decodePayload(P.TimerFired.self)
            case .platformCreateCredential: _ = try message.decodePayload(P.CreateCredential.self)
            case .platformGetCredential: _ = try message.decodePayload(P.GetCredential.self)
            case .platformSignal: _ = try message.decodePayload(P.Signal.self)
            case .clockSchedule: _ = try message.decodePayload(P.Schedule.self)
            case .clockCancel: _ = try message.decodePayload(P.Cancel.self)
            case .uiShow: _ = try message.decodePayload(P.Show.self)
            case .telemetryRecord: _ = try message.decodePayload(P.Telemetry.self)
            }
        } catch {
            Issue.record("line \(line): params of \(method.rawValue): \(DecodingErrorText(error))")
        }
    }

    static func decodeResult(of method: JSONRPCMethod, _ message: JSONRPCMessage, line: Int) throws {
        typealias P = JSONRPCParams
        do {
            switch method {
            case .hello: _ = try message.decodePayload(AdapterDescription.self)
            case .sessionOpen: _ = try message.decodePayload(P.Session.self)
            case .sessionPerform: _ = try message.decodePayload(ActionOutcome.self)
            case .sessionInspectAccount: _ = try message.decodePayload(AccountSnapshot.self)
            case .sessionInspectSession: _ = try message.decodePayload(SessionSnapshot.self)
            case .platformCreateCredential, .platformGetCredential, .platformSignal: _ = try message.decodePayload(P.Operation.self)
            case .clockNow: _ = try message.decodePayload(P.Now.self)
            case .clockSchedule: _ = try message.decodePayload(P.Timer.self)
            default: _ = try message.decodePayload(P.Empty.self)
            }
        } catch {
            Issue.record("line \(line): result of \(method.rawValue): \(DecodingErrorText(error))")
        }
    }

    @Test("the documented limits are the defaults")
    func limits() throws {
        let text = try String(contentsOf: Self.document, encoding: .utf8)
        let defaults = JSONRPCAdapter.Configuration()
        #expect(defaults.callTimeout == .seconds(5) && text.contains("| per-call time-out: time to answer one harness request | 5 s |"))
        #expect(defaults.testCaseTimeout == .seconds(60) && text.contains("| 60 s |"))
        #expect(defaults.launchTimeout == .seconds(10) && text.contains("| 10 s |"))
        #expect(defaults.terminationGrace == .seconds(1) && text.contains("`SIGTERM` before `SIGKILL` | 1 s |"))
        #expect(defaults.maximumMessageBytes == 1_048_576 && text.contains("| longest line written by the adapter | 1 MiB |"))
        #expect(defaults.maximumAdapterMessagesPerSecond == 10_000 && text.contains("| 10,000 per second |"))
        #expect(defaults.maximumConsecutiveLaunchFailures == 3)
        #expect(HarnessConnection.leadBudget == .milliseconds(2) && text.contains("for up to 2 ms"))
        #expect(JSONRPCAdapterServer.Configuration().maximumMessageBytes == 16 << 20 && text.contains("16 MiB"))
        for kind in AdapterFault.Kind.allCases {
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
