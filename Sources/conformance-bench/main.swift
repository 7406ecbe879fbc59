// Benchmark of the whole conformance suite against the reference RP (run in release:
// `swift run -c release conformance-bench`). Prints figures; asserts nothing.
import ConformanceKit
import Foundation
import PasskeyConformanceCLI
import ReferenceRP

let arguments = CommandLine.arguments.dropFirst()
let repetitions = arguments.first.flatMap(Int.init) ?? 5
let criteria = CriteriaLoader().load(root: Suite.defaultCriteriaRoot())
guard !criteria.hasErrors else {
    criteria.diagnostics.forEach { print($0) }
    exit(2)
}
do {
    let inProcess = try await SuiteBenchmark.measure("in-process", criteria: criteria, repetitions: repetitions) { (ReferenceRP(), "in-process") }
    print(SuiteBenchmark.line(inProcess))
} catch {
    print("error: \(error)")
    exit(2)
}
