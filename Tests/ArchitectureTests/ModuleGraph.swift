import Foundation

/// A module graph: each module's kind and the modules it depends on, read from the architecture
/// document's table or from `Package.swift`.
struct ModuleGraph: Equatable {
    /// A module's kind and its direct dependencies, in declaration order.
    struct Module: Equatable {
        var kind: String
        var dependencies: [String]
    }

    var modules: [String: Module] = [:]

    /// The modules every source file may import whatever its target: the standard library's, the
    /// system's and the toolchain's.
    static let systemModules: Set<String> = [
        "Swift", "Foundation", "FoundationEssentials", "FoundationXML", "FoundationNetworking", "Dispatch", "Synchronization",
        "Glibc", "Musl", "Darwin", "Android", "WinSDK", "CryptoKit", "Testing", "XCTest", "PackageDescription", "PackagePlugin", "os",
    ]

    /// The graph of the document's table: rows `| \`Module\` | kind | \`A\`, \`B\` |` (`—` for none).
    /// Throws when the document has no such row, so that a reworded table cannot pass as an empty graph.
    static func fromDocument(_ text: String) throws -> ModuleGraph {
        var graph = ModuleGraph()
        let row = /^\|\s*`([^`]+)`\s*\|\s*([a-z]+)\s*\|(.*)\|\s*$/
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            guard let match = String(line).wholeMatch(of: row) else { continue }
            let dependencies = String(match.3).matches(of: /`([^`]+)`/).map { String($0.1) }
            graph.modules[String(match.1)] = Module(kind: String(match.2), dependencies: dependencies)
        }
        if graph.modules.isEmpty { throw ReadError("the document has no row `| \\`Module\\` | kind | dependencies |`") }
        return graph
    }

    /// The graph `Package.swift` declares: every entry of its `targets:` array with its `name:` and
    /// the names in its `dependencies:` list (conditions and product references included by name).
    static func fromManifest(_ text: String) throws -> ModuleGraph {
        let source = text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in line.range(of: "//").map { String(line[..<$0.lowerBound]) } ?? String(line) }
            .joined(separator: "\n")
        // The package's own list (a line of its own), not a product's `targets: ["…"]`.
        guard let targetsStart = source.range(of: "targets: [\n") else { throw ReadError("Package.swift has no `targets: [` list") }
        let kinds = [
            ".executableTarget(": "executable", ".testTarget(": "test", ".systemLibrary(": "system", ".plugin(": "plugin",
            ".target(": "library",
        ]
        var graph = ModuleGraph()
        for entry in topLevelElements(of: source, openingAt: source.index(targetsStart.upperBound, offsetBy: -2)) {
            let trimmed = entry.trimmingCharacters(in: .whitespacesAndNewlines)
            guard let kind = kinds.first(where: { trimmed.hasPrefix($0.key) })?.value else { continue }
            guard let name = trimmed.firstMatch(of: /name:\s*"([^"]+)"/)?.1 else { throw ReadError("a target without a name: \(trimmed)") }
            var dependencies: [String] = []
            if let list = trimmed.range(of: "dependencies: [") {
                let inner = topLevelElements(of: trimmed, openingAt: trimmed.index(before: list.upperBound))
                dependencies = inner.compactMap { $0.firstMatch(of: /"([^"]+)"/).map { String($0.1) } }
            }
            graph.modules[String(name)] = Module(kind: kind, dependencies: dependencies)
        }
        if graph.modules.isEmpty { throw ReadError("Package.swift declares no target") }
        // A library product names its module: the document calls such a module a product.
        for product in source[..<targetsStart.lowerBound].matches(of: /\.library\(name:\s*"[^"]+",\s*targets:\s*\["([^"]+)"\]/) {
            graph.modules[String(product.1)]?.kind = "product"
        }
        return graph
    }

    /// The comma-separated elements of the bracketed list whose `[` is at `open`, split at its own
    /// depth only (nested brackets, parentheses and strings are kept whole).
    private static func topLevelElements(of text: String, openingAt open: String.Index) -> [String] {
        var elements: [String] = []
        var current = ""
        var depth = 0
        var inString = false
        for character in text[open...] {
            if inString {
                current.append(character)
                if character == "\"" { inString = false }
                continue
            }
            switch character {
            case "\"":
                inString = true
                current.append(character)
            case "[", "(":
                depth += 1
                if depth > 1 { current.append(character) }
            case "]", ")":
                depth -= 1
                if depth == 0 {
                    if !current.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { elements.append(current) }
                    return elements
                }
                current.append(character)
            case "," where depth == 1:
                elements.append(current)
                current = ""
            default:
                current.append(character)
            }
        }
        return elements
    }

    /// Where the two graphs differ, one line per module: missing on one side, another kind, other
    /// dependencies. Empty when they agree.
    func differences(from other: ModuleGraph, named name: String, otherNamed otherName: String) -> [String] {
        var found: [String] = []
        for module in Set(modules.keys).union(other.modules.keys).sorted() {
            switch (modules[module], other.modules[module]) {
            case (nil, _): found.append("\(module) is in \(otherName) but not in \(name)")
            case (_, nil): found.append("\(module) is in \(name) but not in \(otherName)")
            case (let mine?, let theirs?):
                if mine.kind != theirs.kind {
                    found.append("\(module) is a \(mine.kind) in \(name) but a \(theirs.kind) in \(otherName)")
                }
                if Set(mine.dependencies) != Set(theirs.dependencies) {
                    let onlyMine = Set(mine.dependencies).subtracting(theirs.dependencies).sorted()
                    let onlyTheirs = Set(theirs.dependencies).subtracting(mine.dependencies).sorted()
                    found.append(
                        "\(module) depends on \(onlyMine) only in \(name) and on \(onlyTheirs) only in \(otherName)")
                }
            }
        }
        return found
    }

    /// The modules `module` depends on, directly or through others.
    func closure(of module: String) -> Set<String> {
        var seen: Set<String> = []
        var queue = [module]
        while let next = queue.popLast() {
            for dependency in modules[next]?.dependencies ?? [] where seen.insert(dependency).inserted { queue.append(dependency) }
        }
        return seen
    }

    /// The test helpers: libraries without a test target of their own that only test targets and
    /// other test helpers depend on.
    var testHelpers: Set<String> {
        var dependents: [String: Set<String>] = [:]
        for (name, module) in modules { for dependency in module.dependencies { dependents[dependency, default: []].insert(name) } }
        // A library with a test target of its own is a module under test, not a helper, even
        // before any module above it uses it.
        var helpers = Set(modules.filter { $0.value.kind == "library" && dependents[$0.key] != nil && modules["\($0.key)Tests"] == nil }.keys)
        while true {
            let kept = helpers.filter { helper in dependents[helper, default: []].allSatisfy { modules[$0]?.kind == "test" || helpers.contains($0) } }
            if kept == helpers { return helpers }
            helpers = kept
        }
    }

    /// Every test target named after a module (`<Module>Tests`) that depends on a module built on
    /// that module (one whose dependencies reach it), directly or through a test helper: such a
    /// target tests the module from above instead of on its own. Modules beside it (a relying party
    /// to drive it with, say) are allowed; test helpers are judged by what they bring in.
    func testTargetsReachingAbove() -> [String] {
        let helpers = testHelpers
        var found: [String] = []
        for (name, target) in modules.sorted(by: { $0.key < $1.key }) where target.kind == "test" && name.hasSuffix("Tests") {
            let tested = String(name.dropLast("Tests".count))
            guard modules[tested] != nil else { continue }
            for dependency in target.dependencies {
                let brought = helpers.contains(dependency) ? closure(of: dependency).union([dependency]) : [dependency]
                for module in brought.sorted() where module != tested && !helpers.contains(module) && closure(of: module).contains(tested) {
                    let through = module == dependency ? "" : " (through \(dependency))"
                    found.append("\(name) depends on \(module)\(through), which is built on \(tested), the module it tests")
                }
            }
        }
        return found
    }

    /// The modules a Swift source file imports, with `@testable`, `@_exported` and access-level
    /// imports, and `import struct M.T`. Lines inside multi-line string literals (the skeletons the
    /// command line writes) are not imports.
    static func imports(inSwiftSource text: String) -> [String] {
        var found: [String] = []
        var inMultilineString = false
        let statement =
            /^\s*(?:@\w+\s+)*(?:(?:public|package|internal|private|fileprivate)\s+)?import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_][A-Za-z0-9_]*)/
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let delimiters = line.ranges(of: "\"\"\"").count
            if !inMultilineString, let match = String(line).firstMatch(of: statement) { found.append(String(match.1)) }
            if delimiters % 2 == 1 { inMultilineString.toggle() }
        }
        return found
    }

    /// Every import of a module that its target does not declare (nor the system provides), as
    /// `file: imports X, which <module> does not depend on`. `sources` maps each module to its files'
    /// paths and texts.
    func undeclaredImports(sources: [String: [(path: String, text: String)]]) -> [String] {
        var found: [String] = []
        for (module, files) in sources.sorted(by: { $0.key < $1.key }) {
            let allowed = Set(modules[module]?.dependencies ?? []).union(Self.systemModules).union([module])
            for file in files {
                for imported in Self.imports(inSwiftSource: file.text) where !allowed.contains(imported) {
                    found.append("\(file.path): imports \(imported), which \(module) does not depend on")
                }
            }
        }
        return found
    }
}

/// Why a document or manifest could not be read as a graph.
struct ReadError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
