#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A CBOR data item (RFC 8949) as used by WebAuthn and CTAP2.
///
/// Maps keep their pairs in the order given (decoding keeps the input order), so a value can
/// describe non-canonical input faithfully; `encoded` always writes the CTAP2 canonical form.
/// Integers are split into `unsigned` (major type 0) and `negative` (major type 1, the value
/// `-1 - n`) so that the full 64-bit range of both is representable.
public indirect enum CBOR: Sendable, Hashable {
    /// An unsigned integer (major type 0).
    case unsigned(UInt64)
    /// A negative integer (major type 1) whose value is `-1 - n` for the associated `n`.
    case negative(UInt64)
    /// A byte string (major type 2).
    case bytes(Data)
    /// A UTF-8 text string (major type 3).
    case text(String)
    /// An array (major type 4).
    case array([CBOR])
    /// A map (major type 5) as ordered key/value pairs.
    case map([Pair])
    /// A tagged item (major type 6).
    case tagged(UInt64, CBOR)
    /// The simple values `false` and `true` (major type 7, 20 and 21).
    case bool(Bool)
    /// The simple value `null` (major type 7, 22).
    case null
    /// The simple value `undefined` (major type 7, 23).
    case undefined
    /// A floating-point number (major type 7; half, single or double precision on the wire).
    case float(Double)

    /// One key/value pair of a map.
    public struct Pair: Sendable, Hashable {
        /// The key.
        public var key: CBOR
        /// The value.
        public var value: CBOR

        /// Creates a pair.
        public init(_ key: CBOR, _ value: CBOR) {
            self.key = key
            self.value = value
        }
    }

    /// The integer `value` as `unsigned` or `negative`.
    public static func integer(_ value: Int64) -> CBOR {
        value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-1 - value))
    }

    /// The value of an integer item that fits in `Int64`, otherwise nil.
    public var integerValue: Int64? {
        switch self {
        case let .unsigned(value): value <= UInt64(Int64.max) ? Int64(value) : nil
        case let .negative(value): value <= UInt64(Int64.max) ? -1 - Int64(value) : nil
        default: nil
        }
    }

    /// The bytes of a byte string, otherwise nil.
    public var bytesValue: Data? {
        if case let .bytes(value) = self { value } else { nil }
    }

    /// The text of a text string, otherwise nil.
    public var textValue: String? {
        if case let .text(value) = self { value } else { nil }
    }

    /// The elements of an array, otherwise nil.
    public var arrayValue: [CBOR]? {
        if case let .array(value) = self { value } else { nil }
    }

    /// The pairs of a map, otherwise nil.
    public var mapValue: [Pair]? {
        if case let .map(value) = self { value } else { nil }
    }

    /// The value of the first pair whose key equals `key`, when this item is a map.
    public subscript(key: CBOR) -> CBOR? {
        mapValue?.first { $0.key == key }?.value
    }

    /// A short name of the item's kind for messages ("map", "byte string", ...).
    public var kindName: String {
        switch self {
        case .unsigned, .negative: "integer"
        case .bytes: "byte string"
        case .text: "text string"
        case .array: "array"
        case .map: "map"
        case .tagged: "tagged item"
        case .bool: "boolean"
        case .null: "null"
        case .undefined: "undefined"
        case .float: "float"
        }
    }
}

extension CBOR: ExpressibleByIntegerLiteral {
    /// Creates an integer item from an integer literal.
    public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension CBOR: ExpressibleByStringLiteral {
    /// Creates a text item from a string literal.
    public init(stringLiteral value: String) { self = .text(value) }
}

extension CBOR: ExpressibleByBooleanLiteral {
    /// Creates a boolean item from a boolean literal.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension CBOR: ExpressibleByArrayLiteral {
    /// Creates an array item from an array literal.
    public init(arrayLiteral elements: CBOR...) { self = .array(elements) }
}

extension CBOR: ExpressibleByDictionaryLiteral {
    /// Creates a map item whose pairs keep the literal's order.
    public init(dictionaryLiteral elements: (CBOR, CBOR)...) {
        self = .map(elements.map { Pair($0.0, $0.1) })
    }
}
