import ConformanceKit
import Foundation

/// `init-adapter <language>`: writes a minimal adapter skeleton to start from.
struct InitAdapterCommand: CLICommand {
    static let spec = CommandSpec(
        name: "init-adapter", summary: "Write a minimal adapter skeleton (python or swift) that speaks the protocol and declares no capability.",
        usage: "init-adapter python|swift [--out <directory>] [--package-path <path>] [--force]",
        options: [
            .init(name: "out", value: "directory", help: "Where to write the skeleton (default: ./<language>-adapter)."),
            .init(
                name: "package-path", value: "path",
                help: "Swift only: the passkey-conformance package the skeleton depends on (default: this harness's source checkout)."),
            .flag("force", "Overwrite files that exist."),
        ],
        positionals: .init(min: 1, max: 1, name: "language (python or swift)"))

    var language: String
    /// Where the skeleton goes, and the package a Swift skeleton depends on.
    var directory: URL
    var packagePath: String
    var force: Bool

    init(_ parsed: ParsedArguments) {
        language = parsed.positionals[0]
        directory = URL(fileURLWithPath: parsed.value("out") ?? "\(language)-adapter").standardizedFileURL
        packagePath = parsed.value("package-path").map { URL(fileURLWithPath: $0).standardizedFileURL.path } ?? Self.harnessPackagePath
        force = parsed.flag("force")
    }

    func run() throws -> Int32 {
        guard let files = try AdapterSkeletons.files(language: language, packagePath: packagePath) else {
            throw UsageError("unknown language '\(language)'; use \(AdapterSkeletons.languages.joined(separator: " or "))", command: Self.spec.name)
        }
        if language == "swift", !FileManager.default.fileExists(atPath: packagePath + "/Package.swift") {
            throw UsageError("\(packagePath) holds no Package.swift; pass the passkey-conformance checkout with --package-path", command: Self.spec.name)
        }
        let existing = files.filter { FileManager.default.fileExists(atPath: directory.appendingPathComponent($0.path).path) }
        if !existing.isEmpty, !force {
            Output.error(
                "error: \(existing.map { directory.appendingPathComponent($0.path).path }.joined(separator: ", ")) already exist(s); pass --force to overwrite")
            return CLI.Status.nonConformant
        }
        for file in files {
            let url = directory.appendingPathComponent(file.path)
            do {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(file.text.utf8).write(to: url)
                if file.executable { try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path) }
            } catch {
                throw SystemIssue("cannot write \(url.path): \(error)")
            }
            Output.out("wrote \(url.path)")
        }
        Output.out("Run it: \(AdapterSkeletons.runCommand(language: language, directory: directory.path))")
        return CLI.Status.ok
    }

    /// This harness's package root, from this file's path (Sources/PasskeyConformanceCLI/…).
    static var harnessPackagePath: String {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }
}
