/// How this harness binary was built: its version, and the commit of the sources it was compiled
/// from, recorded at build time by the `HarnessBuildStamp` plugin (`Scripts/build-stamp.sh`).
///
/// The commit describes the binary, not the directory it runs in: it is fixed when the binary is
/// compiled and never read from git at run time.
public enum HarnessBuild {
    /// The harness version reports name (semantic versioning).
    public static let version = "0.1.0"

    /// The git commit (40 hex digits) the binary was built from, or `unknown` when it was built
    /// from a source tree that is not a git checkout of the package (a tarball).
    public static var commit: String { BuildStamp.commit }

    /// Whether the files the binary is built from (`Sources`, `Plugins`, `Package.swift`) differed
    /// from `commit` when it was built; `nil` when the commit is unknown.
    public static var modified: Bool? { BuildStamp.modified }
}
