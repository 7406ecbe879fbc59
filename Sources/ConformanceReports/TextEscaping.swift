/// Escaping for the text formats the reporters write.
enum TextEscaping {
    /// Whether XML 1.0 allows a scalar at all (`Char` production): tab, line feed, carriage return,
    /// U+0020–U+D7FF, U+E000–U+FFFD, U+10000–U+10FFFF. Not even a character reference may name another.
    static func isXMLCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
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
            default: escaped += isXMLCharacter(scalar) ? String(scalar) : visible(scalar)
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
                escaped += scalar.value < 0x20 || scalar.value == 0x7F ? visible(scalar) : String(scalar)
            }
        }
        return escaped
    }

    /// An inline code span holding `text` verbatim (line breaks as spaces): delimited by more
    /// backticks than any run inside it, padded with spaces when it starts or ends with one.
    /// In a table cell, `|` is escaped as `\|` (tables are split into cells before code spans are read).
    static func markdownCode(_ text: String, inTable: Bool = false) -> String {
        var flat = String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : Character($0) })
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
            body += scalar.value < 0x20 && scalar != "\n" && scalar != "\t" || scalar.value == 0x7F ? visible(scalar) : String(scalar)
        }
        return "\(fence)\(info)\n\(body)\n\(fence)"
    }

    /// `1 test case`, `2 test cases`: a count with its noun in the right number.
    static func count(_ value: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(value) " + (value == 1 ? singular : plural ?? singular + "s")
    }
}
