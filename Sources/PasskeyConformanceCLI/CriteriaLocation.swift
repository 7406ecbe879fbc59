import ConformanceKit
import Foundation

/// Where the criteria are when `--criteria` is not given: always the suite shipped in the resource
/// bundle beside the executable (`passkey-conformance_PasskeyConformanceCLI.resources/Criteria`,
/// copied by the build), the versioned suite a gate is meant to run.
///
/// Never a `Criteria` folder of the working directory: a gate runs inside the repository under test,
/// and a folder planted there must not replace the suite. Never the source checkout the binary was
/// built from either. A developer who edits `Criteria/` passes `--criteria Criteria` (or runs
/// `Scripts/sync-criteria.sh`, which copies it into the bundle); every report then says that the
/// criteria are not the bundled suite, with both digests. `validate` without a path checks
/// `./Criteria` when there is one, since checking the files being edited is its purpose. The bundle is
/// found by path, never through `Bundle.module`, which would stop the process when it is missing.
enum CriteriaLocation {
    /// The resource bundle's name, as SwiftPM names it for this target.
    static let bundleName = "passkey-conformance_PasskeyConformanceCLI"

    /// The default criteria root: the bundled suite; without it, a system issue that says what to do.
    static func defaultRoot() throws -> String {
        if let bundled = bundledRoot() { return bundled }
        throw SystemIssue(
            "no criteria found: \(bundleName).resources is not beside the executable; "
                + "copy the resource bundles with the binary (see README, Installing) or pass --criteria")
    }

    /// The root `validate` checks without a path: `./Criteria` when there is one, else the bundled suite.
    static func validationRoot() throws -> String {
        if FileManager.default.fileExists(atPath: "Criteria") { return "Criteria" }
        return try defaultRoot()
    }

    /// The digest of the bundled suite, `nil` when the bundle is missing or unreadable.
    static func bundledDigest() -> String? { bundledRoot().flatMap { CriteriaLoader.digest(root: $0) } }

    /// The criteria in the resource bundle beside the running executable, if it is there.
    static func bundledRoot() -> String? { bundledFolder("Criteria") }

    /// A folder of the resource bundle beside the running executable (`Criteria`, or the adapter
    /// skeletons' `Skeletons`), if it is there.
    static func bundledFolder(_ name: String) -> String? {
        guard let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() else { return nil }
        let directory = executable.deletingLastPathComponent()
        let candidates = [
            directory.appendingPathComponent("\(bundleName).resources/\(name)"),  // Linux, Windows
            directory.appendingPathComponent("\(bundleName).bundle/Contents/Resources/\(name)"),  // macOS
            directory.appendingPathComponent("\(bundleName).bundle/\(name)"),
        ]
        var isDirectory: ObjCBool = false
        return candidates.first { FileManager.default.fileExists(atPath: $0.path, isDirectory: &isDirectory) && isDirectory.boolValue }?.path
    }
}
