/// A defect in a criterion file, reported as `file:line:col: error: message` and collected, so one
/// run reports every defect of every file.
public struct Diagnostic: Sendable, Hashable, Codable, CustomStringConvertible, Comparable {
    /// How serious a diagnostic is.
    ///
    /// An error keeps the criteria from running; a warning (an unknown tag, say) is only reported.
    public enum Severity: String, Sendable, Hashable, Codable {
        /// `error`: the file is defective; `warning`: worth a look, but the criteria can still run.
        case error, warning
    }
    /// Whether the defect stops the run or is only reported.
    public var severity: Severity
    /// The file, as given to the loader (relative to the working directory where possible).
    public var file: String
    /// The 1-based line of the defect.
    public var line: Int
    /// The 1-based column of the defect; 1 when only the line is known.
    public var column: Int
    /// What is wrong, in a sentence fit for the terminal.
    public var message: String

    /// Creates a diagnostic at `file:line:column` with a severity (an error unless given) and a message.
    public init(_ severity: Severity = .error, file: String, line: Int, column: Int = 1, _ message: String) {
        self.severity = severity
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// The compiler-style form `file:line:col: severity: message`.
    public var description: String { "\(file):\(line):\(column): \(severity.rawValue): \(message)" }

    /// Orders diagnostics by file, line, column and message, so one file's defects read top to bottom.
    public static func < (lhs: Diagnostic, rhs: Diagnostic) -> Bool {
        (lhs.file, lhs.line, lhs.column, lhs.message, lhs.severity.rawValue) < (rhs.file, rhs.line, rhs.column, rhs.message, rhs.severity.rawValue)
    }
}
