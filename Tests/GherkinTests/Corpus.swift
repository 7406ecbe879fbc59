import Foundation

/// Where the official Gherkin test corpus (cucumber/gherkin `testdata`) lies, and its files.
///
/// Default: `../shared/gherkin/testdata` beside the package root; the environment variable
/// `GHERKIN_TESTDATA` overrides it. Where it is absent the corpus tests are skipped, not failed.
enum Corpus {
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let root: URL = {
        if let path = ProcessInfo.processInfo.environment["GHERKIN_TESTDATA"], !path.isEmpty {
            return URL(fileURLWithPath: path, relativeTo: packageRoot).standardizedFileURL
        }
        return packageRoot.appendingPathComponent("../shared/gherkin/testdata").standardizedFileURL
    }()

    static var isAvailable: Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent("good").path)
            && FileManager.default.fileExists(atPath: root.appendingPathComponent("bad").path)
    }

    /// The `.feature` and `.feature.md` sources of a corpus folder, sorted.
    static func sources(in folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)) ?? []
        return names.filter { $0.hasSuffix(".feature") || $0.hasSuffix(".feature.md") }.sorted()
    }

    static func url(_ folder: String, _ name: String) -> URL {
        root.appendingPathComponent(folder).appendingPathComponent(name)
    }

    /// The file's text, decoded as the reference reads it.
    static func text(_ folder: String, _ name: String) throws -> String {
        String(decoding: try Data(contentsOf: url(folder, name)), as: UTF8.self)
    }

    /// An NDJSON text with every escaped CRLF (`\\r\\n` inside a JSON string) turned into `\\n`.
    ///
    /// Applied to both sides of a comparison, so a `.crlf` source checked out with CRLF (git) or with
    /// LF (an archive) compares equal to its golden `source` line, which always keeps CRLF.
    static func normalisingLineEndings(_ ndjson: String) -> String {
        ndjson.replacingOccurrences(of: "\\r\\n", with: "\\n")
    }

    /// The URI the golden files were recorded with.
    static func uri(_ folder: String, _ name: String) -> String { "../testdata/\(folder)/\(name)" }
}

/// A parsed JSON value, for comparing NDJSON lines as values rather than text (key order and
/// number formatting do not matter; every value and id does).
enum JSONValue: Decodable, Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let value = try? c.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? c.decode(Double.self) {
            self = .number(value)
        } else if let value = try? c.decode(String.self) {
            self = .string(value)
        } else if let value = try? c.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try c.decode([String: JSONValue].self))
        }
    }

    /// Converts the output of `JSONSerialization`.
    init(_ any: Any) {
        switch any {
        case let value as String: self = .string(value)
        case let value as [Any]: self = .array(value.map(JSONValue.init))
        case let value as [String: Any]: self = .object(value.mapValues(JSONValue.init))
        case let value as NSNumber:
            if String(cString: value.objCType) == "c" {
                self = .bool(value.boolValue)
            } else {
                self = .number(value.doubleValue)
            }
        default: self = .null
        }
    }

    /// The values of an NDJSON text, one per non-empty line.
    static func lines(_ text: String) throws -> [JSONValue] {
        try text.split(separator: "\n", omittingEmptySubsequences: true).map {
            JSONValue(try JSONSerialization.jsonObject(with: Data($0.utf8), options: [.fragmentsAllowed]))
        }
    }

    var description: String {
        switch self {
        case .null: "null"
        case .bool(let b): "\(b)"
        case .number(let n): "\(n)"
        case .string(let s): "\"\(s)\""
        case .array(let a): "[" + a.map(\.description).joined(separator: ",") + "]"
        case .object(let o): "{" + o.keys.sorted().map { "\"\($0)\":\(o[$0]!)" }.joined(separator: ",") + "}"
        }
    }
}
