import ConformanceKit
import Foundation
import ReferenceRP

/// Measures the whole suite against the reference RP: wall time per run and the virtual time it covers.
package enum SuiteBenchmark {
    package struct Measurement: Sendable {
        package var label: String
        package var testCases: Int
        package var virtualSeconds: Double
        package var wallSeconds: [Double]
        package var median: Double { wallSeconds.sorted()[wallSeconds.count / 2] }
        package var best: Double { wallSeconds.min() ?? 0 }
    }

    /// Runs the suite `repetitions` times against `makeAdapter()` and returns the figures.
    package static func measure(
        _ label: String, criteria: CriteriaLoader.Result, repetitions: Int,
        makeAdapter: () throws -> (any RelyingPartyAdapter, String)
    ) async throws -> Measurement {
        var walls: [Double] = []
        var last: RunResult?
        for _ in 0..<repetitions {
            let (adapter, transport) = try makeAdapter()
            let clock = ContinuousClock()
            let start = clock.now
            let run = try await Suite.run(criteria: criteria.criteria, digest: criteria.digest, adapter: adapter, transport: transport)
            await adapter.shutdown()
            walls.append((clock.now - start).inSeconds)
            guard run.verdict == .passed else {
                throw SystemIssue(
                    "\(label): the suite did not pass (\(run.counts.filter { $0.key != .passed }.map { "\($0.value) \($0.key.rawValue)" }.joined(separator: ", ")))"
                )
            }
            last = run
        }
        return Measurement(label: label, testCases: last?.testCases.count ?? 0, virtualSeconds: Double(last?.virtualMillis ?? 0) / 1000, wallSeconds: walls)
    }

    package static func line(_ measurement: Measurement) -> String {
        String(
            format: "%@: %d test cases, median %.3f s wall (best %.3f s) over %d runs, %.0f s virtual covered (%.0fx faster than real time)",
            measurement.label, measurement.testCases, measurement.median, measurement.best, measurement.wallSeconds.count,
            measurement.virtualSeconds, measurement.virtualSeconds / max(measurement.median, 1e-9))
    }
}
