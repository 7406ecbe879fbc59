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

/// A keyword prepared for byte-wise matching.
struct Keyword: Sendable {
    let text: String
    let bytes: [UInt8]
    /// The keyword followed by a colon, for title lines.
    let titleBytes: [UInt8]

    init(_ text: String) {
        self.text = text
        self.bytes = Array(text.utf8)
        self.titleBytes = bytes + [UInt8(ascii: ":")]
    }
}

/// A step keyword with its role.
struct StepKeyword: Sendable {
    let keyword: Keyword
    let type: StepKeywordType
}

/// A dialect's keywords in the form and order the token matchers try them.
struct CompiledDialect: Sendable {
    let code: String
    let feature: [Keyword]
    let rule: [Keyword]
    let background: [Keyword]
    let scenario: [Keyword]
    let scenarioOutline: [Keyword]
    let examples: [Keyword]
    /// Step keywords, longest first (stable), so `"Given "` is not shadowed by a shorter prefix.
    let steps: [StepKeyword]
    /// The same without `"* "`, each typed by its first role (the Markdown matcher's rule).
    let markdownSteps: [StepKeyword]

    init(_ dialect: Dialect) {
        code = dialect.code
        feature = dialect.feature.map(Keyword.init)
        rule = dialect.rule.map(Keyword.init)
        background = dialect.background.map(Keyword.init)
        scenario = dialect.scenario.map(Keyword.init)
        scenarioOutline = dialect.scenarioOutline.map(Keyword.init)
        examples = dialect.examples.map(Keyword.init)
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
        steps = sorted.map { keyword in
            let types = roles[keyword] ?? [.unknown]
            return StepKeyword(keyword: Keyword(keyword), type: types.count == 1 ? types[0] : .unknown)
        }
        markdownSteps = sorted.filter { $0 != "* " }.map { keyword in
            StepKeyword(keyword: Keyword(keyword), type: roles[keyword]?.first ?? .unknown)
        }
    }

    static func named(_ code: String) -> CompiledDialect? { DialectTable.shared.compiled[code] }
}
