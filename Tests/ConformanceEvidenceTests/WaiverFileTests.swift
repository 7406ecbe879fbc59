import ConformanceEvidence
import ConformanceKit
@testable import ConformanceEvidence
import ConformanceReports
import ConformanceTestSupport
import Foundation
import Testing

@Suite("Calendar dates")
struct CalendarDateTests {
    @Test(
        "parses exactly YYYY-MM-DD",
        arguments: [
            ("2026-03-31", true), ("2024-02-29", true), ("2000-02-29", true), ("0001-01-01", true), ("9999-12-31", true),
            ("2025-02-29", false), ("1900-02-29", false), ("2026-04-31", false), ("2026-13-01", false), ("2026-00-10", false),
            ("2026-1-01", false), ("2026-01-1", false), ("20260101", false), ("2026/01/01", false), (" 2026-01-01", false),
            ("2026-01-01T00:00:00Z", false), ("０２０２６-01-01", false), ("0000-01-01", false), ("", false),
        ])
    func parse(text: String, valid: Bool) {
        #expect((CalendarDate(text) != nil) == valid)
        if valid { #expect(CalendarDate(text)?.description == text) }
    }

    @Test("orders by year, month, day")
    func order() throws {
        let dates = try ["2026-01-02", "2025-12-31", "2026-01-01", "2026-02-01"].map { try #require(CalendarDate($0)) }
        #expect(dates.sorted().map(\.description) == ["2025-12-31", "2026-01-01", "2026-01-02", "2026-02-01"])
    }

    @Test(
        "the UTC day of an instant",
        arguments: [
            (0.0, "1970-01-01"), (86_399.0, "1970-01-01"), (86_400.0, "1970-01-02"), (-1.0, "1969-12-31"),
            (951_782_400.0, "2000-02-29"), (1_768_521_599.0, "2026-01-15"), (1_768_521_600.0, "2026-01-16"), (4_107_542_400.0, "2100-03-01"),
        ])
    func utcDay(seconds: Double, expected: String) {
        #expect(CalendarDate(utcDayOf: Date(timeIntervalSince1970: seconds)).description == expected)
    }

    @Test("round-trips through Codable as a string")
    func codable() throws {
        let date = try #require(CalendarDate("2026-03-31"))
        let data = try JSONEncoder().encode([date])
        #expect(String(decoding: data, as: UTF8.self) == "[\"2026-03-31\"]")
        #expect(try JSONDecoder().decode([CalendarDate].self, from: data) == [date])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([CalendarDate].self, from: Data("[\"2026-02-30\"]".utf8)) }
    }
}

@Suite("Waiver files")
struct WaiverFileTests {
    static let valid = ReportFixtures.validWaiverFile

    func parse(_ text: String) throws(WaiverFile.LoadError) -> WaiverFile {
        try WaiverFile.parse(Array(text.utf8), path: "ci/waivers.json")
    }

    @Test("a valid file gives its waivers in file order")
    func valid() throws {
        let file = try parse(Self.valid)
        #expect(file.path == "ci/waivers.json")
        #expect(
            file.waivers == [
                ReportFixtures.waiver("N2.6-AC04", "apple-17.4"),
                ReportFixtures.waiver("N2.6-X01", "*", expires: "2026-02-01", owner: "server-team", reason: "UV check fix in review"),
            ])
        #expect(file.waivers.map(\.id) == ["N2.6-AC04@apple-17.4", "N2.6-X01@*"])
        #expect(file.waivers[1].target == .any)
    }

    @Test("an empty waiver list is valid")
    func emptyList() throws {
        #expect(try parse(#"{"version": 1, "waivers": []}"#).waivers.isEmpty)
    }

    static let entry = #""criterion": "N2.6-AC04", "target": "apple-18", "reason": "r", "owner": "o""#

    /// Each malformed file with the one problem it must produce: its location and words of its message.
    @Test(
        "a malformed file names the entry, the member and what is wrong",
        arguments: [
            ("", nil, "the file is empty"),
            ("  \n", nil, "the file is empty"),
            ("{\"version\": 1, \"waivers\": [", nil, "not valid JSON"),
            ("[]", nil, "must hold a JSON object with `version` and `waivers`, found an array"),
            (#"{"waivers": []}"#, "version", "missing; write `\"version\": 1`"),
            (#"{"version": 2, "waivers": []}"#, "version", "unsupported version 2; this harness reads version 1"),
            (#"{"version": "1", "waivers": []}"#, "version", "unsupported version \"1\""),
            (#"{"version": 1}"#, "waivers", "missing; expected an array of waivers"),
            (#"{"version": 1, "waivers": {}}"#, "waivers", "must be an array of waivers, found an object"),
            (#"{"version": 1, "waivers": [], "owner": "x"}"#, "owner", "unknown member"),
            (#"{"version": 1, "waivers": [], "$schema": 3}"#, "$schema", "must be a string, found a number"),
            (
                #"{"version": 1, "waivers": ["N2.6-AC04"]}"#, "waivers[0]",
                "must be an object with `criterion`, `target`, `reason`, `owner`, `expires`, found a string"
            ),
            (#"{"version": 1, "waivers": [{"criterion": "N2.6-AC04", "target": "apple-18", "reason": "r", "owner": "o"}]}"#, "waivers[0].expires", "missing"),
            (#"{"version": 1, "waivers": [{"target": "apple-18", "reason": "r", "owner": "o", "expires": "2026-01-01"}]}"#, "waivers[0].criterion", "missing"),
            (#"{"version": 1, "waivers": [{\#(entry), "expires": 20260101}]}"#, "waivers[0].expires", "must be a string, found a number"),
            (
                #"{"version": 1, "waivers": [{"criterion": "N2.6AC04", "target": "apple-18", "reason": "r", "owner": "o", "expires": "2026-01-01"}]}"#,
                "waivers[0].criterion", "\"N2.6AC04\" is not a criterion id"
            ),
            (
                #"{"version": 1, "waivers": [{\#(entry), "expires": "2026-02-30"}]}"#, "waivers[0].expires",
                "\"2026-02-30\" is not a calendar date in the form YYYY-MM-DD"
            ),
            (#"{"version": 1, "waivers": [{\#(entry), "expires": "31.03.2026"}]}"#, "waivers[0].expires", "\"31.03.2026\" is not a calendar date"),
            (#"{"version": 1, "waivers": [{\#(entry), "expires": "2026-01-01", "expiry": "2027-01-01"}]}"#, "waivers[0].expiry", "unknown member"),
            (
                #"{"version": 1, "waivers": [{"criterion": "N2.6-AC04", "target": "apple-18", "reason": "  ", "owner": "o", "expires": "2026-01-01"}]}"#,
                "waivers[0].reason", "must not be empty"
            ),
            (
                #"{"version": 1, "waivers": [{"criterion": "N2.6-AC04", "target": "apple 18", "reason": "r", "owner": "o", "expires": "2026-01-01"}]}"#,
                "waivers[0].target", "\"apple 18\" must not contain whitespace"
            ),
            (
                #"{"version": 1, "waivers": [{"criterion": "N2.6-AC04", "target": null, "reason": "r", "owner": "o", "expires": "2026-01-01"}]}"#,
                "waivers[0].target", "must be a string, found null"
            ),
            (
                #"{"version": 1, "waivers": [{\#(entry), "expires": "2026-01-01"}, {\#(entry), "expires": "2027-01-01"}]}"#, "waivers[1]",
                "waives N2.6-AC04 on target `apple-18` a second time (first at waivers[0])"
            ),
        ] as [(String, String?, String)])
    func malformed(text: String, location: String?, message: String) throws {
        let error = try #require(throws: WaiverFile.LoadError.self) { try parse(text) }
        #expect(error.path == "ci/waivers.json")
        #expect(error.problems.count == 1, "\(error)")
        let problem = try #require(error.problems.first)
        #expect(problem.location == location)
        #expect(problem.message.contains(message), "\(problem.message)")
        #expect(error.description.hasPrefix("ci/waivers.json: error: " + (location.map { "\($0): " } ?? "")))
    }

    @Test("every problem of a file is reported at once, in document order")
    func collectsAllProblems() throws {
        let text = #"""
            {"version": 1, "waivers": [
              {"criterion": "N2.6-AC04", "target": "apple-18", "reason": "", "owner": 7, "expires": "2026-02-30"},
              {"criterion": "N2.6-AC05", "target": "*", "reason": "r", "owner": "o", "expires": "2026-01-01", "scope": "all"}
            ]}
            """#
        let error = try #require(throws: WaiverFile.LoadError.self) { try parse(text) }
        #expect(error.problems.map(\.location) == ["waivers[0].reason", "waivers[0].owner", "waivers[0].expires", "waivers[1].scope"])
        #expect(error.problems.map(\.entry) == [0, 0, 0, 1])
        #expect(error.problems.map(\.field) == ["reason", "owner", "expires", "scope"])
        #expect(error.description.split(separator: "\n").count == 4)
    }

    @Test("load reads a file and reports an unreadable one with the system's reason")
    func load() throws {
        let directory = try ReportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("waivers.json").path
        try Data(Self.valid.utf8).write(to: URL(fileURLWithPath: path))
        let file = try WaiverFile.load(path)
        #expect(file.path == path)
        #expect(file.waivers.count == 2)

        let missing = directory.appendingPathComponent("absent.json").path
        let notFound = try #require(throws: WaiverFile.LoadError.self) { try WaiverFile.load(missing) }
        #expect(notFound.path == missing)
        #expect(notFound.description == "\(missing): error: cannot read the waiver file: No such file or directory")

        let isDirectory = try #require(throws: WaiverFile.LoadError.self) { try WaiverFile.load(directory.path) }
        #expect(isDirectory.problems.map(\.message) == ["cannot read the waiver file: Is a directory"])
    }

    @Test("a waiver reason is kept to 1,000 characters, the cut marked")
    func longReason() throws {
        let reason = String(repeating: "r", count: 5_000)
        let text = #"{"version":1,"waivers":[{"criterion":"N2.6-AC01","target":"*","reason":"\#(reason)","owner":"o","expires":"2099-01-01"}]}"#
        let file = try WaiverFile.parse(Array(text.utf8), path: "w.json")
        #expect(file.waivers.first?.reason == String(repeating: "r", count: 1_000) + "… [cut: 4000 more characters]")
    }

    @Test("a member given twice is an error at the second one, with line and column")
    func duplicateMember() {
        let text =
            "{\"version\":1,\"waivers\":[{\"criterion\":\"N2.6-AC01\",\"target\":\"*\",\"reason\":\"r\",\"owner\":\"o\",\n\"expires\":\"2099-01-01\",\"expires\":\"2020-01-01\"}]}"
        #expect(throws: WaiverFile.LoadError.self) { try WaiverFile.parse(Array(text.utf8), path: "w.json") }
        do {
            _ = try WaiverFile.parse(Array(text.utf8), path: "w.json")
        } catch {
            #expect(error.problems.map(\.description) == [#"duplicate member name "expires" in one object (line 2, column 24); give each member once"#])
        }
    }
}
