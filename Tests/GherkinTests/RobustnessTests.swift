import Foundation
import Testing
import TestSupportCore

@testable import Gherkin

/// The project's SplitMix64, so every run mutates the same way.
typealias SeededGenerator = SplitMix64

/// Mutates Gherkin sources: lines and bytes deleted, duplicated, swapped, truncated, and invalid
/// UTF-8, NUL bytes and stray keywords inserted.
struct Mutator {
    var random: SeededGenerator

    static let snippets: [[UInt8]] = [
        "Feature: f", "  Scenario: s", "Scenario Outline: <a>", "  Examples:", "    | a | b |", "    | 1 |",
        "  \"\"\"", "  ```", "```json", "@t1 @t2", "@a b", "# language: fr", "#language:no-such", "Rule: r",
        "Background:", "  Given <a> x", "  And y", "  * z", "", "   ", "# comment", "\t| x \\| y \\\\ \\n |",
        "## Scenario: md", "* Given md", "`@tag`", "  | --- |", "| a | b", "\\", "Fonctionnalité: f",
    ].map { Array($0.utf8) }

    static let invalidUTF8: [[UInt8]] = [
        [0xFF], [0xFE, 0xFF], [0xC3], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xC0, 0xAF], [0x80],
        [0x00], [0x00, 0x00], [0x0D], [0xEF, 0xBB, 0xBF],
    ]

    mutating func mutate(_ input: [UInt8]) -> [UInt8] {
        var lines = input.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let count = lines.count
            switch Int.random(in: 0..<9, using: &random) {
            case 0 where count > 0:
                lines.remove(at: Int.random(in: 0..<count, using: &random))
            case 1 where count > 0:
                let k = Int.random(in: 0..<count, using: &random)
                lines.insert(lines[k], at: k)
            case 2 where count > 1:
                lines.swapAt(Int.random(in: 0..<count, using: &random), Int.random(in: 0..<count, using: &random))
            case 3:
                lines.insert(Self.snippets.randomElement(using: &random)!, at: Int.random(in: 0...count, using: &random))
            case 4 where count > 0:
                let k = Int.random(in: 0..<count, using: &random)
                let p = Int.random(in: 0...lines[k].count, using: &random)
                lines[k].insert(contentsOf: Self.invalidUTF8.randomElement(using: &random)!, at: p)
            case 5 where count > 0:
                let k = Int.random(in: 0..<count, using: &random)
                if !lines[k].isEmpty {
                    let a = Int.random(in: 0..<lines[k].count, using: &random)
                    let b = Int.random(in: a...min(lines[k].count, a + 4), using: &random)
                    lines[k].removeSubrange(a..<b)
                }
            case 6:
                var joined = Array(lines.joined(separator: [0x0A]))
                joined.removeSubrange(Int.random(in: 0...joined.count, using: &random)...)
                lines = joined.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
            case 7 where count > 0:
                let k = Int.random(in: 0..<count, using: &random)
                let p = Int.random(in: 0...lines[k].count, using: &random)
                lines[k].insert(contentsOf: Self.snippets.randomElement(using: &random)!, at: p)
            default:
                let garbage = (0..<Int.random(in: 1...8, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
                lines.insert(garbage, at: Int.random(in: 0...count, using: &random))
            }
        }
        var output = Array(lines.joined(separator: [0x0A]))
        if Int.random(in: 0..<10, using: &random) == 0 {
            output = Array(output.split(separator: 0x0A, omittingEmptySubsequences: false).joined(separator: [0x0D, 0x0A]))
        }
        return output
    }
}

@Suite("Robustness", .heavy)
struct RobustnessTests {
    /// The seeds: the corpus files when the corpus is present, else a few built-in documents.
    static func seeds() throws -> [(uri: String, bytes: [UInt8])] {
        if Corpus.isAvailable {
            return try (Corpus.sources(in: "good").map { ("good", $0) } + Corpus.sources(in: "bad").map { ("bad", $0) })
                .map { folder, name in
                    // Long files are cut to 6 kB: mutating them again and again would only slow the test.
                    (name, Array(try Data(contentsOf: Corpus.url(folder, name)).prefix(6_000)))
                }
        }
        return Samples.all.map { ($0.uri, Array($0.text.utf8)) }
    }

    @Test(
        "10,000 mutated inputs: no crash, no hang, every failure an error with a position",
        // A hang never ends; the bound leaves room for a machine loaded by the other tests.
        .timeLimit(.minutes(10)))
    func mutatedInputs() throws {
        let seeds = try Self.seeds()
        var mutator = Mutator(random: SeededGenerator(seed: 0x5EED_6E8C_1A7E))
        var failures = 0
        var documents = 0
        var pickles = 0
        for iteration in 0..<10_000 {
            let seed = seeds[iteration % seeds.count]
            let input = mutator.mutate(seed.bytes)
            let result = GherkinParser().parse(bytes: input, uri: seed.uri)
            let lineCount = SourceText(String(decoding: input, as: UTF8.self)).lines.count
            if let document = result.document {
                #expect(result.errors.isEmpty)
                documents += 1
                var ids = result.ids
                pickles += PickleCompiler().compile(document, uri: seed.uri, ids: &ids).count
            } else {
                failures += 1
                #expect(!result.errors.isEmpty, "no document and no error for iteration \(iteration)")
                #expect(result.errors.count <= 11)
                for error in result.errors {
                    #expect((1...(lineCount + 1)).contains(error.location.line), "\(error) at iteration \(iteration)")
                    if error.kind == .unexpectedEndOfFile {
                        #expect(error.location.column == nil && error.location.line == lineCount + 1)
                    } else {
                        #expect((error.location.column ?? 0) >= 1, "\(error) at iteration \(iteration)")
                    }
                    #expect(error.description.hasPrefix("(\(error.location.line):"))
                }
            }
        }
        // The mutations must exercise both outcomes, or the test proves nothing.
        #expect(failures > 1_000)
        #expect(documents > 1_000)
        #expect(pickles > 1_000)
    }

    @Test("Parsing is deterministic")
    func deterministic() throws {
        var mutator = Mutator(random: SeededGenerator(seed: 42))
        for seed in try Self.seeds().prefix(20) {
            let input = mutator.mutate(seed.bytes)
            let first = GherkinParser().parse(bytes: input, uri: seed.uri)
            let second = GherkinParser().parse(bytes: input, uri: seed.uri)
            #expect(first == second)
        }
    }
}
