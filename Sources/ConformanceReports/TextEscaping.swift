import ConformanceModel
/// Escaping for the text formats the reporters write, and for the terminal.
///
/// One rule decides which scalars a reader must never receive raw (`isHidden(_:)`): C0 controls,
/// DEL, C1 controls, the Unicode line and paragraph separators, and the bidirectional controls
/// (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069). Raw, they would let text from an adapter
/// or a criterion file start a new line, move the cursor, recolour the terminal or reorder what a
/// reader sees (`Result: conformant` forged on a line of its own). Every output applies it: the
/// console through `visible(_:keepingLineBreaks:)`, Markdown and XML through their own escapers.
package enum TextEscaping {
    /// Whether a scalar must be shown escaped: a control character (C0, DEL, C1), a line or
    /// paragraph separator, or a bidirectional control.
    package static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029: true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// `text` with every hidden scalar (`isHidden(_:)`) written as `\u{1B}`, `\u{202E}`, …; with
    /// `keepingLineBreaks`, line feed and tab stay as they are (for text the harness composed
    /// itself, whose line structure is its own).
    package static func visible(_ text: String, keepingLineBreaks: Bool = false) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if keepingLineBreaks, scalar == "\n" || scalar == "\t" {
                result.unicodeScalars.append(scalar)
            } else if isHidden(scalar) {
                result += visible(scalar)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether XML 1.0 allows a scalar at all (`Char` production): tab, line feed, carriage return,
    /// U+0020–U+D7FF, U+E000–U+FFFD, U+10000–U+10FFFF. Not even a character reference may name another.
    static func isXMLCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    /// The bidirectional controls, which reorder what a reader sees without being seen.
    static func isBidirectionalControl(_ scalar: Unicode.Scalar) -> Bool {
        isHidden(scalar) && scalar.value > 0x9F && scalar.value != 0x2028 && scalar.value != 0x2029
    }

    /// A visible stand-in for a scalar XML cannot carry: `\u{1B}`.
    static func visible(_ scalar: Unicode.Scalar) -> String {
        "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    }

    /// Text content of an XML element: `&`, `<`, `>` escaped; scalars XML 1.0 forbids made visible.
    static func xmlText(_ text: String) -> String { xmlEscaped(text, inAttribute: false) }

    /// A double-quoted XML attribute value: as text content, plus `"` and `'`, and tab, line feed and
    /// carriage return as character references so that attribute normalisation keeps them.
    static func xmlAttribute(_ text: String) -> String { xmlEscaped(text, inAttribute: true) }

    private static func xmlEscaped(_ text: String, inAttribute: Bool) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"" where inAttribute: escaped += "&quot;"
            case "'" where inAttribute: escaped += "&apos;"
            case "\t" where inAttribute: escaped += "&#9;"
            case "\n" where inAttribute: escaped += "&#10;"
            case "\r" where inAttribute: escaped += "&#13;"
            default: escaped += isXMLCharacter(scalar) && !isBidirectionalControl(scalar) ? String(scalar) : visible(scalar)
            }
        }
        return escaped
    }

    /// Run data (names, summaries, messages) inside a Markdown table cell or a line of prose: HTML
    /// and table syntax escaped, line breaks as `<br>`, control characters made visible, so that the
    /// text shows as it is and cannot break the table or inject markup.
    static func markdownInline(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            defer { previousWasCR = scalar == "\r" }
            switch scalar {
            case "\n" where previousWasCR: continue
            case "\r", "\n": escaped += "<br>"
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "|": escaped += "\\|"
            case "\\", "`", "*", "_", "[", "]": escaped += "\\" + String(scalar)
            case "\t": escaped += " "
            default:
                escaped += isHidden(scalar) ? visible(scalar) : String(scalar)
            }
        }
        return escaped
    }

    /// An inline code span holding `text` verbatim (line breaks as spaces): delimited by more
    /// backticks than any run inside it, padded with spaces when it starts or ends with one.
    /// In a table cell, `|` is escaped as `\|` (tables are split into cells before code spans are read).
    static func markdownCode(_ text: String, inTable: Bool = false) -> String {
        var flat = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F {
                flat += " "
            } else if isHidden(scalar) {
                flat += visible(scalar)
            } else {
                flat.unicodeScalars.append(scalar)
            }
        }
        if inTable { flat = flat.replacing("|", with: "\\|") }
        var longest = 0
        var current = 0
        for character in flat {
            current = character == "`" ? current + 1 : 0
            longest = max(longest, current)
        }
        let fence = String(repeating: "`", count: longest + 1)
        let padded = flat.hasPrefix("`") || flat.hasSuffix("`") ? " \(flat) " : flat
        return fence + padded + fence
    }

    /// A fenced code block holding `text` verbatim: the fence is longer than any run of backticks in
    /// the text, so nothing inside can close it early.
    static func markdownFence(_ text: String, info: String = "text") -> String {
        var longest = 0
        var current = 0
        for character in text {
            current = character == "`" ? current + 1 : 0
            longest = max(longest, current)
        }
        let fence = String(repeating: "`", count: max(3, longest + 1))
        var body = ""
        for scalar in text.replacing("\r\n", with: "\n").unicodeScalars {
            body += isHidden(scalar) && scalar != "\n" && scalar != "\t" ? visible(scalar) : String(scalar)
        }
        return "\(fence)\(info)\n\(body)\n\(fence)"
    }

    /// `1 test case`, `2 test cases`: a count with its noun in the right number.
    static func count(_ value: Int, _ singular: String, _ plural: String? = nil) -> String { Counting.count(value, singular, plural) }
}
