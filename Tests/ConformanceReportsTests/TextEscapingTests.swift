import ConformanceKit
@testable import ConformanceReports
import Testing

@Suite("Escaping and re-run commands")
struct TextEscapingTests {
    @Test(
        "XML text and attributes",
        arguments: [
            ("plain", "plain", "plain"),
            ("a<b>&c", "a&lt;b&gt;&amp;c", "a&lt;b&gt;&amp;c"),
            ("\"quoted\" 'single'", "\"quoted\" 'single'", "&quot;quoted&quot; &apos;single&apos;"),
            ("tab\tline\ncr\r", "tab\tline\ncr\r", "tab&#9;line&#10;cr&#13;"),
            ("nul\u{0} esc\u{1B} del\u{7F}", "nul\\u{0} esc\\u{1B} del\u{7F}", "nul\\u{0} esc\\u{1B} del\u{7F}"),
            ("\u{FFFE}\u{FFFF}\u{FFFD}", "\\u{FFFE}\\u{FFFF}\u{FFFD}", "\\u{FFFE}\\u{FFFF}\u{FFFD}"),
            ("emoji 🟡 and é", "emoji 🟡 and é", "emoji 🟡 and é"),
        ])
    func xml(input: String, text: String, attribute: String) {
        #expect(TextEscaping.xmlText(input) == text)
        #expect(TextEscaping.xmlAttribute(input) == attribute)
    }

    @Test(
        "Markdown inline text cannot break a table or inject markup",
        arguments: [
            ("a | b", "a \\| b"),
            ("<script>&", "&lt;script&gt;&amp;"),
            ("*bold* _it_ `code` [link]", "\\*bold\\* \\_it\\_ \\`code\\` \\[link\\]"),
            ("two\nlines\r\nthree\rfour", "two<br>lines<br>three<br>four"),
            ("bell\u{7} tab\t", "bell\\u{7} tab "),
            ("back\\slash", "back\\\\slash"),
        ])
    func markdownInline(input: String, output: String) {
        #expect(TextEscaping.markdownInline(input) == output)
    }

    @Test("Markdown code spans and fences hold any text verbatim")
    func markdownCode() {
        #expect(TextEscaping.markdownCode("a.b") == "`a.b`")
        #expect(TextEscaping.markdownCode("a`b") == "``a`b``")
        #expect(TextEscaping.markdownCode("`start") == "`` `start ``")
        #expect(TextEscaping.markdownCode("a|b", inTable: true) == "`a\\|b`")
        #expect(TextEscaping.markdownCode("line\nbreak") == "`line break`")
        #expect(TextEscaping.markdownFence("x") == "```text\nx\n```")
        #expect(TextEscaping.markdownFence("has ``` inside\r\nand ````") == "`````text\nhas ``` inside\nand ````\n`````")
        #expect(TextEscaping.markdownFence("esc\u{1B}[0m") == "```text\nesc\\u{1B}[0m\n```")
    }

    @Test(
        "the re-run command quotes what the shell would change",
        arguments: [
            (
                "Second factor pending", "N2.6-AC01", "apple-18",
                "swift run passkey-conformance run --criterion N2.6-AC01 --target apple-18 --seed 7 --scenario \"Second factor pending\""
            ),
            (
                "Price is $5 and `date` \"now\" \\ ok", "N2.6-AC01", "apple-18",
                "swift run passkey-conformance run --criterion N2.6-AC01 --target apple-18 --seed 7 --scenario \"Price is \\$5 and \\`date\\` \\\"now\\\" \\\\ ok\""
            ),
            (
                "", "N2.6-AC01", "apple 18",
                "swift run passkey-conformance run --criterion N2.6-AC01 --target \"apple 18\" --seed 7"
            ),
            (
                "multi\nline", "N2.6-AC01;rm", "apple-18",
                "swift run passkey-conformance run --criterion \"N2.6-AC01;rm\" --target apple-18 --seed 7 --scenario \"multi line\""
            ),
        ])
    func rerun(scenario: String, criterion: String, target: String, command: String) {
        let result = TestCaseResult(
            id: "x", criterionID: CriterionID(rawValue: criterion), scenario: scenario, file: "f.feature", line: 1, verifyItems: [], tags: [],
            target: target, outcome: .failed(message: nil), steps: [], evidence: [], virtualMillis: 0, wallSeconds: 0)
        let metadata = RunMetadata(
            harnessVersion: "0", criteriaDigest: "", adapter: .init(name: "reference-rp", version: "1", transport: "in-process"),
            targets: [], seed: 7, startedAt: "", filters: [:])
        #expect(RerunCommand.line(for: result, metadata: metadata) == command)
    }

    @Test("the re-run command names the same adapter: a mutant or an adapter command")
    func rerunAdapter() {
        let result = TestCaseResult(
            id: "x", criterionID: "N3.2-AC04", scenario: "S", file: "f.feature", line: 1, verifyItems: [], tags: [],
            target: "apple-26.2", outcome: .failed(message: nil), steps: [], evidence: [], virtualMillis: 0, wallSeconds: 0)
        var mutant = RunMetadata(
            harnessVersion: "0", criteriaDigest: "", adapter: .init(name: "reference-rp+send-partial-list", version: "1", transport: "in-process"),
            targets: [], seed: 3, startedAt: "", filters: [:])
        mutant.subject = .init(mutant: "send-partial-list")
        #expect(
            RerunCommand.line(for: result, metadata: mutant)
                == "swift run passkey-conformance run --mutant send-partial-list --criterion N3.2-AC04 --target apple-26.2 --seed 3 --scenario \"S\"")
        let external = RunMetadata(
            harnessVersion: "0", criteriaDigest: "", adapter: .init(name: "my-rp", version: "2", transport: "json-rpc", command: "python3 a.py"),
            targets: [], seed: 3, startedAt: "", filters: [:])
        #expect(
            RerunCommand.line(for: result, metadata: external)
                == "swift run passkey-conformance run --adapter-command \"python3 a.py\" --criterion N3.2-AC04 --target apple-26.2 --seed 3 --scenario \"S\"")
    }
}
