/// The bytes a test case's transcript may keep of what the relying party sent.
///
/// An adapter may write a megabyte per message and thousands of messages per test case; kept whole,
/// one test case could hold gigabytes. Each entry keeps its payload up to `payloadBytesPerEntry`,
/// and a test case keeps payloads and summaries up to `bytesPerTestCase` in all; beyond either, the
/// payload is replaced by a marker that says how large it was, and the summary is cut as the
/// evidence cuts it. The budgets lie far above anything a conforming relying party sends (the
/// reference relying party's largest payload is about 1.2 KB), so reports of sane runs never change.
public enum TranscriptBudget {
    /// The most bytes (compact JSON) one entry's payload keeps.
    public static let payloadBytesPerEntry = 64 * 1024
    /// The most characters one entry's summary keeps while the test case's budget lasts.
    public static let summaryCharactersPerEntry = 16 * 1024
    /// The most characters a summary keeps once the test case's budget is spent (as the evidence keeps).
    public static let summaryCharactersOverBudget = 1_000
    /// The most bytes of payloads and summaries one test case's transcript keeps.
    public static let bytesPerTestCase = 4 * 1024 * 1024

    /// The marker that stands for a payload left out.
    public static func marker(bytes: Int, reason: String) -> JSONValue {
        .string("[cut: a payload of \(bytes) bytes left out; \(reason)]")
    }
}

extension JSONValue {
    /// The size of the value written as compact JSON, in bytes (strings counted with their quotes
    /// and the escapes of control characters, quotes and backslashes).
    public var compactByteCount: Int {
        switch self {
        case .null: return 4
        case .bool(let value): return value ? 4 : 5
        case .number(let value):
            return value == value.rounded() && abs(value) < 9_007_199_254_740_992 ? String(Int64(value)).utf8.count : "\(value)".utf8.count
        case .string(let value): return Self.quotedByteCount(value)
        case .array(let values): return 2 + max(0, values.count - 1) + values.reduce(0) { $0 + $1.compactByteCount }
        case .object(let members):
            return 2 + max(0, members.count - 1)
                + members.reduce(0) { $0 + Self.quotedByteCount($1.key) + 1 + $1.value.compactByteCount }
        }
    }

    private static func quotedByteCount(_ text: String) -> Int {
        var count = 2
        for byte in text.utf8 {
            switch byte {
            case 0x22, 0x5C, 0x08, 0x0C, 0x0A, 0x0D, 0x09: count += 2
            case 0..<0x20: count += 6
            default: count += 1
            }
        }
        return count
    }
}
