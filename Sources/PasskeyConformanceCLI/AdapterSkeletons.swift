import ConformanceKit
import Foundation

/// The files `init-adapter` writes: a minimal adapter per language that speaks the whole protocol,
/// declares every target and no capability, and leaves the relying party's logic as TODOs.
///
/// Their text is in templates under `Resources/Skeletons` (`python/adapter.py.template`,
/// `swift/Package.swift.template`, `swift/main.swift.template`, `README.md.template`), copied into
/// the resource bundle beside the executable like the criteria and found by path the same way
/// (`CriteriaLocation.bundledFolder`), never through `Bundle.module`, which would stop the process
/// when the bundle is missing. Their placeholders: `{{TARGETS}}` in adapter.py, `{{PACKAGE_PATH}}`
/// and `{{PACKAGE_IDENTITY}}` in Package.swift, `{{LANGUAGE}}` and `{{RUN_COMMAND}}` in README.md.
enum AdapterSkeletons {
    /// A file of a skeleton: its path below the output directory and its text.
    struct File: Sendable, Hashable {
        var path: String
        var text: String
        var executable = false
    }

    /// The languages `init-adapter` knows.
    static let languages = ["python", "swift"]

    /// The folder of the resource bundle that holds the templates.
    static let resourceFolder = "Skeletons"

    /// The files of a language's skeleton, `nil` for a language `init-adapter` does not know;
    /// `packagePath` is the harness package a Swift skeleton depends on. Throws a `SystemIssue` that
    /// says what to copy when the templates are not beside the executable.
    static func files(language: String, packagePath: String) throws -> [File]? {
        guard languages.contains(language) else { return nil }
        let root = try templatesRoot()
        switch language {
        case "python":
            let text = try template("python/adapter.py.template", in: root).replacingOccurrences(of: "{{TARGETS}}", with: pythonTargets)
            let readmeText = try readme(language: "python", templates: root)
            return [File(path: "adapter.py", text: text, executable: true), File(path: "README.md", text: readmeText)]
        case "swift":
            let identity = URL(fileURLWithPath: packagePath).lastPathComponent.lowercased()
            let manifest = try template("swift/Package.swift.template", in: root).replacingOccurrences(of: "{{PACKAGE_PATH}}", with: packagePath)
                .replacingOccurrences(of: "{{PACKAGE_IDENTITY}}", with: identity)
            let mainSource = try template("swift/main.swift.template", in: root)
            let readmeText = try readme(language: "swift", templates: root)
            return [
                File(path: "Package.swift", text: manifest), File(path: "Sources/MyRelyingPartyAdapter/main.swift", text: mainSource),
                File(path: "README.md", text: readmeText),
            ]
        default:
            return nil
        }
    }

    /// Every target id of the catalogue as Python list items, four to a line, indented for the list.
    static var pythonTargets: String {
        let ids = TargetCatalog.all.map { "\"\($0.id)\"," }
        return stride(from: 0, to: ids.count, by: 4).map { "    " + ids[$0..<min($0 + 4, ids.count)].joined(separator: " ") }
            .joined(separator: "\n")
    }

    /// The command that runs the harness against a skeleton written to `directory`.
    static func runCommand(language: String, directory: String) -> String {
        switch language {
        case "python": return "passkey-conformance run --adapter-command \"python3 \(directory)/adapter.py\""
        default:
            return "swift build --package-path \(directory) && passkey-conformance run --adapter-command \"\(directory)/.build/debug/MyRelyingPartyAdapter\""
        }
    }

    /// The skeleton's README for a language, from the templates' folder `templates`.
    static func readme(language: String, templates: String) throws -> String {
        try template("README.md.template", in: templates)
            .replacingOccurrences(of: "{{RUN_COMMAND}}", with: runCommand(language: language, directory: "."))
            .replacingOccurrences(of: "{{LANGUAGE}}", with: language)
    }

    /// The templates' folder in the resource bundle beside the executable; without it, a system issue
    /// that says what to copy.
    static func templatesRoot() throws -> String {
        if let root = CriteriaLocation.bundledFolder(resourceFolder) { return root }
        throw SystemIssue(
            "no adapter skeletons found: \(CriteriaLocation.bundleName).resources/\(resourceFolder) is not beside the executable; "
                + "copy the resource bundles with the binary (see README, Installing)")
    }

    /// The text of the template at `path` below the templates' folder `root`.
    static func template(_ path: String, in root: String) throws -> String {
        let url = URL(fileURLWithPath: root).appendingPathComponent(path)
        do {
            return try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw SystemIssue(
                "cannot read the adapter skeleton template \(url.path) (\(error)); the resource bundle beside the executable is incomplete: "
                    + "copy the resource bundles with the binary again (see README, Installing)")
        }
    }
}
