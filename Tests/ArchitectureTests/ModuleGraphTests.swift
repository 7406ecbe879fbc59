import Foundation
import TestSupportCore
import Testing

/// Documentation/architecture.md draws the module graph; Package.swift and every import must keep to it.
@Suite("Module graph")
struct ModuleGraphTests {
    static func read(_ path: String) throws -> String {
        try String(contentsOf: PackagePaths.root.appendingPathComponent(path), encoding: .utf8)
    }

    /// Every Swift file of every module that has sources, by module.
    static func packageSources(of graph: ModuleGraph) throws -> [String: [(path: String, text: String)]] {
        var sources: [String: [(path: String, text: String)]] = [:]
        for module in graph.modules.keys {
            for folder in ["Sources", "Tests", "Plugins"] {
                let directory = PackagePaths.root.appendingPathComponent("\(folder)/\(module)")
                guard let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else { continue }
                for case let url as URL in walker where url.pathExtension == "swift" {
                    sources[module, default: []].append(
                        (path: "\(folder)/\(module)/\(url.lastPathComponent)", text: try String(contentsOf: url, encoding: .utf8)))
                }
            }
        }
        return sources
    }

    @Test("the document's graph is the one Package.swift declares")
    func documentMatchesManifest() throws {
        let document = try ModuleGraph.fromDocument(Self.read("Documentation/architecture.md"))
        let manifest = try ModuleGraph.fromManifest(Self.read("Package.swift"))
        #expect(manifest.modules.count > 20)
        #expect(document.differences(from: manifest, named: "architecture.md", otherNamed: "Package.swift") == [])
    }

    @Test("no source file imports a module its target does not depend on")
    func importsKeepToTheGraph() throws {
        let document = try ModuleGraph.fromDocument(Self.read("Documentation/architecture.md"))
        let sources = try Self.packageSources(of: document)
        #expect(sources.values.map(\.count).reduce(0, +) > 300)
        #expect(document.undeclaredImports(sources: sources) == [])
    }

    @Test("each module's test target depends on no module built on the module it tests")
    func testTargetsMirrorTheModules() throws {
        let manifest = try ModuleGraph.fromManifest(Self.read("Package.swift"))
        #expect(manifest.testHelpers == ["TestSupportCore", "ConformanceTestSupport"])
        let mirrored = ["ConformanceModel", "ConformanceCriteria", "ConformanceSimulation", "ConformanceKit", "Gherkin", "WebAuthn"]
        for module in mirrored { #expect(manifest.modules["\(module)Tests"]?.dependencies.first == module, "\(module)Tests") }
        #expect(manifest.testTargetsReachingAbove() == [])
    }

    @Test("the model and the adapter library sit low: no parser, no runner, no libcrypto")
    func lowModulesStayLow() throws {
        let manifest = try ModuleGraph.fromManifest(Self.read("Package.swift"))
        func closure(of module: String) -> Set<String> {
            var seen: Set<String> = []
            var queue = [module]
            while let next = queue.popLast() {
                for dependency in manifest.modules[next]?.dependencies ?? [] where seen.insert(dependency).inserted { queue.append(dependency) }
            }
            return seen
        }
        #expect(closure(of: "ConformanceModel") == ["PasskeyConformanceProtocol", "SeededRandom", "Base64URLCoding"])
        #expect(closure(of: "PasskeyConformanceAdapter") == ["PasskeyConformanceProtocol", "Base64URLCoding"])
        #expect(!closure(of: "ReferenceRP").contains("ConformanceKit"))
        #expect(!closure(of: "ConformanceReports").contains("WebAuthn"))
        #expect(!closure(of: "GherkinTests").contains("ConformanceKit"))
        #expect(!closure(of: "WebAuthnTests").contains("ConformanceKit"))
    }
}

/// The checker itself: each kind of disagreement is found, so that the tests above can fail.
@Suite("Module graph checker")
struct ModuleGraphCheckerTests {
    static let manifest = """
        let package = Package(
            name: "demo",
            products: [
                .library(name: "Top", targets: ["Top"]),
            ],
            targets: [
                // A comment with (parentheses) and "quotes", [brackets].
                .target(name: "Leaf"),
                .systemLibrary(name: "CLib", pkgConfig: "lib"),
                .target(name: "Middle", dependencies: ["Leaf", .target(name: "CLib", condition: .when(platforms: [.linux]))]),
                .target(name: "Top", dependencies: ["Middle"], resources: [.copy("Resources/x.json")]),
                .testTarget(name: "TopTests", dependencies: ["Top", "Leaf"], exclude: ["Fixtures"]),
            ]
        )
        """

