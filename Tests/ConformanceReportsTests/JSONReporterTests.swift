import ConformanceKit
@testable import ConformanceReports
import ConformanceTestSupport
import Foundation
import Testing

@Suite("JSON reporter")
struct JSONReporterTests {
    func render(_ run: RunResult = ReportFixtures.run, waivers: WaiverEvaluation = ReportFixtures.waivers) throws -> (text: String, value: JSONValue) {
        let bytes = try JSONReporter.render(run, waivers: waivers)
        return (String(decoding: bytes, as: UTF8.self), try JSONDecoder().decode(JSONValue.self, from: Data(bytes)))
    }

    @Test("the top level: $schema, schemaVersion and the five sections, keys sorted")
    func topLevel() throws {
        let (text, value) = try render()
        guard case .object(let members) = value else {
            Issue.record("not an object")
            return
        }
        #expect(members.keys.sorted() == ["$schema", "bundledSuite", "criteria", "fidelity", "metadata", "schemaVersion", "summary", "testCases", "waivers"])
        #expect(value["$schema"] == .string("urn:passkey-conformance:schema:run-report:v1"))
        #expect(value["schemaVersion"] == .string(JSONReporter.schemaVersion))
        #expect(JSONReporter.schemaVersion == "1.7.0")
        let topKeys = text.split(separator: "\n").filter { $0.hasPrefix("  \"") }.map { $0.split(separator: "\"")[1] }
        #expect(topKeys == ["$schema", "bundledSuite", "criteria", "fidelity", "metadata", "schemaVersion", "summary", "testCases", "waivers"])
        #expect(text.hasSuffix("}\n"))
    }

