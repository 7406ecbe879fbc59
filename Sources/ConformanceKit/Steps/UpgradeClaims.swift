/// How N2.6-AC05 reads what the app shows, whatever kind of event it uses (an error, a
/// confirmation, a message or a screen): by what the text claims, not by its kind or its words.
///
/// The steps judge only what the app showed *because of* the upgrade's outcome (`World+Attribution`):
/// an event shown only because the credential manager created the passkey is a confirmation of the
/// app's own, and one shown only because it created nothing interrupts the user, in any language,
/// unless this reader of English text excuses it: a failure report confirms nothing, and an offer to
/// create a passkey (a manual nudge) reports no failure. A word list only ever excuses an attributed
/// event; an event the app shows whatever the outcome is never judged, whatever it says.
///
/// The harness's reading, quoted in every verdict that rests on it: an event of the kind `error`
/// is a user-facing error whatever it says; any other event is one when its text says something
/// failed ("could not", "failed", "went wrong", …). A text confirms a passkey when it speaks of a
/// passkey as done ("ready", "created", "saved", "added", "set up", …) and reports no failure; an
/// invitation to create one ("Create a passkey") or a welcome names nothing done.
public enum UpgradeClaims {
    /// Phrases (as word sequences) that report a failure.
    static let failurePhrases: [[String]] = [
        ["failed"], ["fail"], ["fails"], ["failure"], ["could", "not"], ["couldn't"], ["cannot"], ["can't"], ["unable"], ["error"],
        ["went", "wrong"], ["unsuccessful"], ["didn't", "work"], ["did", "not", "work"], ["not", "created"], ["wasn't", "created"],
        ["problem"], ["try", "again"],
    ]
    /// Phrases that speak of something as done.
    static let completionPhrases: [[String]] = [
        ["ready"], ["created"], ["saved"], ["added"], ["registered"], ["enabled"], ["activated"], ["turned", "on"], ["all", "set"],
        ["is", "set", "up"], ["was", "set", "up"], ["been", "set", "up"], ["now", "set", "up"], ["you", "can", "now"], ["now", "sign", "in"],
        ["now", "use"], ["success"], ["successfully"], ["done"],
    ]
    static let passkeyWords: Set<String> = ["passkey", "passkeys", "passkey's"]
    /// Phrases that invite the user to make a passkey.
    static let offerPhrases: [[String]] = [["create"], ["set", "up"], ["add"], ["make"], ["try"], ["turn", "on"]]

    /// The text's words, lower case, split at everything that is not a letter, a digit or an apostrophe.
    static func words(_ text: String) -> [String] {
        text.lowercased().replacingOccurrences(of: "’", with: "'")
            .split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "'") }).map(String.init)
    }

    static func contains(_ words: [String], _ phrase: [String]) -> Bool {
        guard words.count >= phrase.count else { return false }
        return (0...(words.count - phrase.count)).contains { start in Array(words[start..<start + phrase.count]) == phrase }
    }

    /// Whether the text reports that something failed.
    public static func reportsFailure(_ text: String) -> Bool {
        let words = words(text)
        return failurePhrases.contains { contains(words, $0) }
    }

    /// Whether what the app showed is a user-facing error: an `error` event, or any event whose text reports a failure.
    public static func isError(_ event: UIEvent) -> Bool { event.kind == .error || reportsFailure(event.text) }

    /// Whether the text confirms that a passkey now exists: it speaks of a passkey as done and reports no failure.
    public static func confirmsPasskey(_ text: String) -> Bool {
        let words = words(text)
        return words.contains(where: passkeyWords.contains) && completionPhrases.contains { contains(words, $0) } && !reportsFailure(text)
    }

    /// Whether the text offers to make a passkey (a manual creation nudge): it speaks of a passkey,
    /// invites the user to create, set up, add, make or try one, and neither confirms one nor reports a failure.
    public static func offersPasskey(_ text: String) -> Bool {
        let words = words(text)
        return words.contains(where: passkeyWords.contains) && offerPhrases.contains { contains(words, $0) } && !confirmsPasskey(text)
            && !reportsFailure(text)
    }

    /// Whether the reader positively reads an event shown only because the credential manager
    /// created nothing as no error: not an `error` event, and an offer to make a passkey (a nudge).
    /// Any other event shown for that cause, in any language, is judged a user-facing error.
    public static func excusedAsNoError(_ event: UIEvent) -> Bool { event.kind != .error && offersPasskey(event.text) }

    /// Whether the reader positively reads an event shown only because the upgrade succeeded as no
    /// confirmation of the app's own: its text reports a failure. Any other event shown for that
    /// cause, in any language, is the app's own confirmation.
    public static func excusedAsNoConfirmation(_ event: UIEvent) -> Bool { reportsFailure(event.text) }

    /// How a verdict quotes an event it judged.
    static func quote(_ event: Timed<UIEvent>) -> String { "#\(event.sequence) \(event.value.kind.rawValue) \"\(event.value.text)\"" }

    /// The note a verdict that rests on this reading carries.
    static let reading =
        "(the harness's reading of what the app showed, by cause and then by meaning: see Documentation/criterion-files.md, \"Text by cause, then by meaning\")"
}