    static let document = """
        | Module | Kind | Depends on |
        |---|---|---|
        | `Leaf` | library | — |
        | `CLib` | system | — |
        | `Middle` | library | `Leaf`, `CLib` |
        | `Top` | product | `Middle` |
        | `TopTests` | test | `Top`, `Leaf` |
        """

    @Test("a manifest and a document that draw the same graph agree")
    func sameGraph() throws {
        let manifest = try ModuleGraph.fromManifest(Self.manifest)
        #expect(manifest.modules["Middle"] == .init(kind: "library", dependencies: ["Leaf", "CLib"]))
        #expect(manifest.modules["Top"]?.kind == "product")
        #expect(manifest.modules.count == 5)
        #expect(try ModuleGraph.fromDocument(Self.document).differences(from: manifest, named: "doc", otherNamed: "manifest") == [])
    }

    @Test("a wrong edge, a missing module and another kind are each reported")
    func wrongEdge() throws {
        let manifest = try ModuleGraph.fromManifest(Self.manifest)
        let wrongEdge = Self.document.replacingOccurrences(of: "| `Top` | product | `Middle` |", with: "| `Top` | product | `Middle`, `Leaf` |")
        #expect(
            try ModuleGraph.fromDocument(wrongEdge).differences(from: manifest, named: "doc", otherNamed: "manifest")
                == ["Top depends on [\"Leaf\"] only in doc and on [] only in manifest"])
        let missing = Self.document.replacingOccurrences(of: "| `CLib` | system | — |\n", with: "")
        #expect(
            try ModuleGraph.fromDocument(missing).differences(from: manifest, named: "doc", otherNamed: "manifest") == ["CLib is in manifest but not in doc"])
        let otherKind = Self.document.replacingOccurrences(of: "| `Top` | product |", with: "| `Top` | library |")
        #expect(
            try ModuleGraph.fromDocument(otherKind).differences(from: manifest, named: "doc", otherNamed: "manifest")
                == ["Top is a library in doc but a product in manifest"])
    }

    @Test("an import the graph does not allow is reported with its file; system modules and string literals are not")
    func undeclaredImport() throws {
        let graph = try ModuleGraph.fromDocument(Self.document)
        let middle = "#if canImport(Glibc)\n    import Glibc\n#endif\nimport Foundation\n@_exported import Leaf\nimport Top\n"
        let top = "@testable import Middle\nimport struct Leaf.Thing\nlet skeleton = \"\"\"\n    import Elsewhere\n    \"\"\"\n"
        #expect(
            graph.undeclaredImports(sources: ["Middle": [(path: "Middle/A.swift", text: middle)], "Top": [(path: "Top/B.swift", text: top)]])
                == ["Middle/A.swift: imports Top, which Middle does not depend on", "Top/B.swift: imports Leaf, which Top does not depend on"])
    }

    @Test("a test target that depends on a module above the one it tests is reported, also through a test helper")
    func testTargetAbove() throws {
        let clean = try ModuleGraph.fromManifest(Self.manifest)
        #expect(clean.testHelpers == [])
        #expect(clean.testTargetsReachingAbove() == [])
        let above = Self.manifest.replacingOccurrences(
            of: #".testTarget(name: "TopTests", dependencies: ["Top", "Leaf"], exclude: ["Fixtures"]),"#,
            with: #"""
                .testTarget(name: "TopTests", dependencies: ["Top", "Leaf"], exclude: ["Fixtures"]),
                .target(name: "TopFakes", dependencies: ["Top"]),
                .testTarget(name: "MiddleTests", dependencies: ["Middle", "Top"]),
                .testTarget(name: "LeafTests", dependencies: ["Leaf", "TopFakes"]),
                .testTarget(name: "CLibTests", dependencies: ["CLib", "Leaf"]),
                """#)
        let graph = try ModuleGraph.fromManifest(above)
        #expect(graph.testHelpers == ["TopFakes"])
        #expect(
            graph.testTargetsReachingAbove() == [
                "LeafTests depends on Middle (through TopFakes), which is built on Leaf, the module it tests",
                "LeafTests depends on Top (through TopFakes), which is built on Leaf, the module it tests",
                "MiddleTests depends on Top, which is built on Middle, the module it tests",
            ])
    }

    @Test("a document without the table is an error, not an empty graph")
    func emptyDocument() {
        #expect(throws: ReadError.self) { try ModuleGraph.fromDocument("# Architecture\n\nNo table here.\n") }
        #expect(throws: ReadError.self) { try ModuleGraph.fromManifest("let package = Package(name: \"x\")") }
    }
}
