/// An expected failure, accepted for a while: a criterion that is known to fail on a target (or on
/// every target), with the reason, the person or team who owns the fix, and the last day it holds.
///
/// A live waiver turns the matching `failed` test cases into *waived* ones. It never covers an
/// `error`, `undefined` or `notVerified` test case: those are not failures of the relying party.
public struct Waiver: Sendable, Hashable, Codable {
    /// Which targets a waiver covers.
    public enum TargetPattern: Sendable, Hashable, Codable, CustomStringConvertible {
        /// Every target (`*` in the file).
        case any
        /// One target, by id (`apple-18`).
        case exactly(String)

        /// Reads `*` as `.any` and anything else as a target id.
        public init(_ text: String) {
            self = text == "*" ? .any : .exactly(text)
        }

        /// Whether the pattern covers a target id.
        public func matches(_ target: String) -> Bool {
            switch self {
            case .any: true
            case .exactly(let id): id == target
            }
        }

        /// `*` or the target id, as written in the file.
        public var description: String {
            switch self {
            case .any: "*"
            case .exactly(let id): id
            }
        }

        /// Decodes from the string form (`*` or a target id).
        public init(from decoder: any Decoder) throws {
            self.init(try decoder.singleValueContainer().decode(String.self))
        }

        /// Encodes as the string form (`*` or a target id).
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(description)
        }
    }

    /// The criterion id, e.g. `N2.6-AC04`.
    public var criterion: CriterionID
    /// The target or targets the failure is expected on.
    public var target: TargetPattern
    /// Why the failure is accepted for now.
    public var reason: String
    /// Who is responsible for the fix (a person or team).
    public var owner: String
    /// The last day the waiver holds; from the next day on it is expired.
    public var expires: CalendarDate

    /// The waiver's identity in reports: `<criterion>@<target>`, e.g. `N2.6-AC04@apple-17.4` or
    /// `N2.6-AC04@*`. Unique within a waiver file.
    public var id: String { "\(criterion)@\(target)" }

    /// A waiver for `criterion` on `target` until the end of `expires`.
    public init(criterion: CriterionID, target: TargetPattern, reason: String, owner: String, expires: CalendarDate) {
        self.criterion = criterion
        self.target = target
        self.reason = reason
        self.owner = owner
        self.expires = expires
    }

    /// Whether the waiver covers a test case of `criterionID` on `target`.
    public func matches(criterionID: CriterionID, target: String) -> Bool {
        criterion == criterionID && self.target.matches(target)
    }

    /// Whether the waiver still holds on `today` (its `expires` day included).
    public func isLive(on today: CalendarDate) -> Bool {
        today <= expires
    }
}
