// Foundation rather than FoundationEssentials: `JSONSerialization` locates JSON syntax errors.
import Foundation

/// A waiver file: the expected failures a project accepts while it adopts the criteria.
///
/// The file is JSON (see `Documentation/report-format.md`, "Waiver files"):
///
/// ```json
/// {
///   "version": 1,
///   "waivers": [
///     { "criterion": "N2.6-AC04", "target": "apple-17.4", "reason": "exclusion list lands in 4.2",
///       "owner": "ios-team", "expires": "2026-03-31" }
///   ]
/// }
/// ```
///
/// Loading is strict and reports every defect at once: a misspelt member or an impossible date is
/// an error, never silently ignored, because a waiver that quietly does not apply is as misleading
/// as one that quietly applies too widely.
public struct WaiverFile: Sendable, Hashable {
    /// The version of the waiver file format this module reads and writes.
    public static let formatVersion = 1

    /// Where the waivers were read from, if they came from a file.
    public var path: String?
    /// The waivers, in file order.
    public var waivers: [Waiver]

    /// Waivers given in code (`path` `nil`) or already read from `path`.
    public init(path: String? = nil, waivers: [Waiver]) {
        self.path = path
        self.waivers = waivers
    }

    /// Why a waiver file could not be loaded: the file and every problem found in it.
    public struct LoadError: Error, Sendable, Hashable, CustomStringConvertible {
        /// One defect: where it is (entry and member) and what is wrong.
        public struct Problem: Sendable, Hashable, CustomStringConvertible {
            /// The position of the waiver in the `waivers` array, from 0; `nil` for the file as a whole.
            public var entry: Int?
            /// The member at fault (`expires`, `version`, …), or `nil` when the problem is not one member's.
            public var field: String?
            /// What is wrong, in a sentence.
            public var message: String

            /// A problem at `entry` and `field` (either may be `nil`), described by `message`.
            public init(entry: Int?, field: String?, message: String) {
                self.entry = entry
                self.field = field
                self.message = message
            }

            /// The location as a path into the document (`waivers[2].expires`), or `nil` for the file itself.
            public var location: String? {
                switch (entry, field) {
                case (let entry?, let field?): "waivers[\(entry)].\(field)"
                case (let entry?, nil): "waivers[\(entry)]"
                case (nil, let field?): field
                case (nil, nil): nil
                }
            }

            /// `waivers[2].expires: "2026-02-30" is not a calendar date …`
            public var description: String {
                location.map { "\($0): \(message)" } ?? message
            }
        }

        /// The file that could not be loaded.
        public var path: String
        /// Every problem found, in document order; never empty.
        public var problems: [Problem]

        /// The error for the file at `path` with its problems.
        public init(path: String, problems: [Problem]) {
            self.path = path
            self.problems = problems
        }

        /// One line per problem, each starting with the file path.
        public var description: String {
            problems.map { "\(path): error: \($0)" }.joined(separator: "\n")
        }
    }

    /// The waivers that name a criterion or a target the suite does not have, one sentence each
    /// (`N2.6-AC1@*: no criterion N2.6-AC1 …`): such a waiver would otherwise be silently "not
    /// exercised" for ever.
    public func unknownIDs(criteria: Set<CriterionID>, targets: Set<String>) -> [String] {
        var problems: [String] = []
        for waiver in waivers {
            if !criteria.contains(waiver.criterion) {
                problems.append(
                    "waiver \(waiver.id): no criterion \(waiver.criterion) in the loaded criteria (known: \(criteria.sorted().joined(separator: ", ")))")
            }
            if case .exactly(let target) = waiver.target, !targets.contains(target) {
                problems.append("waiver \(waiver.id): no target \(target) (known: \(targets.sorted().joined(separator: ", ")), or * for every target)")
            }
        }
        return problems
    }

    /// Validates the bytes of a waiver file; `path` names it in errors.
    public static func parse(_ bytes: [UInt8], path: String) throws(LoadError) -> WaiverFile {
        var parser = Parser()
        let waivers = parser.parse(bytes)
        guard parser.problems.isEmpty else { throw LoadError(path: path, problems: parser.problems) }
        return WaiverFile(path: path, waivers: waivers)
    }
}

