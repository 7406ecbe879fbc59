/// A criterion's identity: its group, a hyphen and its number within the group (`N2.6-AC01`, or
/// `N2.6-X01` for a derived criterion). Written as the plain string.
public struct CriterionID: StringIdentifier {
    /// The id as written.
    public let rawValue: String

    /// An id from text already known to be well formed.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Checks text read from a file or the command line: a group and a number joined by a hyphen,
    /// each made of ASCII letters, digits, `.` and `_` (`N2.6-AC01`).
    public init(parsing text: String) throws(IdentifierError) {
        let parts = text.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        let word: Set<Character> = [".", "_"]
        guard parts.count == 2, IdentifierError.isWord(parts[0], allowing: word), IdentifierError.isWord(parts[1], allowing: word.union(["-"])),
            parts[1].last != ".", parts[1].last != "-"
        else {
            throw IdentifierError(
                "\"\(text)\" is not a criterion id: write a group and a number joined by a hyphen, in ASCII letters, digits, '.' and '_' (N2.6-AC01)")
        }
        rawValue = text
    }

    /// The group, the part before the first hyphen (`N2.6`).
    public var group: Substring { rawValue.prefix { $0 != "-" } }
}

/// One item of a criterion's checklist: the criterion's id, a dot and the item's local id
/// (`N2.6-AC01.V1`). Written as the plain string.
public struct VerifyItemID: StringIdentifier {
    /// The id as written.
    public let rawValue: String

    /// An id from text already known to be well formed.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The item `local` (`V1`) of `criterion`.
    public init(criterion: CriterionID, local: String) { rawValue = "\(criterion.rawValue).\(local)" }

    /// Checks an item's local id as an `Items:` line gives it: ASCII letters, digits, `_` and `-`,
    /// no dot (`V1`).
    public static func checkLocal(_ local: String) throws(IdentifierError) {
        guard IdentifierError.isWord(Substring(local), allowing: ["_", "-"]) else {
            throw IdentifierError("\"\(local)\" is not a verify item's id: write ASCII letters, digits, '_' and '-', without a dot (V1)")
        }
    }

    /// The criterion the item belongs to, everything before the last dot (`N2.6-AC01`).
    public var criterion: CriterionID {
        guard let dot = rawValue.lastIndex(of: ".") else { return CriterionID(rawValue: rawValue) }
        return CriterionID(rawValue: String(rawValue[..<dot]))
    }

    /// The item's id within its criterion, everything after the last dot (`V1`).
    public var local: Substring {
        guard let dot = rawValue.lastIndex(of: ".") else { return Substring(rawValue) }
        return rawValue[rawValue.index(after: dot)...]
    }
}
