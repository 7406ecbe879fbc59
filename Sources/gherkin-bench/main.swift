// gherkin-bench: parses and compiles the Gherkin corpus repeatedly and prints the throughput.
//
// Usage: gherkin-bench [--seconds N | --passes N] [corpus-folder]
//   corpus-folder  the folder of `.feature` / `.feature.md` files (default: $GHERKIN_TESTDATA/good,
//                  else ../shared/gherkin/testdata/good)
// Prints one line: `gherkin-bench: <MB/s> MB/s (<files> files, <bytes> bytes, <passes> passes, <seconds> s)`.
// Time is the process's CPU time, so other work on the machine does not count against the parser.

import Foundation
import Gherkin

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The CPU time this process has used, in seconds.
func cpuSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

var seconds = 5.0
var fixedPasses: Int?
var folder: String?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    if argument == "--seconds", let value = arguments.popFirst().flatMap(Double.init) {
        seconds = value
    } else if argument == "--passes", let value = arguments.popFirst().flatMap(Int.init) {
        fixedPasses = value
    } else {
        folder = argument
    }
}
let corpus =
    folder ?? ProcessInfo.processInfo.environment["GHERKIN_TESTDATA"].map { $0 + "/good" }
    ?? "../shared/gherkin/testdata/good"
let names = ((try? FileManager.default.contentsOfDirectory(atPath: corpus)) ?? [])
    .filter { $0.hasSuffix(".feature") || $0.hasSuffix(".feature.md") }.sorted()
guard !names.isEmpty else {
    FileHandle.standardError.write(Data("gherkin-bench: no .feature files in \(corpus)\n".utf8))
    exit(64)
}
let sources = names.map { name in
    (uri: name, text: String(decoding: FileManager.default.contents(atPath: corpus + "/" + name) ?? Data(), as: UTF8.self))
}
let bytesPerPass = sources.reduce(0) { $0 + $1.text.utf8.count }

/// One pass: parse and compile every file; returns a checksum so the work cannot be optimised away.
func pass() -> Int {
    var checksum = 0
    for source in sources {
        var ids = IDGenerator()
        let result = GherkinParser().parse(source.text, uri: source.uri, ids: &ids)
        if let document = result.document {
            checksum &+= PickleCompiler().compile(document, uri: source.uri, ids: &ids).count
        }
        checksum &+= result.errors.count
    }
    return checksum
}

_ = pass()  // warm up
let start = cpuSeconds()
var passes = 0
var checksum = 0
var elapsed = 0.0
repeat {
    checksum &+= pass()
    passes += 1
    elapsed = cpuSeconds() - start
} while fixedPasses.map { passes < $0 } ?? (elapsed < seconds)
let megabytesPerSecond = Double(bytesPerPass * passes) / elapsed / 1_000_000
print(
    "gherkin-bench: \(String(format: "%.2f", megabytesPerSecond)) MB/s (\(sources.count) files, \(bytesPerPass) bytes, \(passes) passes, \(String(format: "%.2f", elapsed)) s CPU, checksum \(checksum))"
)
