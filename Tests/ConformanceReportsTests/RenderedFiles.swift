import ConformanceKit
@testable import ConformanceReports
import Foundation

/// A report set written the way the report directory writes it (one sealed model, every format's
/// files), for the tests that read the files with other tools; the directory's own guarantees
/// (atomic swap, no links) are tested with `ReportWriter` in ConformanceEvidenceTests.
enum RenderedFiles {
    @discardableResult
    static func write(_ run: RunResult, waivers: WaiverEvaluation = .none, formats: [ReportFormat], to directory: String) throws -> [String] {
        let model = try ReportModel.sealed(run, waivers: waivers)
        var paths: [String] = []
        for format in formats {
            for file in try format.files(of: model) {
                let path = (directory as NSString).appendingPathComponent(file.path)
                try Data(file.bytes).write(to: URL(fileURLWithPath: path))
                paths.append(path)
            }
        }
        return paths
    }
}
