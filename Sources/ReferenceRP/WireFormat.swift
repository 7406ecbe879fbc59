import ConformanceModel
import Foundation

/// How the app writes what the platform reads, where the criteria leave it free (F-format): lists in
/// any order, JSON with any member order and spacing, and members the platform ignores.
package struct WireFormat: Sendable, Hashable {
    /// The order of a list of credential ids (an accepted list, an exclusion list, an allow list).
    package enum ListOrder: String, Sendable, Hashable, CaseIterable {
        /// The server's order.
        case server
        /// The server's order reversed.
        case reversed
        /// Sorted by the ids' bytes.
        case sorted
    }

    /// How the app writes Android request JSON.
    package enum JSONStyle: String, Sendable, Hashable, CaseIterable {
        /// Compact, members in sorted order.
        case compact
        /// Spaces and line breaks, members in reverse order.
        case spaced
        /// Compact, with members of WebAuthn Level 3 the platform ignores here (`hints`, `extensions`).
        case extraMembers = "extra-members"
    }

    /// The order of every list of credential ids.
    package var listOrder = ListOrder.server
    /// How Android request JSON is written.
    package var json = JSONStyle.compact

    /// The ids in the design's order.
    func order(_ ids: [Data]) -> [Data] {
        switch listOrder {
        case .server: ids
        case .reversed: ids.reversed()
        case .sorted: ids.sorted { $0.lexicographicallyPrecedes($1) }
        }
    }

    /// A WebAuthn options object as JSON text; `extras` are added only in the `extra-members` style.
    func options(_ members: [String: JSONValue], extras: [String: JSONValue] = [:]) -> String {
        switch json {
        case .compact: Wire.jsonString(JSONValue.object(members))
        case .spaced: Self.spaced(.object(members), indent: "")
        case .extraMembers: Wire.jsonString(JSONValue.object(members.merging(extras) { own, _ in own }))
        }
    }

    /// The members WebAuthn Level 3 defines for creation and request options that a platform given
    /// none of their values ignores: no hints, and an empty extension map.
    static let ignoredOptionMembers: [String: JSONValue] = ["hints": .array([]), "extensions": .object([:])]

    /// JSON text with a line per member, two spaces of indent, members in reverse order.
    static func spaced(_ value: JSONValue, indent: String) -> String {
        let inner = indent + "  "
        switch value {
        case .object(let members):
            guard !members.isEmpty else { return "{}" }
            let lines = members.keys.sorted(by: >).map { key in
                inner + Wire.jsonString(JSONValue.string(key)) + " : " + spaced(members[key] ?? .null, indent: inner)
            }
            return "{\n" + lines.joined(separator: ",\n") + "\n" + indent + "}"
        case .array(let items):
            guard !items.isEmpty else { return "[ ]" }
            return "[ " + items.map { spaced($0, indent: inner) }.joined(separator: ", ") + " ]"
        default:
            return Wire.jsonString(value)
        }
    }
}
