import ConformanceModel

/// Writes reports into a directory so that no reader ever sees a half-written file.
///
/// Every report is first written in full to a temporary file in the same directory
/// (`.report.json.<pid>.<random>.tmp`), synced to disk, and then renamed over its final name; a
/// rename within one directory replaces the old file atomically. All temporary files are written
/// before the first rename, so a failure to render or write any of them leaves every report as it
/// was; a failure of a later rename restores the reports already renamed, so the set is committed
/// together or not at all. A failure is a `WriteError` naming the path and the reason; temporary
/// files are removed.
public enum ReportWriter {
    /// Why reports could not be written.
    public struct WriteError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What was being done.
        public enum Operation: String, Sendable, Hashable, CaseIterable {
            /// Creating the report directory.
            case createDirectory = "create the report directory"
            /// Rendering the report (JSON encoding).
            case render = "render the report"
            /// Creating or writing the temporary file.
            case writeFile = "write the temporary file"
            /// Renaming the temporary file into place.
            case rename = "rename the report into place"
        }

        /// The path the operation was about (the directory, the temporary file or the report).
        public var path: String
        /// What was being done when it failed.
        public var operation: Operation
        /// The system's reason, e.g. `Permission denied`.
        public var reason: String

        /// An error about `path`, met while doing `operation`, for `reason`.
        public init(path: String, operation: Operation, reason: String) {
            self.path = path
            self.operation = operation
            self.reason = reason
        }

        /// `cannot write the temporary file /out/.report.json.12.ab.tmp: Permission denied`
        public var description: String { "cannot \(operation.rawValue) \(path): \(reason)" }
    }

    /// Writes the run in each format to `directory`, creating the directory if needed.
    ///
    /// - Parameters:
    ///   - run: the run to report.
    ///   - waivers: the waiver evaluation every report shows (`.none` for no waivers).
    ///   - formats: the formats to write; each at most once, in the given order.
    ///   - directory: the report directory.
    /// - Returns: the paths written, in the order of `formats`.
    /// - Throws: `WriteError` with the path and the reason.
    @discardableResult
    public static func write(
        _ run: RunResult, waivers: WaiverEvaluation = .none, formats: [ReportFormat],
        to directory: String
    ) throws(WriteError) -> [String] {
        var seen: Set<ReportFormat> = []
        let formats = formats.filter { seen.insert($0).inserted }
        let model = ReportModel(run, waivers: waivers)
        var files: [(format: ReportFormat, bytes: [UInt8])] = []
        for format in formats {
            do {
                files.append((format, try render(model, as: format)))
            } catch {
                throw WriteError(path: join(directory, format.fileName), operation: .render, reason: "\(error)")
            }
        }
        return try write(files.map { ($0.format.fileName, $0.bytes) }, to: directory)
    }

    /// The bytes of the report in one format.
    static func render(_ model: ReportModel, as format: ReportFormat) throws -> [UInt8] {
        switch format {
        case .json: try JSONReporter.render(model)
        case .markdown: Array(MarkdownReporter.render(model).utf8)
        case .junit: Array(JUnitReporter.render(model).utf8)
        }
    }

    /// Creates the report directory if needed and checks that it is a directory, so a run can fail
    /// before it starts rather than after it ends.
    public static func prepare(directory: String) throws(WriteError) {
        do {
            try Platform.makeDirectories(directory)
        } catch {
            throw WriteError(path: directory, operation: .createDirectory, reason: error.reason)
        }
        guard Platform.kind(of: directory) == .directory else {
            throw WriteError(path: directory, operation: .createDirectory, reason: "exists and is not a directory")
        }
    }

    /// Writes named files atomically into a directory: all to temporary files first, then renamed.
    static func write(_ files: [(name: String, bytes: [UInt8])], to directory: String) throws(WriteError) -> [String] {
        try prepare(directory: directory)
        var temporaries: [(temporary: String, final: String)] = []
        func discard() { for file in temporaries { Platform.removeFile(file.temporary) } }
        for file in files {
            let temporary = join(directory, ".\(file.name).\(Platform.processID).\(String(UInt32.random(in: 0...UInt32.max), radix: 16)).tmp")
            do {
                try Platform.createFile(temporary, contents: file.bytes)
            } catch {
                discard()
                throw WriteError(path: temporary, operation: .writeFile, reason: error.reason)
            }
            temporaries.append((temporary, join(directory, file.name)))
        }
        // The set is committed together or not at all: each existing report keeps a second name
        // (a hard link) until every rename has succeeded; when one fails, the reports already
        // renamed get their previous content back (or are removed if they did not exist), so a
        // reader never finds a new JSON beside an old JUnit.
        let backups: [String?] = temporaries.map { file in
            guard Platform.kind(of: file.final) == .other else { return nil }
            let backup = file.temporary + ".previous"
            return Platform.hardLink(file.final, as: backup) ? backup : nil
        }
        defer { for backup in backups { if let backup { Platform.removeFile(backup) } } }
        for (index, file) in temporaries.enumerated() {
            do {
                try Platform.rename(file.temporary, to: file.final)
            } catch {
                for rest in temporaries[index...] { Platform.removeFile(rest.temporary) }
                for undone in (0..<index).reversed() {
                    if let backup = backups[undone] {
                        try? Platform.rename(backup, to: temporaries[undone].final)
                    } else {
                        Platform.removeFile(temporaries[undone].final)
                    }
                }
                throw WriteError(path: file.final, operation: .rename, reason: error.reason)
            }
        }
        Platform.syncDirectory(directory)
        return temporaries.map(\.final)
    }

    static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
