import ConformanceModel
import ConformanceReports
// The only file of this module that talks to the operating system directly: reading a file,
// creating a file exclusively, writing, syncing and renaming it, with the system's own reason
// (`strerror`) for every failure.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Android)
    import Android
#elseif canImport(Darwin)
    import Darwin
#else
    #error("ConformanceReports needs a POSIX C library")
#endif

/// Thin, throwing wrappers over the POSIX calls the reports and waivers need.
enum Platform {
    /// A failed system call: what was attempted and the system's reason.
    struct Failure: Error, Sendable, Hashable {
        /// The `errno` value.
        var code: Int32
        /// The system's text for `code`, e.g. `Permission denied`.
        var reason: String

        init(code: Int32) {
            self.code = code
            self.reason = String(cString: strerror(code))
        }
    }

    /// What is at a path, if anything.
    enum FileKind: Sendable, Hashable {
        case missing, directory, other
    }

    /// The kind of file at `path`, following symbolic links.
    static func kind(of path: String) -> FileKind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        return (info.st_mode & S_IFMT) == S_IFDIR ? .directory : .other
    }

    /// Creates `path` and any missing parents (mode 0755), like `mkdir -p`.
    static func makeDirectories(_ path: String) throws(Failure) {
        switch kind(of: path) {
        case .directory: return
        case .other: throw Failure(code: ENOTDIR)
        case .missing: break
        }
        let parent = parentDirectory(of: path)
        if parent != path, !parent.isEmpty, kind(of: parent) == .missing {
            try makeDirectories(parent)
        }
        if mkdir(path, 0o755) != 0 {
            let code = errno
            if code == EEXIST, kind(of: path) == .directory { return }
            throw Failure(code: code)
        }
    }

    /// The directory part of a path (`"."` for a bare name).
    static func parentDirectory(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        let parent = trimmed[..<slash]
        return parent.isEmpty ? "/" : String(parent)
    }

    /// The whole content of a regular file.
    static func readFile(_ path: String) throws(Failure) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(code: errno) }
        defer { _ = close(descriptor) }
        var info = stat()
        if fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { throw Failure(code: EISDIR) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(code: errno)
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: buffer[..<count])
        }
    }

    /// Creates `path`, which must not exist yet, writes `bytes` to it and syncs it to disk.
    ///
    /// On failure the partly written file is removed.
    static func createFile(_ path: String, contents bytes: [UInt8]) throws(Failure) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure(code: errno) }
        if let failure = writeSyncAndClose(descriptor, bytes) {
            _ = unlink(path)
            throw failure
        }
    }

    /// Writes all of `bytes` to `descriptor` (retrying on `EINTR`), syncs it to disk and closes it:
    /// the first failure, or `nil`. The descriptor is closed either way.
    static func writeSyncAndClose(_ descriptor: Int32, _ bytes: [UInt8]) -> Failure? {
        var failure: Failure?
        var offset = 0
        while offset < bytes.count, failure == nil {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if count < 0 {
                if errno != EINTR { failure = Failure(code: errno) }
            } else {
                offset += count
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = Failure(code: errno) }
        if close(descriptor) != 0, failure == nil { failure = Failure(code: errno) }
        return failure
    }

    /// Atomically replaces `destination` with `source` (both in the same directory).
    static func rename(_ source: String, to destination: String) throws(Failure) {
        #if canImport(Darwin)
            let result = Darwin.rename(source, destination)
        #elseif canImport(Glibc)
            let result = Glibc.rename(source, destination)
        #elseif canImport(Musl)
            let result = Musl.rename(source, destination)
        #else
            let result = Android.rename(source, destination)
        #endif
        if result != 0 { throw Failure(code: errno) }
    }

    /// Makes `link` a second name of the regular file `path` (a hard link), so that the current
    /// content survives a rename over `path`; `false` when the system refuses.
    static func hardLink(_ path: String, as link: String) -> Bool {
        #if canImport(Darwin)
            Darwin.link(path, link) == 0
        #elseif canImport(Glibc)
            Glibc.link(path, link) == 0
        #elseif canImport(Musl)
            Musl.link(path, link) == 0
        #else
            Android.link(path, link) == 0
        #endif
    }

    /// Removes a file, ignoring failure (used to clean up temporary files).
    static func removeFile(_ path: String) {
        _ = unlink(path)
    }

    /// Flushes a directory's entries (the renames into it) to disk; best effort.
    static func syncDirectory(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        _ = close(descriptor)
    }

    /// The process id, to make temporary names unique between processes.
    static var processID: Int32 { getpid() }
}
