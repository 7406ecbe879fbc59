import Foundation
import PackagePlugin

/// Records the commit the harness is built from, before every build of the target that uses it.
///
/// A prebuild command runs `Scripts/build-stamp.sh`, which writes `BuildStamp.swift` (the commit,
/// and whether the files the binary is built from differ from it) into the plugin's work directory;
/// the file is rewritten only when its contents change, so an unchanged checkout rebuilds nothing.
/// From a source tree that is not a git checkout of this package (a tarball), the commit is
/// `unknown`.
@main
struct HarnessBuildStamp: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "Stamp")
        let package = context.package.directoryURL
        return [
            .prebuildCommand(
                displayName: "Recording the commit of the harness build",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: [package.appending(path: "Scripts/build-stamp.sh").path, package.path, output.path],
                outputFilesDirectory: output)
        ]
    }
}
