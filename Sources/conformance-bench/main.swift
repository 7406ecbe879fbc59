// Benchmark of the whole conformance suite against the reference RP (run in release from the
// checkout: `swift run -c release conformance-bench [repetitions] [--criteria <path>]`, the criteria
// being `./Criteria` unless named). Prints figures; asserts nothing.
import ConformanceJSONRPC
import ConformanceKit
import Foundation
import ReferenceRP

let arguments = CommandLine.arguments.dropFirst()
// The benchmark re-runs itself as the trivial adapter of the JSON-RPC round-trip measurement.
if arguments.first == "--serve-trivial-adapter" {
    await JSONRPCBenchmark.serveTrivialAdapter()
    exit(0)
}
let repetitions = arguments.first.flatMap(Int.init) ?? 5
let criteriaRoot = zip(arguments, arguments.dropFirst()).first { $0.0 == "--criteria" }?.1 ?? "Criteria"
let criteria = CriteriaLoader().load(root: criteriaRoot)
guard !criteria.hasErrors else {
    criteria.diagnostics.forEach { print($0) }
    exit(2)
}
do {
    let inProcess = try await SuiteBenchmark.measure("in-process", criteria: criteria, repetitions: repetitions) { (ReferenceRP(), "in-process") }
    print(SuiteBenchmark.line(inProcess))
    // The same suite through JSON-RPC, against the reference-rp-adapter built beside this benchmark.
    let adapterPath = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("reference-rp-adapter").path
    if FileManager.default.isExecutableFile(atPath: adapterPath) {
        let outOfProcess = try await SuiteBenchmark.measure("out-of-process (JSON-RPC, reference-rp-adapter)", criteria: criteria, repetitions: repetitions) {
            (JSONRPCAdapter(executable: adapterPath), "json-rpc")
        }
        print(SuiteBenchmark.line(outOfProcess))
        print(
            String(
                format: "out-of-process / in-process wall time: %.2fx (suite only, one process; Scripts/bench-transport.sh times whole processes)",
                outOfProcess.median / inProcess.median))
    } else {
        print("out-of-process: skipped, \(adapterPath) is not built (swift build -c release --product reference-rp-adapter)")
    }
    // Protocol overhead: JSON-RPC round trips to a trivial adapter against a raw pipe echo (cat) of the same bytes.
    let roundTrips = try await JSONRPCBenchmark.run(adapterCommand: "'\(CommandLine.arguments[0])' --serve-trivial-adapter")
    print(roundTrips)
} catch {
    print("error: \(error)")
    exit(2)
}
