import ConformanceKit
import Foundation

/// Where the criteria are when `--criteria` is not given.
///
/// In order: `./Criteria` in the working directory (a checkout, where the files are edited); then
/// the criteria shipped in the resource bundle beside the executable
/// (`passkey-conformance_PasskeyConformanceCLI.resources/Criteria`, copied by the build), so that a
/// release binary copied with its bundles runs from any directory. Never the source checkout the
/// binary was built from: an installed binary must not read whatever lies at its build path. The
/// bundle is found by path, never through `Bundle.module`, which would stop the process when the
/// bundle is missing.
enum CriteriaLocation {
    /// The resource bundle's name, as SwiftPM names it for this target.
    static let bundleName = "passkey-conformance_PasskeyConformanceCLI"

    /// The default criteria root; without one, a system issue that says what to do.
    static func defaultRoot() throws -> String {
        if FileManager.default.fileExists(atPath: "Criteria") { return "Criteria" }
        if let bundled = bundledRoot() { return bundled }
        throw SystemIssue(
            "no criteria found: neither ./Criteria nor \(bundleName).resources beside the executable; "
                + "copy the resource bundles with the binary (see README, Installing) or pass --criteria")
    }

    /// The criteria in the resource bundle beside the running executable, if it is there.
    static func bundledRoot() -> String? {
        guard let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() else { return nil }
        let directory = executable.deletingLastPathComponent()
        let candidates = [
            directory.appendingPathComponent("\(bundleName).resources/Criteria"),  // Linux, Windows
            directory.appendingPathComponent("\(bundleName).bundle/Contents/Resources/Criteria"),  // macOS
            directory.appendingPathComponent("\(bundleName).bundle/Criteria"),
        ]
        var isDirectory: ObjCBool = false
        return candidates.first { FileManager.default.fileExists(atPath: $0.path, isDirectory: &isDirectory) && isDirectory.boolValue }?.path
    }
}
