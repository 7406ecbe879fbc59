// The keyword tables of every spoken language Gherkin supports (gherkin-languages.json).

import Foundation

/// The keywords of one spoken language, as listed in the bundled `gherkin-languages.json`.
///
/// A feature file chooses its dialect with a `# language: fr` header; without one it is English.
/// Step keywords include their trailing space where the language separates words with spaces
/// (`"Given "`), and `"* "` belongs to every step list.
public struct Dialect: Codable, Sendable, Hashable {
    /// The language code used in `# language:` headers (`en`, `fr`, `pt-BR`, `en-lol`, …).
    public var code: String
    /// The language's English name.
    public var name: String
    /// The language's name in itself.
    public var native: String
    /// `Feature` keywords.
    public var feature: [String]
    /// `Rule` keywords.
    public var rule: [String]
    /// `Background` keywords.
    public var background: [String]
    /// `Scenario` keywords.
    public var scenario: [String]
    /// `Scenario Outline` keywords.
    public var scenarioOutline: [String]
    /// `Examples` keywords.
    public var examples: [String]
    /// `Given` keywords.
    public var given: [String]
    /// `When` keywords.
    public var when: [String]
    /// `Then` keywords.
    public var then: [String]
    /// `And` keywords.
    public var and: [String]
    /// `But` keywords.
    public var but: [String]

    /// The dialect for a language code, or `nil` if `gherkin-languages.json` has none.
    public static func named(_ code: String) -> Dialect? { all[code] }

    /// English, the default dialect.
    public static var english: Dialect { all["en"] ?? builtInEnglish }

    /// Every dialect, by language code.
    public static var all: [String: Dialect] { DialectTable.shared.dialects }

    /// Every step keyword with its role; a keyword listed under several roles (like `"* "`) is `.unknown`.
    public var stepKeywordTypes: [String: StepKeywordType] {
        var types: [String: [StepKeywordType]] = [:]
        for (list, type) in [(given, StepKeywordType.context), (when, .action), (then, .outcome), (and, .conjunction), (but, .conjunction)] {
            for keyword in list { types[keyword, default: []].append(type) }
        }
        return types.mapValues { $0.count == 1 ? $0[0] : .unknown }
    }

    static let builtInEnglish = Dialect(
        code: "en", name: "English", native: "English", feature: ["Feature", "Business Need", "Ability"],
        rule: ["Rule"], background: ["Background"], scenario: ["Example", "Scenario"],
        scenarioOutline: ["Scenario Outline", "Scenario Template"], examples: ["Examples", "Scenarios"],
        given: ["* ", "Given "], when: ["* ", "When "], then: ["* ", "Then "], and: ["* ", "And "],
        but: ["* ", "But "])
}

/// The dialects loaded once from the bundled resource, with their matching tables.
struct DialectTable: Sendable {
    let dialects: [String: Dialect]
    let compiled: [String: CompiledDialect]

    static let shared = DialectTable()

    private init() {
        var dialects = Self.load()
        if dialects["en"] == nil { dialects["en"] = Dialect.builtInEnglish }
        self.dialects = dialects
        self.compiled = dialects.mapValues(CompiledDialect.init)
    }

    private struct Entry: Decodable {
        var name: String, native: String
        var feature: [String], rule: [String], background: [String], scenario: [String]
        var scenarioOutline: [String], examples: [String]
        var given: [String], when: [String], then: [String], and: [String], but: [String]
    }

    private static func load() -> [String: Dialect] {
        guard let url = Bundle.module.url(forResource: "gherkin-languages", withExtension: "json"),
            let data = try? Data(contentsOf: url),
            let entries = try? JSONDecoder().decode([String: Entry].self, from: data)
        else { return [:] }
        var result: [String: Dialect] = [:]
        for (code, e) in entries {
            result[code] = Dialect(
                code: code, name: e.name, native: e.native, feature: e.feature, rule: e.rule,
                background: e.background, scenario: e.scenario, scenarioOutline: e.scenarioOutline,
                examples: e.examples, given: e.given, when: e.when, then: e.then, and: e.and, but: e.but)
        }
        return result
    }
}

/// Keywords prepared for byte-wise matching, in the order they are tried.
///
/// The bytes of all keywords sit in one array, so trying them touches no reference counts.
struct KeywordList: Sendable {
    let texts: [String]
    let types: [StepKeywordType]
    private let bytes: [UInt8]
    private let ranges: [Range<Int>]

