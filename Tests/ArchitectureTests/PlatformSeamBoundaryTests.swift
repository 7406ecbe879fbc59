import Foundation
import TestSupportCore
import Testing

/// The platform seam (Documentation/platform-seam.md): the kit, the command line and the self-test
/// reach a platform only through `PlatformBackend` and a `PlatformBackendFactory`, so that a backend
/// that is not the Swift simulation (a real browser) drops in without touching them.
@Suite("Platform seam boundary")
struct PlatformSeamBoundaryTests {
    /// The simulated families' own types, which only `ConformanceSimulation` (and its factory) names.
    static let simulationTypes = ["PlatformSimulator", "SimulationHost"]
    /// The modules above the seam.
    static let above = ["ConformanceKit", "PasskeyConformanceCLI", "ConformanceSelfTest", "ConformanceReports"]

    /// The code lines (comments left out) of `text` that name one of `names` as a word.
    static func mentions(_ names: [String], in text: String) -> [String] {
        text.split(separator: "\n").map(String.init).filter { line in
            let code = line.trimmingCharacters(in: .whitespaces)
            guard !code.hasPrefix("//") else { return false }
            return names.contains { name in
                code.range(of: "\\b\(name)\\b", options: .regularExpression) != nil
            }
        }
    }

    @Test("no module above the seam names the simulator or the simulation host")
    func aboveTheSeam() throws {
        var found: [String] = []
        for module in Self.above {
            let directory = PackagePaths.root.appendingPathComponent("Sources/\(module)")
            let walker = try #require(FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil))
            for case let url as URL in walker where url.pathExtension == "swift" {
                let text = try String(contentsOf: url, encoding: .utf8)
                found += Self.mentions(Self.simulationTypes, in: text).map { "Sources/\(module)/\(url.lastPathComponent): \($0)" }
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    @Test("the check sees a use in code and passes comments and longer names")
    func checkFinds() {
        #expect(Self.mentions(Self.simulationTypes, in: "let host = SimulationHost(simulator: x)").count == 1)
        #expect(Self.mentions(Self.simulationTypes, in: "    /// SimulationHost decides").isEmpty)
        #expect(Self.mentions(Self.simulationTypes, in: "let s: PlatformSimulatorTests").isEmpty)
    }
}
