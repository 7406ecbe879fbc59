// Directory operations relative to an open directory, never following a symbolic link: what the
// report directory's atomic replacement needs.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Android)
    import Android
#elseif canImport(Darwin)
    import Darwin
#endif
import ConformanceModel
import ConformanceReports

extension Platform {
    /// What a directory entry is, without following it when it is a symbolic link.
    enum EntryKind: Sendable, Hashable {
        case missing, directory, symbolicLink, other
    }

    /// Opens a directory for the `…at` calls below; `noFollow` refuses a symbolic link.
    static func openDirectory(_ path: String, in parent: Int32 = AT_FDCWD, noFollow: Bool = false) throws(Failure) -> Int32 {
        let descriptor = openat(parent, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | (noFollow ? O_NOFOLLOW : 0))
        guard descriptor >= 0 else { throw Failure(code: errno) }
        return descriptor
    }

    static func closeDescriptor(_ descriptor: Int32) { _ = close(descriptor) }

    /// The kind of the entry `name` of the directory `parent`, not following a link.
    static func entryKind(_ name: String, in parent: Int32) -> EntryKind {
        var info = stat()
        guard fstatat(parent, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return .directory
        case S_IFLNK: return .symbolicLink
        default: return .other
        }
    }

    /// The names in a directory, `.` and `..` left out.
    static func entries(of directory: Int32) -> [String] {
        let copy = dup(directory)
        guard copy >= 0, let stream = fdopendir(copy) else { return [] }
        defer { closedir(stream) }
        // The copy shares the read position of `directory`: start from the first entry.
        rewinddir(stream)
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    static func makeDirectory(_ name: String, in parent: Int32) throws(Failure) {
        guard mkdirat(parent, name, 0o755) == 0 else { throw Failure(code: errno) }
    }

    /// Creates the file `name` in `directory` (it must not exist, and is never a link), writes and syncs it.
    static func createFile(_ name: String, in directory: Int32, contents bytes: [UInt8]) throws(Failure) {
        let descriptor = openat(directory, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure(code: errno) }
        if let failure = writeSyncAndClose(descriptor, bytes) { throw failure }
    }

    static func syncDescriptor(_ descriptor: Int32) { _ = fsync(descriptor) }

    /// Renames an entry within `parent`, replacing `destination` if it is a file or an empty directory.
    static func rename(_ source: String, to destination: String, in parent: Int32) throws(Failure) {
        guard renameat(parent, source, parent, destination) == 0 else { throw Failure(code: errno) }
    }

    /// Swaps two entries of `parent` in one step (Linux `renameat2(RENAME_EXCHANGE)`, macOS
    /// `renameatx_np(RENAME_SWAP)`); `false` when the system or the file system cannot.
    static func exchange(_ first: String, _ second: String, in parent: Int32) throws(Failure) -> Bool {
        #if canImport(Darwin)
            if renameatx_np(parent, first, parent, second, UInt32(RENAME_SWAP)) == 0 { return true }
        #else
            guard let renameat2 = Self.renameat2 else { return false }
            if renameat2(parent, first, parent, second, 2) == 0 { return true }  // 2: RENAME_EXCHANGE
        #endif
        let code = errno
        if code == EINVAL || code == ENOSYS || code == ENOTSUP || code == EOPNOTSUPP { return false }
        throw Failure(code: code)
    }

    #if !canImport(Darwin)
        typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?, UInt32) -> Int32
        /// `renameat2` from the C library (glibc 2.28 and later), looked up at run time: the Swift
        /// module of the C library does not declare it.
        static let renameat2: RenameAt2? = {
            guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "renameat2") else { return nil }
            return unsafeBitCast(symbol, to: RenameAt2.self)
        }()
    #endif

    /// Removes the entry `name` of `parent` and, for a directory, everything in it; a symbolic
    /// link is removed itself, never followed. Best effort.
    static func removeTree(_ name: String, in parent: Int32) {
        switch entryKind(name, in: parent) {
        case .missing: return
        case .directory:
            if let child = try? openDirectory(name, in: parent, noFollow: true) {
                for entry in entries(of: child) { removeTree(entry, in: child) }
                closeDescriptor(child)
            }
            _ = unlinkat(parent, name, AT_REMOVEDIR)
        case .symbolicLink, .other:
            _ = unlinkat(parent, name, 0)
        }
    }

    /// Whether a process with this id exists (so its staging directory may still be in use).
    static func processExists(_ pid: Int32) -> Bool { kill(pid, 0) == 0 || errno == EPERM }
}
