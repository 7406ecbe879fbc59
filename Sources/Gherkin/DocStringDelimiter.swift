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
    /// Replaces every occurrence of `target` (non-overlapping, left to right) with `replacement`.
    func replacingAll(_ target: String, with replacement: String) -> String {
        let t = Array(target.utf8)
        let s = Array(self.utf8)
        guard !t.isEmpty, s.count >= t.count else { return self }
        var out: [UInt8] = []
        out.reserveCapacity(s.count)
        var i = 0
        var changed = false
        while i < s.count {
            if s[i] == t[0], i + t.count <= s.count, s[i..<(i + t.count)].elementsEqual(t) {
                out.append(contentsOf: replacement.utf8)
                i += t.count
                changed = true
            } else {
                out.append(s[i])
                i += 1
            }
        }
        return changed ? String(decoding: out, as: UTF8.self) : self
    }
}