extension WaiverFile {
    /// Two phases, as for any strict format: bytes to a generic JSON tree, then the tree to typed
    /// waivers, collecting every problem on the way.
    private struct Parser {
        var problems: [LoadError.Problem] = []

        static let topLevelMembers = ["$schema", "version", "waivers"]
        static let waiverMembers = ["criterion", "target", "reason", "owner", "expires"]

        mutating func parse(_ bytes: [UInt8]) -> [Waiver] {
            guard bytes.contains(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
                problem(nil, nil, "the file is empty; expected a JSON object with `version` and `waivers`")
                return []
            }
            let document: JSONValue
            do {
                document = try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
            } catch {
                problem(nil, nil, "not valid JSON: \(Self.locateSyntaxError(bytes) ?? Self.describe(error))")
                return []
            }
            // A member given twice would silently take one of its values (an `expires` in 2099
            // followed by one in 2020): an error, located.
            do {
                _ = try JSONValue.parse(Data(bytes))
            } catch {
                let (line, column) = Self.lineAndColumn(of: error.offset, in: bytes)
                problem(nil, nil, "\(error.message) (line \(line), column \(column)); give each member once")
                return []
            }
            guard case .object(let members) = document else {
                problem(nil, nil, "the file must hold a JSON object with `version` and `waivers`, found \(Self.kind(document))")
                return []
            }
            for key in members.keys.sorted() where !Self.topLevelMembers.contains(key) {
                problem(nil, key, "unknown member; a waiver file has only `version`, `waivers` and optionally `$schema`")
            }
            if let schema = members["$schema"], schema.stringValue == nil {
                problem(nil, "$schema", "must be a string, found \(Self.kind(schema))")
            }
            switch members["version"] {
            case nil:
                problem(nil, "version", "missing; write `\"version\": \(WaiverFile.formatVersion)`")
            case .number(let number) where number == Double(WaiverFile.formatVersion):
                break
            case let other?:
                problem(nil, "version", "unsupported version \(Self.show(other)); this harness reads version \(WaiverFile.formatVersion)")
            }
            guard let list = members["waivers"] else {
                problem(nil, "waivers", "missing; expected an array of waivers (it may be empty)")
                return []
            }
            guard case .array(let entries) = list else {
                problem(nil, "waivers", "must be an array of waivers, found \(Self.kind(list))")
                return []
            }
            var waivers: [Waiver] = []
            var firstIndex: [String: Int] = [:]
            for (index, entry) in entries.enumerated() {
                guard let waiver = parseWaiver(entry, at: index) else { continue }
                if let first = firstIndex[waiver.id] {
                    problem(index, nil, "waives \(waiver.criterion) on target `\(waiver.target)` a second time (first at waivers[\(first)]); keep one entry")
                    continue
                }
                firstIndex[waiver.id] = index
                waivers.append(waiver)
            }
            return waivers
        }

        private mutating func parseWaiver(_ entry: JSONValue, at index: Int) -> Waiver? {
            guard case .object(let members) = entry else {
                problem(index, nil, "must be an object with \(Self.waiverMembers.map { "`\($0)`" }.joined(separator: ", ")), found \(Self.kind(entry))")
                return nil
            }
            for key in members.keys.sorted() where !Self.waiverMembers.contains(key) {
                problem(index, key, "unknown member; a waiver has exactly \(Self.waiverMembers.map { "`\($0)`" }.joined(separator: ", "))")
            }
            let criterion = criterionID(members, at: index)
            let target = identifier(members, "target", at: index)
            let reason = text(members, "reason", at: index)
            let owner = text(members, "owner", at: index)
            var expires: CalendarDate?
            if let raw = text(members, "expires", at: index) {
                expires = CalendarDate(raw)
                if expires == nil {
                    problem(index, "expires", "\(Self.show(.string(raw))) is not a calendar date in the form YYYY-MM-DD")
                }
            }
            guard let criterion, let target, let reason, let owner, let expires else { return nil }
            // A reason is repeated into every report that shows the waiver: kept to 1,000 characters, the cut marked.
            return Waiver(
                criterion: criterion, target: .init(target), reason: Caps.text(reason, limit: 1_000),
                owner: Caps.text(owner, limit: 200), expires: expires)
        }

