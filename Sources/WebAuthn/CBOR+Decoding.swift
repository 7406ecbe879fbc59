#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension CBOR {
    /// Limits and strictness of the decoder.
    public struct DecodingOptions: Sendable, Hashable {
        /// The deepest nesting of arrays, maps and tags accepted (a top-level map has depth 1).
        public var maximumDepth: Int
        /// Whether to also reject encodings that are well-formed but not CTAP2 canonical:
        /// arguments longer than needed, floats longer than needed, and map keys out of order.
        public var requireCanonical: Bool

        /// Creates options; the defaults accept any well-formed definite-length input up to depth 16.
        public init(maximumDepth: Int = 16, requireCanonical: Bool = false) {
            self.maximumDepth = maximumDepth
            self.requireCanonical = requireCanonical
        }

        /// The default options (depth 16, canonical form not required).
        public static let `default` = DecodingOptions()
    }

    /// Why bytes are not an acceptable CBOR item, and where.
    public struct DecodingError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The kind of defect.
        public enum Kind: Sendable, Hashable {
            /// The input ended inside an item.
            case unexpectedEnd
            /// Bytes follow the single top-level item.
            case trailingBytes(count: Int)
            /// An indefinite-length string, array or map (forbidden by CTAP2).
            case indefiniteLength
            /// A "break" stop code outside an indefinite-length item.
            case unexpectedBreak
            /// Additional information 28, 29 or 30, reserved by RFC 8949.
            case reservedAdditionalInformation(UInt8)
            /// A declared length or count larger than the bytes that remain.
            case lengthExceedsInput(declared: UInt64, remaining: Int)
            /// Containers nested deeper than the configured limit.
            case nestingTooDeep(limit: Int)
            /// A text string that is not valid UTF-8.
            case invalidUTF8
            /// A simple value other than false, true, null and undefined.
            case unsupportedSimpleValue(UInt8)
            /// A two-byte simple value below 32 (not well-formed per RFC 8949 §3.3).
            case malformedSimpleValue(UInt8)
            /// A map with two equal keys.
            case duplicateMapKey
            /// (Canonical mode) an integer, length or tag not in its shortest form.
            case nonShortestArgument
            /// (Canonical mode) a float that a shorter precision represents exactly.
            case nonShortestFloat
            /// (Canonical mode) map keys not sorted by their encoded bytes.
            case unsortedMapKeys
        }

        /// The kind of defect.
        public let kind: Kind
        /// The byte offset in the input where the defective item or byte starts.
        public let offset: Int

        /// Creates an error.
        public init(_ kind: Kind, offset: Int) {
            self.kind = kind
            self.offset = offset
        }

        /// A human-readable explanation without the offset.
        public var message: String {
            switch kind {
            case .unexpectedEnd: "input ends inside a data item"
            case let .trailingBytes(count): "\(count) unexpected byte(s) after the data item"
            case .indefiniteLength: "indefinite-length item (CTAP2 allows definite lengths only)"
            case .unexpectedBreak: "break stop code outside an indefinite-length item"
            case let .reservedAdditionalInformation(value): "reserved additional information value \(value)"
            case let .lengthExceedsInput(declared, remaining):
                "declared length \(declared) exceeds the \(remaining) byte(s) remaining"
            case let .nestingTooDeep(limit): "nesting deeper than the limit of \(limit)"
            case .invalidUTF8: "text string is not valid UTF-8"
            case let .unsupportedSimpleValue(value): "unsupported simple value \(value)"
            case let .malformedSimpleValue(value): "simple value \(value) must use the one-byte form"
            case .duplicateMapKey: "duplicate map key"
            case .nonShortestArgument: "argument is not in its shortest form"
            case .nonShortestFloat: "float is not in its shortest exact precision"
            case .unsortedMapKeys: "map keys are not in canonical order"
            }
        }

        /// "CBOR error at byte N: message".
        public var description: String { "CBOR error at byte \(offset): \(message)" }
    }

    /// Decodes exactly one item that spans all of `data`.
    ///
    /// Never traps on any input: every defect is reported as a `DecodingError`.
    public static func decode(_ data: Data, options: DecodingOptions = .default) throws(DecodingError) -> CBOR {
        var reader = Reader(bytes: [UInt8](data), options: options)
        let value = try reader.readItem(depth: 0)
        guard reader.position == reader.bytes.count else {
            throw DecodingError(.trailingBytes(count: reader.bytes.count - reader.position), offset: reader.position)
        }
        return value
    }

    /// Decodes the first item of `data` and returns it with the number of bytes it occupies,
    /// leaving any following bytes to the caller (as authenticator data needs for its COSE key).
    public static func decodePrefix(_ data: Data, options: DecodingOptions = .default) throws(DecodingError) -> (value: CBOR, length: Int) {
        var reader = Reader(bytes: [UInt8](data), options: options)
        let value = try reader.readItem(depth: 0)
        return (value, reader.position)
    }
}

