// Doc string delimiters and the unescaping of their escaped form.

/// A doc string delimiter.
struct DocStringDelimiter: Sendable, Equatable {
    let text: String
    let bytes: [UInt8]
    /// The escaped form that stands for the delimiter inside the doc string (`\"\"\"`), if any.
    let escaped: String?

    init(_ text: String, escaped: String?) {
        self.text = text
        self.bytes = Array(text.utf8)
        self.escaped = escaped
    }

    static let tripleQuote = DocStringDelimiter("\"\"\"", escaped: "\\\"\\\"\\\"")
    static let tripleBacktick = DocStringDelimiter("```", escaped: "\\`\\`\\`")
    static let quadrupleBacktick = DocStringDelimiter("````", escaped: nil)

    /// The delimiters a classic file may open, in the order they are tried.
    static let classic = [tripleQuote, tripleBacktick]
    /// The delimiters a Markdown file may open, in the order they are tried.
    static let markdown = [tripleQuote, quadrupleBacktick, tripleBacktick]
}

extension String {
    /// Replaces every occurrence of `target` (non-overlapping, left to right) with `replacement`;
    /// returns `self` unchanged, without copying, when `target` does not occur.
    func replacingAll(_ target: String, with replacement: String) -> String {
        var text = self
        var target = target
        var replacement = replacement
        return text.withUTF8 { s in
            target.withUTF8 { t in
                guard let first = Self.firstRange(of: t, in: s, from: 0) else { return self }
                return replacement.withUTF8 { r in
                    var out: [UInt8] = []
                    out.reserveCapacity(s.count + r.count)
                    var copied = 0
                    var found: Int? = first
                    while let start = found {
                        out.append(contentsOf: UnsafeBufferPointer(rebasing: s[copied..<start]))
                        out.append(contentsOf: r)
                        copied = start + t.count
                        found = Self.firstRange(of: t, in: s, from: copied)
                    }
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: s[copied...]))
                    return String(decoding: out, as: UTF8.self)
                }
            }
        }
    }

    /// Where `target` first occurs in `text` at or after `start`.
    private static func firstRange(of target: UnsafeBufferPointer<UInt8>, in text: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let head = target.first, text.count >= target.count else { return nil }
        var index = start
        let last = text.count - target.count
        while index <= last {
            if text[index] == head {
                var matched = 1
                while matched < target.count && text[index + matched] == target[matched] { matched += 1 }
                if matched == target.count { return index }
            }
            index += 1
        }
        return nil
    }
}