    /// The first bytes of the keywords, as a 256-bit set, to reject most lines at once.
    private let firstBytes: (UInt64, UInt64, UInt64, UInt64)

    /// Keywords in order; a repeated keyword is kept once (it could never match the second time).
    init(_ keywords: [String], types: [StepKeywordType] = []) {
        var seen: Set<String> = []
        var texts: [String] = []
        var kept: [StepKeywordType] = []
        for (index, keyword) in keywords.enumerated() where seen.insert(keyword).inserted {
            texts.append(keyword)
            if index < types.count { kept.append(types[index]) }
        }
        self.texts = texts
        self.types = kept
        var bytes: [UInt8] = []
        var ranges: [Range<Int>] = []
        var firsts: [UInt64] = [0, 0, 0, 0]
        for keyword in texts {
            let start = bytes.count
            bytes += keyword.utf8
            ranges.append(start..<bytes.count)
            if let first = keyword.utf8.first { firsts[Int(first) >> 6] |= 1 << UInt64(first & 63) }
        }
        self.bytes = bytes
        self.ranges = ranges
        firstBytes = (firsts[0], firsts[1], firsts[2], firsts[3])
    }

    @inline(__always)
    private func mayStart(with byte: UInt8) -> Bool {
        let word: UInt64
        switch byte >> 6 {
        case 0: word = firstBytes.0
        case 1: word = firstBytes.1
        case 2: word = firstBytes.2
        default: word = firstBytes.3
        }
        return word & (1 << UInt64(byte & 63)) != 0
    }

    /// The index of the first keyword found at `position` (followed by a colon if `colon`), or `nil`.
    /// `length` receives its byte length, colon included.
    func match(_ source: SourceText, at position: Int, end: Int, colon: Bool, length: inout Int) -> Int? {
        guard position < end, mayStart(with: source.bytes[position]) else { return nil }
        return source.bytes.withUnsafeBufferPointer { text in
            bytes.withUnsafeBufferPointer { keywords in
                ranges.withUnsafeBufferPointer { ranges in
                    var index = 0
                    for range in ranges {
                        defer { index += 1 }
                        let count = range.count + (colon ? 1 : 0)
                        if end - position < count { continue }
                        var i = 0
                        var same = true
                        for k in range {
                            if text[position + i] != keywords[k] {
                                same = false
                                break
                            }
                            i += 1
                        }
                        if !same || (colon && text[position + i] != UInt8(ascii: ":")) { continue }
                        length = count
                        return index
                    }
                    return nil
                }
            }
        }
    }
}

/// A dialect's keywords in the form and order the token matchers try them.
struct CompiledDialect: Sendable {
    let code: String
    let feature: KeywordList
    let rule: KeywordList
    let background: KeywordList
    let scenario: KeywordList
    let scenarioOutline: KeywordList
    let examples: KeywordList
    /// Step keywords, longest first (stable), so `"Given "` is not shadowed by a shorter prefix.
    let steps: KeywordList
    /// The same without `"* "`, each typed by its first role (the Markdown matcher's rule).
    let markdownSteps: KeywordList

    init(_ dialect: Dialect) {
        code = dialect.code
        feature = KeywordList(dialect.feature)
        rule = KeywordList(dialect.rule)
        background = KeywordList(dialect.background)
        scenario = KeywordList(dialect.scenario)
        scenarioOutline = KeywordList(dialect.scenarioOutline)
        examples = KeywordList(dialect.examples)
        var roles: [String: [StepKeywordType]] = [:]
        let lists: [([String], StepKeywordType)] = [
            (dialect.given, .context), (dialect.when, .action), (dialect.then, .outcome),
            (dialect.and, .conjunction), (dialect.but, .conjunction),
        ]
        for (list, type) in lists {
            for keyword in list { roles[keyword, default: []].append(type) }
        }
        let all = lists.flatMap(\.0)
        let sorted = all.enumerated().sorted { a, b in
            let (la, lb) = (a.element.unicodeScalars.count, b.element.unicodeScalars.count)
            return la != lb ? la > lb : a.offset < b.offset
        }.map(\.element)
        steps = KeywordList(
            sorted,
            types: sorted.map { keyword in
                let types = roles[keyword] ?? [.unknown]
                return types.count == 1 ? types[0] : .unknown
            })
        let markdown = sorted.filter { $0 != "* " }
        markdownSteps = KeywordList(markdown, types: markdown.map { roles[$0]?.first ?? .unknown })
    }

    static func named(_ code: String) -> CompiledDialect? { DialectTable.shared.compiled[code] }
}