/// A cursor over the input that reads one item at a time.
private struct Reader {
    let bytes: [UInt8]
    let options: CBOR.DecodingOptions
    var position = 0

    init(bytes: [UInt8], options: CBOR.DecodingOptions) {
        self.bytes = bytes
        self.options = options
    }

    var remaining: Int { bytes.count - position }

    mutating func readByte() throws(CBOR.DecodingError) -> UInt8 {
        guard position < bytes.count else { throw CBOR.DecodingError(.unexpectedEnd, offset: position) }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func readBigEndian(byteCount: Int) throws(CBOR.DecodingError) -> UInt64 {
        guard remaining >= byteCount else { throw CBOR.DecodingError(.unexpectedEnd, offset: bytes.count) }
        var value: UInt64 = 0
        for index in position..<position + byteCount { value = value << 8 | UInt64(bytes[index]) }
        position += byteCount
        return value
    }

    /// Reads the argument of a head whose additional information is `info` (0–27).
    mutating func readArgument(info: UInt8, headOffset: Int) throws(CBOR.DecodingError) -> UInt64 {
        let value: UInt64
        let minimum: UInt64
        switch info {
        case 0..<24: return UInt64(info)
        case 24:
            value = try readBigEndian(byteCount: 1)
            minimum = 24
        case 25:
            value = try readBigEndian(byteCount: 2)
            minimum = 0x100
        case 26:
            value = try readBigEndian(byteCount: 4)
            minimum = 0x1_0000
        case 27:
            value = try readBigEndian(byteCount: 8)
            minimum = 0x1_0000_0000
        default: throw CBOR.DecodingError(.reservedAdditionalInformation(info), offset: headOffset)
        }
        if options.requireCanonical, value < minimum {
            throw CBOR.DecodingError(.nonShortestArgument, offset: headOffset)
        }
        return value
    }

    /// Reads a length or count that must fit in what remains, each element taking at least
    /// `minimumElementSize` bytes.
    mutating func readLength(info: UInt8, headOffset: Int, minimumElementSize: UInt64) throws(CBOR.DecodingError) -> Int {
        if info == 31 { throw CBOR.DecodingError(.indefiniteLength, offset: headOffset) }
        let declared = try readArgument(info: info, headOffset: headOffset)
        let available = UInt64(remaining)
        guard minimumElementSize == 0 || declared <= available / minimumElementSize else {
            throw CBOR.DecodingError(.lengthExceedsInput(declared: declared, remaining: remaining), offset: headOffset)
        }
        return Int(declared)
    }

    mutating func readItem(depth: Int) throws(CBOR.DecodingError) -> CBOR {
        let headOffset = position
        let initial = try readByte()
        let major = initial >> 5
        let info = initial & 0x1F
        switch major {
        case 0:
            if info == 31 { throw CBOR.DecodingError(.unexpectedBreak, offset: headOffset) }
            return .unsigned(try readArgument(info: info, headOffset: headOffset))
        case 1:
            if info == 31 { throw CBOR.DecodingError(.unexpectedBreak, offset: headOffset) }
            return .negative(try readArgument(info: info, headOffset: headOffset))
        case 2:
            let length = try readLength(info: info, headOffset: headOffset, minimumElementSize: 1)
            defer { position += length }
            return .bytes(Data(bytes[position..<position + length]))
        case 3:
            let length = try readLength(info: info, headOffset: headOffset, minimumElementSize: 1)
            guard let text = String(validating: bytes[position..<position + length], as: UTF8.self) else {
                throw CBOR.DecodingError(.invalidUTF8, offset: headOffset)
            }
            position += length
            return .text(text)
        case 4:
            let count = try readLength(info: info, headOffset: headOffset, minimumElementSize: 1)
            try checkDepth(depth + 1, offset: headOffset)
            var elements: [CBOR] = []
            elements.reserveCapacity(count)
            for _ in 0..<count { elements.append(try readItem(depth: depth + 1)) }
            return .array(elements)
        case 5:
            let count = try readLength(info: info, headOffset: headOffset, minimumElementSize: 2)
            try checkDepth(depth + 1, offset: headOffset)
            return .map(try readPairs(count: count, depth: depth + 1))
        case 6:
            if info == 31 { throw CBOR.DecodingError(.unexpectedBreak, offset: headOffset) }
            let tag = try readArgument(info: info, headOffset: headOffset)
            try checkDepth(depth + 1, offset: headOffset)
            return .tagged(tag, try readItem(depth: depth + 1))
        default:
            return try readSimpleOrFloat(info: info, headOffset: headOffset)
        }
    }

    func checkDepth(_ depth: Int, offset: Int) throws(CBOR.DecodingError) {
        guard depth <= options.maximumDepth else {
            throw CBOR.DecodingError(.nestingTooDeep(limit: options.maximumDepth), offset: offset)
        }
    }

    mutating func readPairs(count: Int, depth: Int) throws(CBOR.DecodingError) -> [CBOR.Pair] {
        var pairs: [CBOR.Pair] = []
        pairs.reserveCapacity(count)
        var seen = Set<CBOR>()
        var previousKey: ArraySlice<UInt8>?
        for _ in 0..<count {
            let keyOffset = position
            let key = try readItem(depth: depth)
            let keyBytes = bytes[keyOffset..<position]
            if options.requireCanonical, let previousKey, !previousKey.lexicographicallyPrecedes(keyBytes) {
                throw CBOR.DecodingError(previousKey == keyBytes ? .duplicateMapKey : .unsortedMapKeys, offset: keyOffset)
            }
            guard seen.insert(key).inserted else { throw CBOR.DecodingError(.duplicateMapKey, offset: keyOffset) }
            previousKey = keyBytes
            pairs.append(CBOR.Pair(key, try readItem(depth: depth)))
        }
        return pairs
    }

    mutating func readSimpleOrFloat(info: UInt8, headOffset: Int) throws(CBOR.DecodingError) -> CBOR {
        switch info {
        case 20: return .bool(false)
        case 21: return .bool(true)
        case 22: return .null
        case 23: return .undefined
        case 24:
            let value = try readByte()
            throw CBOR.DecodingError(value < 32 ? .malformedSimpleValue(value) : .unsupportedSimpleValue(value), offset: headOffset)
        case 25:
            let value = CBOR.halfToDouble(UInt16(try readBigEndian(byteCount: 2)))
            return .float(value)
        case 26:
            let value = Double(Float(bitPattern: UInt32(try readBigEndian(byteCount: 4))))
            try checkShortestFloat(value, encodedSize: 5, headOffset: headOffset)
            return .float(value)
        case 27:
            let value = Double(bitPattern: try readBigEndian(byteCount: 8))
            try checkShortestFloat(value, encodedSize: 9, headOffset: headOffset)
            return .float(value)
        case 28...30:
            throw CBOR.DecodingError(.reservedAdditionalInformation(info), offset: headOffset)
        case 31:
            throw CBOR.DecodingError(.unexpectedBreak, offset: headOffset)
        default:
            throw CBOR.DecodingError(.unsupportedSimpleValue(info), offset: headOffset)
        }
    }

    func checkShortestFloat(_ value: Double, encodedSize: Int, headOffset: Int) throws(CBOR.DecodingError) {
        guard options.requireCanonical else { return }
        var shortest: [UInt8] = []
        CBOR.appendFloat(value, to: &shortest)
        if shortest.count < encodedSize { throw CBOR.DecodingError(.nonShortestFloat, offset: headOffset) }
    }
}
