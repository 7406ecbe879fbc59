/// The sizes a test case's result may reach, and how a cut shows.
///
/// Whatever an adapter sends, a report stays readable and bounded: texts and evidence are cut
/// with a visible marker that says how much was left out, never silently.
public enum Caps {
    /// The most characters a message or step message keeps.
    public static let textCharacters = 4_000
    /// The most transcript entries a test case's evidence keeps: the first `evidenceHead` and the
    /// last `evidenceTail`, with one marker entry between them.
    public static let evidenceHead = 200
    /// The entries kept from the end of a long transcript (where a failure usually shows).
    public static let evidenceTail = 300
    /// The interactions (transcript entries) one test case may record before it ends `error`.
    public static let interactionBudget = 20_000

    /// `text`, or its first `limit` characters followed by `… [cut: N more characters]`.
    public static func text(_ text: String, limit: Int = textCharacters) -> String {
        // A character takes at least one UTF-8 byte: a short text is kept without counting its characters.
        guard text.utf8.count > limit, text.count > limit else { return text }
        return String(text.prefix(limit)) + "… [cut: \(text.count - limit) more characters]"
    }

    /// The evidence kept from a transcript: all of it when short; else its head, a marker entry
    /// (`evidence.cut`, saying how many entries were left out) and its tail. Summaries are capped too.
    public static func evidence(_ entries: [TranscriptEntry]) -> [TranscriptEntry] {
        func capped(_ entry: TranscriptEntry) -> TranscriptEntry {
            var entry = entry
            entry.summary = text(entry.summary, limit: 1_000)
            return entry
        }
        guard entries.count > evidenceHead + evidenceTail else { return entries.map(capped) }
        let cut = entries.count - evidenceHead - evidenceTail
        let head = entries.prefix(evidenceHead)
        let tail = entries.suffix(evidenceTail)
        let marker = TranscriptEntry(
            sequence: head.last.map { $0.sequence + 1 } ?? 1, atMillis: head.last?.atMillis ?? 0, channel: .step,
            name: "evidence.cut",
            summary: "[cut: \(cut) transcript entries left out; the evidence keeps the first \(evidenceHead) and the last \(evidenceTail) of \(entries.count)]")
        return head.map(capped) + [marker] + tail.map(capped)
    }
}