        /// A required, non-blank string member.
        private mutating func text(_ members: [String: JSONValue], _ field: String, at index: Int) -> String? {
            guard let value = members[field] else {
                problem(index, field, "missing; every waiver needs \(Self.waiverMembers.map { "`\($0)`" }.joined(separator: ", "))")
                return nil
            }
            guard case .string(let string) = value else {
                problem(index, field, "must be a string, found \(Self.kind(value))")
                return nil
            }
            guard string.contains(where: { !$0.isWhitespace }) else {
                problem(index, field, "must not be empty")
                return nil
            }
            return string
        }

        /// A required string member without whitespace (a criterion id, a target id or `*`).
        private mutating func identifier(_ members: [String: JSONValue], _ field: String, at index: Int) -> String? {
            guard let string = text(members, field, at: index) else { return nil }
            guard !string.contains(where: \.isWhitespace) else {
                problem(index, field, "\(Self.show(.string(string))) must not contain whitespace")
                return nil
            }
            return string
        }

        /// The required `criterion` member, a well-formed criterion id.
        private mutating func criterionID(_ members: [String: JSONValue], at index: Int) -> CriterionID? {
            guard let string = identifier(members, "criterion", at: index) else { return nil }
            do throws(IdentifierError) {
                return try CriterionID(parsing: string)
            } catch {
                problem(index, "criterion", error.message)
                return nil
            }
        }

        private mutating func problem(_ entry: Int?, _ field: String?, _ message: String) {
            problems.append(.init(entry: entry, field: field, message: message))
        }

        static func kind(_ value: JSONValue) -> String {
            switch value {
            case .null: "null"
            case .bool: "a boolean"
            case .number: "a number"
            case .string: "a string"
            case .array: "an array"
            case .object: "an object"
            }
        }

        /// A short rendering of a value for messages.
        static func show(_ value: JSONValue) -> String {
            guard let data = try? Wire.encoder().encode(value), let text = String(data: data, encoding: .utf8) else { return kind(value) }
            return text.count > 60 ? String(text.prefix(57)) + "…" : text
        }

        /// Where the JSON is broken, as `JSONSerialization` tells it (`Invalid value around character
        /// 28.`), with the line and column added when it gives a character offset.
        static func locateSyntaxError(_ bytes: [UInt8]) -> String? {
            do {
                _ = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
                return nil
            } catch {
                guard let text = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String, !text.isEmpty else { return nil }
                guard let range = text.range(of: "around character "),
                    let offset = Int(text[range.upperBound...].prefix(while: \.isNumber)), offset <= bytes.count
                else { return text }
                var line = 1
                var column = 1
                for byte in bytes[..<offset] {
                    if byte == UInt8(ascii: "\n") {
                        line += 1
                        column = 1
                    } else if byte & 0xC0 != 0x80 {
                        column += 1
                    }
                }
                let sentence = text.hasSuffix(".") ? String(text.dropLast()) : text
                return "\(sentence) (line \(line), column \(column))"
            }
        }

        /// The 1-based line and column (in characters) of a byte offset.
        static func lineAndColumn(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
            var line = 1
            var column = 1
            for byte in bytes[..<min(max(offset, 0), bytes.count)] {
                if byte == UInt8(ascii: "\n") {
                    line += 1
                    column = 1
                } else if byte & 0xC0 != 0x80 {
                    column += 1
                }
            }
            return (line, column)
        }

        /// The decoder's account of a syntax error, with its position when it gives one.
        static func describe(_ error: any Error) -> String {
            guard case DecodingError.dataCorrupted(let context) = error else { return "\(error)" }
            var text = context.debugDescription
            if let underlying = context.underlyingError {
                let detail = "\(underlying)"
                if !detail.isEmpty, detail != text { text += " (\(detail))" }
            }
            return text
        }
    }
}
