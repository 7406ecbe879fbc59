/// A defect in a criterion file, reported as `file:line:col: error: message` and collected, so one
/// run reports every defect of every file.
public struct Diagnostic: Sendable, Hashable, Codable, CustomStringConvertible, Comparable {
    public enum Severity: String, Sendable, Hashable, Codable {
        case error, warning
    }
    public var severity: Severity
    /// The file, as given to the loader (relative to the working directory where possible).
    public var file: String
    public var line: Int
    public var column: Int
    public var message: String

    public init(_ severity: Severity = .error, file: String, line: Int, column: Int = 1, _ message: String) {
        self.severity = severity
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String { "\(file):\(line):\(column): \(severity.rawValue): \(message)" }

    public static func < (lhs: Diagnostic, rhs: Diagnostic) -> Bool {
        (lhs.file, lhs.line, lhs.column, lhs.message) < (rhs.file, rhs.line, rhs.column, rhs.message)
    }
}
