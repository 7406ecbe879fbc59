import Foundation

/// How the harness reads what the app shows, for N3.2-AC08: whether a text claims that a credential
/// manager (or the device's store of passkeys) did something to a passkey.
///
/// This is the harness's own reading of English product text, tested against a corpus of sentences
/// kept with the tests: a sentence claims a provider-side result when it states, without hedging,
/// that something was done to a passkey at a provider place (the device, a password or credential
/// manager, a keychain). A provider named inside quotation marks is a label, not a place; a result
/// done to the account or on the server is the server's own; a sentence that hedges, negates, asks
/// or waits ("may still appear", "until", "we asked") claims nothing.
///
/// The step of N3.2-AC08 judges only what the app showed *because of* its signals
/// (`World+Attribution`: not shown where the platform offers no signal interface), in any language:
/// such an event fails unless this reader positively reads every sentence of it as claiming nothing
/// (`claimsNothing`). A word list only ever excuses an attributed event; what the app shows whatever
/// it signals is never judged, whatever it says.
public enum ProviderClaim {
    /// Names of provider places, longest first, each replaced by one token before the sentence is read.
    static let placePhrases = [
        "google password manager", "icloud keychain", "samsung pass", "credential manager", "password manager", "passkey provider",
        "passwords app", "this computer", "this browser",
    ]
    /// One-word provider places.
    static let placeWords: Set<String> = [
        "device", "devices", "phone", "phones", "iphone", "ipad", "mac", "keychain", "icloud", "provider", "providers", "1password",
        "bitwarden", "dashlane", "authenticator", "placetoken",
    ]
    /// Phrases that state a result in more than one word.
    static let resultPhrases = [
        "no longer appears", "no longer appear", "no longer shows", "no longer show", "no longer shown", "no longer offered", "no longer offers",
        "no longer listed",
        "taken off", "is gone", "are gone", "has gone", "have gone", "cleaned up",
    ]
    /// One-word results done to a passkey.
    static let resultWords: Set<String> = [
        "removed", "deleted", "hidden", "hid", "updated", "restored", "synced", "synchronized", "synchronised", "cleaned", "cleared",
        "renamed", "erased", "wiped", "disappeared", "unhidden", "revoked", "refreshed", "resulttoken", "removes", "deletes", "hides",
        "updates", "removing", "deleting",
    ]
    /// Words after which a sentence claims nothing: hedges, negations, conditions, requests.
    static let hedgeWords: Set<String> = [
        "may", "might", "could", "can", "cannot", "can't", "until", "if", "whether", "not", "never", "don't", "doesn't", "didn't", "won't",
        "isn't", "wasn't", "aren't", "haven't", "hasn't", "should", "unable", "asked", "ask", "asks", "requested", "request", "requests",
        "try", "tries", "trying", "hope", "depending", "possibly", "perhaps", "eventually", "unless", "when", "no", "nothing", "none",
    ]
    /// Words that say a result was done to the account or on the server, not at a provider, when a
    /// preposition leads to them ("from your account", "on our servers").
    static let accountWords: Set<String> = ["account", "accounts", "server", "servers", "profile", "records"]
    static let prepositions: Set<String> = ["from", "on", "in", "at", "for"]
    static let determiners: Set<String> = ["your", "our", "the", "this", "its"]

    /// The sentence of `text` that claims a provider-side result, as the harness reads it; `nil` when none does.
    public static func claim(in text: String) -> String? {
        sentences(of: text).first(where: claims(sentence:))
    }

    /// Whether the text claims a provider-side result, as the harness reads it.
    public static func claims(_ text: String) -> Bool { claim(in: text) != nil }

    /// The sentences of a text, with their original wording.
    static func sentences(of text: String) -> [String] {
        text.split(whereSeparator: { ".!?;\n".contains($0) }).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Whether the reader positively reads the text as claiming nothing about a provider: every
    /// sentence hedges, negates, asks or waits, or says that what was done was done to the account or
    /// on the server (a provider named in quotation marks being a label). A sentence it cannot read
    /// so (one in another language, one that names no result, "Your passkeys are now up to date")
    /// is not excused.
    public static func claimsNothing(_ text: String) -> Bool {
        let sentences = sentences(of: text)
        return !sentences.isEmpty && sentences.allSatisfy(excused(sentence:))
    }

    /// Whether a sentence claims nothing by the reader's positive reading: it claims no result, and
    /// it hedges, or every result it names was done to the account or on the server.
    static func excused(sentence: String) -> Bool {
        let words = words(of: sentence)
        if claims(words) { return false }
        if words.contains(where: hedgeWords.contains) { return true }
        let results = words.indices.filter { resultWords.contains(words[$0]) }
        return !results.isEmpty && results.allSatisfy { leadsToAccount(Array(words[($0 + 1)...])) }
    }

    /// A sentence's words, lower case, with quoted names removed and result and place phrases each
    /// replaced by one token.
    static func words(of sentence: String) -> [String] {
        var lower = sentence.lowercased().replacingOccurrences(of: "\u{2019}", with: "'")
        // A name in quotation marks is a label (a passkey called "Google Password Manager"), never a place.
        for (open, close) in [("\"", "\""), ("\u{201C}", "\u{201D}"), ("\u{00AB}", "\u{00BB}")] { lower = strip(lower, open, close) }
        lower = lower.replacingOccurrences(of: "'s", with: "")
        for phrase in resultPhrases { lower = lower.replacingOccurrences(of: phrase, with: " resulttoken ") }
        for phrase in placePhrases { lower = lower.replacingOccurrences(of: phrase, with: " placetoken ") }
        return lower.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "'" || $0 == "-") }).map { String($0) }
    }

    static func claims(sentence: String) -> Bool { claims(words(of: sentence)) }

    static func claims(_ words: [String]) -> Bool {
        if words.contains(where: hedgeWords.contains) { return false }
        for (index, word) in words.enumerated() where resultWords.contains(word) {
            let after = words[(index + 1)...]
            if after.contains(where: placeWords.contains) { return true }
            if leadsToAccount(Array(after)) { continue }
            if words[..<index].contains(where: placeWords.contains) { return true }
        }
        return false
    }

    /// Whether the words after a result name the account or server as where it was done.
    static func leadsToAccount(_ words: [String]) -> Bool {
        for (index, word) in words.enumerated() where prepositions.contains(word) {
            var next = index + 1
            while next < words.count, determiners.contains(words[next]) { next += 1 }
            if next < words.count, accountWords.contains(words[next]) { return true }
        }
        return false
    }

    /// The text with every span between `open` and `close` removed.
    static func strip(_ text: String, _ open: String, _ close: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let start = rest.range(of: open) {
            result += rest[..<start.lowerBound]
            let after = rest[start.upperBound...]
            guard let end = after.range(of: close) else {
                rest = after
                break
            }
            result += " "
            rest = after[end.upperBound...]
        }
        return result + rest
    }
}
