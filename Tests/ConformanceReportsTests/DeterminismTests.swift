import ConformanceTestSupport
import ConformanceKit
@testable import ConformanceReports
import Testing

@Suite("Determinism")
struct DeterminismTests {
    /// The fixture run rebuilt with every dictionary filled in another order and at another
    /// capacity, so that their iteration orders differ while the values are equal.
    static func reshuffled(_ run: RunResult, capacity: Int) -> RunResult {
        var copy = run
        var filters: [String: String] = [:]
        filters.reserveCapacity(capacity)
        for key in run.metadata.filters.keys.sorted().reversed() { filters[key] = run.metadata.filters[key] }
        copy.metadata.filters = filters
        for index in copy.criteria.indices {
            var targets: [String: Verdict] = [:]
            targets.reserveCapacity(capacity)
            for key in run.criteria[index].targets.keys.sorted().reversed() { targets[key] = run.criteria[index].targets[key] }
            copy.criteria[index].targets = targets
        }
        return copy
    }

    static var manyFilters: RunResult {
        var run = ReportFixtures.run
        run.metadata.filters = Dictionary(uniqueKeysWithValues: (0..<24).map { ("filter-\($0)", "value \($0)") })
        return run
    }

    @Test("the same run gives the same bytes in every format, whatever its dictionaries' order")
    func sameBytes() throws {
        let run = Self.manyFilters
        var other = run
        for capacity in [64, 200, 1000, 5000] {
            other = Self.reshuffled(run, capacity: capacity)
            if Array(other.metadata.filters.keys) != Array(run.metadata.filters.keys) { break }
        }
        try #require(other == run)
        try #require(Array(other.metadata.filters.keys) != Array(run.metadata.filters.keys), "no dictionary order differed; the test would prove nothing")
        let waivers = ReportFixtures.waivers
        #expect(try JSONReporter.render(run, waivers: waivers) == JSONReporter.render(other, waivers: waivers))
        #expect(MarkdownReporter.render(run, waivers: waivers) == MarkdownReporter.render(other, waivers: waivers))
        #expect(JUnitReporter.render(run, waivers: waivers) == JUnitReporter.render(other, waivers: waivers))
        #expect(try JSONReporter.render(run, waivers: waivers) == JSONReporter.render(run, waivers: waivers))
    }
}