    @Test("metadata: the seed as decimal digits, the adapter command as null")
    func metadata() throws {
        let metadata = try #require(try render().value["metadata"])
        #expect(metadata["seed"] == .string("18446744073709551557"))
        #expect(metadata["harnessVersion"] == .string("0.9.0-test"))
        #expect(
            metadata["adapter"]
                == .object([
                    "name": .string("reference-rp"), "version": .string("1.2.0"),
                    "transport": .string("in-process"), "command": .null, "declaredTargets": .null,
                    "capabilities": .null, "unknownTargets": .array([]),
                ]))
        #expect(metadata["allowNotVerified"] == .bool(false))
        #expect(metadata["interruption"] == .null)
        #expect(metadata["fault"] == .null)
        #expect(metadata["targets"] == .array(ReportFixtures.targets.map(JSONValue.string)))
        #expect(metadata["filters"] == .object(["tags": .string("not @wip"), "criterion": .string("N2.6-*")]))
        #expect(metadata["startedAt"] == .string("2026-01-15T09:30:00Z"))
    }

    @Test("metadata: the adapter's declarations are written when it made some, and read back")
    func declarations() throws {
        var run = ReportFixtures.run
        run.metadata.adapter.declarations = ["passkey-second-factor"]
        let bytes = try JSONReporter.render(run, waivers: ReportFixtures.waivers)
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
        #expect(value["metadata"]?["adapter"]?["declarations"] == .array([.string("passkey-second-factor")]))
        // None declared: the member is left out, as in every report before it existed.
        #expect(try render().value["metadata"]?["adapter"]?["declarations"] == nil)
    }

    @Test("summary: raw verdict, outcome after waivers, exit status and counts")
    func summary() throws {
        let summary = try #require(try render().value["summary"])
        #expect(summary["verdict"] == .string("error"))
        #expect(summary["outcome"] == .string("error"))
        #expect(summary["status"] == .string("harnessError"))
        #expect(summary["exitStatus"] == .number(2))
        #expect(summary["waiverProblems"] == .number(1))
        #expect(
            summary["testCases"]
                == .object([
                    "total": .number(14), "passed": .number(9), "failed": .number(1), "waived": .number(1),
                    "error": .number(1), "notVerified": .number(1), "undefined": .number(1),
                ]))
        #expect(
            summary["criteria"]
                == .object([
                    "total": .number(5), "passed": .number(1), "failed": .number(1), "waived": .number(1),
                    "error": .number(1), "notVerified": .number(0), "undefined": .number(1),
                ]))
        #expect(summary["wallSeconds"] == .number(1.25))
        #expect(summary["virtualMillis"] == .number(21_000))
    }

    @Test("a waived failure keeps its verdict, gains the outcome and the waiver's id")
    func waivedTestCase() throws {
        let value = try render().value
        let cases = try #require(value["testCases"]?.arrayValue)
        let waived = try #require(cases.first { $0["id"] == .string("N2.6-AC04/apple-exclusion@apple-17.4") })
        #expect(waived["verdict"] == .string("failed"))
        #expect(waived["outcome"] == .string("waived"))
        #expect(waived["waivedBy"] == .string("N2.6-AC04@apple-17.4"))
        let failed = try #require(cases.first { $0["id"] == .string("N2.6-AC01/second-factor-pending@android-15-gpm") })
        #expect(failed["outcome"] == .string("failed"))
        #expect(failed["waivedBy"] == .null)
        #expect(failed["evidence"]?.arrayValue?.count == 3)
        #expect(failed["evidence"]?.arrayValue?[1]["payload"] == .object(["isConditional": .bool(true), "requestJson": .string("{\"user\":{}}")]))
        #expect(failed["evidence"]?.arrayValue?[0]["payload"] == .null)
        #expect(failed["evidence"]?.arrayValue?[0]["channel"] == .string("harness→rp"))
        #expect(
            failed["steps"]?.arrayValue?[2]
                == .object([
                    "keyword": .string("Then "), "text": .string("no conditional registration request is made"),
                    "line": .number(12), "status": .string("failed"), "message": .string("1 request was made"),
                ]))
        let passed = try #require(cases.first)
        #expect(passed["message"] == .null)
        #expect(passed["outcome"] == .string("passed"))
    }

    @Test("criteria: per-target cells for applicable targets only, verify items with their test cases")
    func criteria() throws {
        let criteria = try #require(try render().value["criteria"]?.arrayValue)
        #expect(criteria.map { $0["id"] } == ["N2.6-AC01", "N2.6-AC04", "N2.6-X01", "N3.2-AC01", "N3.2-AC02"].map(JSONValue.string))
        let ac04 = criteria[1]
        #expect(ac04["verdict"] == .string("failed"))
        #expect(ac04["outcome"] == .string("waived"))
        #expect(ac04["targets"]?["apple-17.4"] == .object(["verdict": .string("failed"), "outcome": .string("waived")]))
        #expect(ac04["targets"]?["apple-18"] == .object(["verdict": .string("passed"), "outcome": .string("passed")]))
        let items = try #require(ac04["verifyItems"]?.arrayValue)
        #expect(
            items[2]
                == .object([
                    "id": .string("N2.6-AC04.V3"), "text": .string("accounts with zero, one and several known credentials"),
                    "testCases": .array([]),
                ]))
        #expect(criteria[0]["targets"]?["apple-17.4"] == nil, "N2.6-AC01 does not apply to apple-17.4")
        #expect(criteria[2]["derived"] == .bool(true))
        #expect(criteria[4]["level"] == .string("quality"))
        #expect(criteria[4]["described"] == .bool(true))
    }

    @Test("waivers: file, day, every entry with its status, and the problems")
    func waivers() throws {
        let waivers = try #require(try render().value["waivers"])
        #expect(waivers["file"] == .string("waivers.json"))
        #expect(waivers["evaluatedOn"] == .string("2026-01-15"))
        #expect(waivers["entries"]?.arrayValue?.map { $0["status"] } == [.string("active"), .string("stale")])
        #expect(waivers["entries"]?.arrayValue?.first?["waivedTestCases"] == .array([.string("N2.6-AC04/apple-exclusion@apple-17.4")]))
        #expect(waivers["problems"]?.arrayValue?.map { $0["kind"] } == [.string("stale")])
        #expect(waivers["problems"]?.arrayValue?.first?["waiver"] == .string("N2.6-X01@*"))

        let none = try #require(try render(waivers: .none).value["waivers"])
        #expect(
            none == .object(["file": .null, "evaluatedOn": .null, "clockDay": .null, "revived": .array([]), "entries": .array([]), "problems": .array([])]))
    }

    @Test("test cases of a criterion the run does not describe are kept, under an undescribed criterion")
    func undescribedCriterion() throws {
        var run = ReportFixtures.run
        run.criteria.removeLast()
        let criteria = try #require(try render(run).value["criteria"]?.arrayValue)
        let orphan = try #require(criteria.last)
        #expect(orphan["id"] == .string("N3.2-AC02"))
        #expect(orphan["described"] == .bool(false))
        #expect(orphan["title"] == .null)
        #expect(orphan["verdict"] == .string("undefined"))
        #expect(orphan["testCases"] == .array([.string("N3.2-AC02/absent-id@android-15-gpm")]))
    }

    @Test("non-finite numbers never break the document")
    func nonFinite() throws {
        var run = ReportFixtures.run
        run.wallSeconds = .nan
        run.testCases[0].wallSeconds = -.infinity
        run.testCases[1].evidence[0].payload = .array([.number(.infinity), .number(.nan)])
        let value = try render(run).value
        #expect(value["summary"]?["wallSeconds"] == .number(0))
        #expect(value["testCases"]?.arrayValue?[0]["wallSeconds"] == .number(0))
        #expect(value["testCases"]?.arrayValue?[1]["evidence"]?.arrayValue?[0]["payload"] == .array([.string("Infinity"), .string("NaN")]))
    }
}
