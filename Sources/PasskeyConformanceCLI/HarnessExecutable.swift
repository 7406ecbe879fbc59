import Foundation

/// The executable that is running, as re-run lines in reports name it.
enum HarnessExecutable {
    /// The absolute path of an installed binary; `nil` when the binary lies in a package's build
    /// directory (`…/.build/…`), where `swift run passkey-conformance` is the command that rebuilds
    /// and runs it.
    static var rerunCommand: String? {
        rerunCommand(executablePath: Bundle.main.executablePath)
    }

    /// The re-run command for an executable at `path` (see `rerunCommand`).
    static func rerunCommand(executablePath path: String?) -> String? {
        guard let path, !path.isEmpty else { return nil }
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
        return resolved.split(separator: "/").contains(".build") ? nil : resolved
    }
}
