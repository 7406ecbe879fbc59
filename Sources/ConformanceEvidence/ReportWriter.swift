import ConformanceModel
import ConformanceReports

/// Writes a run's reports as one set that replaces the previous set in a single step.
///
/// The reports are written in full into a fresh sibling of the report directory
/// (`.<name>.staged.<pid>.<random>`, next to it), each file synced, and the sibling then takes the
/// report directory's place in one rename: swapped with the old directory where the system can
/// (`renameat2(RENAME_EXCHANGE)` on Linux, `renameatx_np(RENAME_SWAP)` on macOS), else the old one
/// is renamed aside first (`.<name>.previous.<pid>.<random>`). The old set is then removed. A crash
/// at any instant therefore leaves the complete old set or the complete new set under the report
/// directory's name, never a mixture, and a later run removes what a crashed one left beside it
/// (and puts back an old set that was renamed aside but not replaced). A format the new set does
/// not have is gone with the old set, so no report of an earlier run stays beside the new ones.
///
/// The report directory is the harness's own: it may hold only reports (and `explore`'s
/// `criteria/`), and a symbolic link there is refused. Its parent is opened once, when the
/// `ReportDirectory` is made, and every later step works relative to that open directory without
/// following links, so a process that swaps the path while the run goes on cannot redirect the
/// reports.
package enum ReportWriter {
    /// Why reports could not be written.
    package struct WriteError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What was being done.
        package enum Operation: String, Sendable, Hashable, CaseIterable {
            /// Creating or opening the report directory's parent, or checking the report directory.
            case createDirectory = "use the report directory"
            /// Rendering the report (JSON encoding).
            case render = "render the report"
            /// Creating or writing a report in the staging directory.
            case writeFile = "write the report"
            /// Putting the new set in the report directory's place.
            case rename = "put the new reports in place of"
        }

        /// The path the operation was about.
        package var path: String
        /// What was being done when it failed.
        package var operation: Operation
        /// The system's reason, e.g. `Permission denied`, or the harness's.
        package var reason: String

        /// An error about `path`, met while doing `operation`, for `reason`.
        package init(path: String, operation: Operation, reason: String) {
            self.path = path
            self.operation = operation
            self.reason = reason
        }

        /// `cannot use the report directory out: Permission denied`
        package var description: String { "cannot \(operation.rawValue) \(path): \(reason)" }
    }

    /// Writes the run in each format to `directory`, replacing the set there.
    ///
    /// - Parameters:
    ///   - run: the run to report.
    ///   - waivers: the waiver evaluation every report shows (`.none` for no waivers).
    ///   - formats: the formats to write; each at most once, in the given order.
    ///   - directory: the report directory.
    /// - Returns: the paths written, in the order of `formats`.
    /// - Throws: `WriteError` with the path and the reason.
    @discardableResult
    package static func write(
        _ run: RunResult, waivers: WaiverEvaluation = .none, formats: [ReportFormat],
        to directory: String
    ) throws(WriteError) -> [String] {
        try write(run, waivers: waivers, formats: formats, to: try ReportDirectory(directory))
    }

    /// Writes the run in each format, and `extraFiles` (relative paths, at most one directory
    /// deep), into `directory` as one set.
    @discardableResult
    package static func write(
        _ run: RunResult, waivers: WaiverEvaluation = .none, formats: [ReportFormat],
        extraFiles: [(path: String, bytes: [UInt8])] = [], to directory: ReportDirectory
    ) throws(WriteError) -> [String] {
        var seen: Set<ReportFormat> = []
        let formats = formats.filter { seen.insert($0).inserted }
        let model: ReportModel
        do {
            model = try ReportModel.sealed(run, waivers: waivers)
        } catch {
            throw WriteError(path: join(directory.path, ReportFormat.json.fileName), operation: .render, reason: "\(error)")
        }
        var files: [(path: String, bytes: [UInt8])] = []
        for format in formats {
            do {
                files += try format.files(of: model)
            } catch {
                throw WriteError(path: join(directory.path, format.fileName), operation: .render, reason: "\(error)")
            }
        }
        return try directory.commit(files + extraFiles)
    }

    /// Checks that reports can be written to `directory`, so a run can fail before it starts
    /// rather than after it ends.
    package static func prepare(directory: String) throws(WriteError) {
        _ = try ReportDirectory(directory)
    }

    static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
