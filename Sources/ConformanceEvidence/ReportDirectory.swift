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

/// A report directory, checked and with its parent held open from the start of a run to the moment
/// its new report set takes its place (see `ReportWriter`).
package final class ReportDirectory: Sendable {
    /// The path as given.
    package let path: String
    /// The report directory's own name within its parent.
    let name: String
    /// The parent, opened once.
    private let parent: Int32
    /// The names a report directory may hold: the reports and `explore`'s regression scenarios.
    static let ownNames: Set<String> = Set(ReportFormat.allCases.flatMap(\.fileNames) + ["criteria"])
    /// The names this directory may hold (an evidence bundle holds more than a report directory).
    let own: Set<String>

    /// Creates the parent if needed, opens it, refuses a report directory that is a symbolic link,
    /// not a directory, or holds anything but reports, and removes what a crashed run left beside it.
    package convenience init(_ path: String) throws(ReportWriter.WriteError) {
        try self.init(path, ownNames: Self.ownNames)
    }

    /// A directory replaced as a whole that may hold only entries named in `ownNames` (and the
    /// temporary files of earlier versions of the harness).
    init(_ path: String, ownNames: Set<String>) throws(ReportWriter.WriteError) {
        self.path = path
        own = ownNames
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        let name = trimmed.split(separator: "/").last.map(String.init) ?? ""
        func refuse(_ reason: String) -> ReportWriter.WriteError { .init(path: path, operation: .createDirectory, reason: reason) }
        guard !name.isEmpty, name != ".", name != ".." else {
            throw refuse("name a directory of its own (the report directory is replaced as a whole)")
        }
        self.name = name
        let parentPath = Platform.parentDirectory(of: String(trimmed))
        do {
            try Platform.makeDirectories(parentPath)
            parent = try Platform.openDirectory(parentPath)
        } catch {
            throw refuse(error.reason)
        }
        switch Platform.entryKind(name, in: parent) {
        case .missing, .directory: break
        case .symbolicLink:
            throw refuse("is a symbolic link; reports are never written through one: give the directory it points to")
        case .other:
            throw refuse("exists and is not a directory")
        }
        cleanLeftovers()
        if Platform.entryKind(name, in: parent) == .directory {
            let existing: Int32
            do {
                existing = try Platform.openDirectory(name, in: parent, noFollow: true)
            } catch {
                throw refuse(error.reason)
            }
            let foreign = Platform.entries(of: existing).filter { !isOwn($0) }.sorted()
            Platform.closeDescriptor(existing)
            if !foreign.isEmpty {
                throw refuse(
                    "holds \(foreign.prefix(3).joined(separator: ", "))\(foreign.count > 3 ? " and \(foreign.count - 3) more" : ""), "
                        + "which are not reports; the report directory is replaced as a whole, so give one of its own")
            }
        }
        // The parent must take a new entry: find out now, not after the run.
        let probe = Self.siblingName(of: name, role: "staged")
        do {
            try Platform.makeDirectory(probe, in: parent)
            Platform.removeTree(probe, in: parent)
        } catch {
            throw refuse(error.reason)
        }
    }

    // Also runs when the initialiser throws after `parent` was opened.
    deinit { Platform.closeDescriptor(parent) }

    /// A report, or a temporary file an earlier version of the harness left in a report directory.
    func isOwn(_ entry: String) -> Bool {
        own.contains(entry) || (entry.hasPrefix(".report.") && (entry.hasSuffix(".tmp") || entry.hasSuffix(".tmp.previous")))
    }

    /// `.<name>.<role>.<pid>.<random>`: a sibling this process owns.
    static func siblingName(of name: String, role: String) -> String {
        ".\(name).\(role).\(Platform.processID).\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"
    }

    /// The process id in a sibling's name, when `entry` is a `role` sibling of this directory.
    private func owner(of entry: String, role: String) -> Int32? {
        let prefix = ".\(name).\(role)."
        guard entry.hasPrefix(prefix) else { return nil }
        return entry.dropFirst(prefix.count).split(separator: ".").first.flatMap { Int32($0) }
    }

    /// Puts back an old set that a crashed run renamed aside without replacing it, and removes the
    /// staging and old directories of runs that are no longer running.
    private func cleanLeftovers() {
        let siblings = Platform.entries(of: parent)
        let dead = { (pid: Int32) in pid != Platform.processID && !Platform.processExists(pid) }
        if Platform.entryKind(name, in: parent) == .missing,
            let previous = siblings.first(where: { owner(of: $0, role: "previous").map(dead) ?? false })
        {
            try? Platform.rename(previous, to: name, in: parent)
        }
        for entry in Platform.entries(of: parent) {
            if let pid = owner(of: entry, role: "staged") ?? owner(of: entry, role: "previous"), dead(pid) {
                Platform.removeTree(entry, in: parent)
            }
        }
    }

    /// Writes `files` (relative paths, `/`-separated) as the new set and puts it in the
    /// report directory's place; returns the paths of the files, as `path/<file>`.
    func commit(_ files: [(path: String, bytes: [UInt8])]) throws(ReportWriter.WriteError) -> [String] {
        let staged = Self.siblingName(of: name, role: "staged")
        do {
            try Platform.makeDirectory(staged, in: parent)
        } catch {
            throw ReportWriter.WriteError(path: path, operation: .createDirectory, reason: error.reason)
        }
        var keep = false
        defer { if !keep { Platform.removeTree(staged, in: parent) } }
        do {
            let directory = try Platform.openDirectory(staged, in: parent, noFollow: true)
            defer { Platform.closeDescriptor(directory) }
            // Each folder by its path within the set, opened once, relative to the folder above it.
            var folders: [String: Int32] = [:]
            defer { for descriptor in folders.values { Platform.closeDescriptor(descriptor) } }
            for file in files {
                let parts = file.path.split(separator: "/").map(String.init)
                var target = directory
                var folderPath = ""
                for part in parts.dropLast() {
                    folderPath += (folderPath.isEmpty ? "" : "/") + part
                    if let open = folders[folderPath] {
                        target = open
                    } else {
                        try Platform.makeDirectory(part, in: target)
                        let opened = try Platform.openDirectory(part, in: target, noFollow: true)
                        folders[folderPath] = opened
                        target = opened
                    }
                }
                do {
                    try Platform.createFile(parts.last ?? file.path, in: target, contents: file.bytes)
                } catch {
                    throw ReportWriter.WriteError(path: ReportWriter.join(path, file.path), operation: .writeFile, reason: error.reason)
                }
            }
            for descriptor in folders.values { Platform.syncDescriptor(descriptor) }
            Platform.syncDescriptor(directory)
        } catch let error as ReportWriter.WriteError {
            throw error
        } catch {
            throw ReportWriter.WriteError(path: path, operation: .writeFile, reason: "\(error)")
        }
        do {
            try replace(with: staged)
        } catch {
            throw ReportWriter.WriteError(path: path, operation: .rename, reason: error.reason)
        }
        keep = true
        Platform.syncDescriptor(parent)
        return files.map { ReportWriter.join(path, $0.path) }
    }

    /// Puts the directory `staged` in the report directory's place, and removes the old set.
    private func replace(with staged: String) throws(Platform.Failure) {
        if Platform.entryKind(name, in: parent) == .missing {
            do {
                try Platform.rename(staged, to: name, in: parent)
                return
            } catch  where error.code == EEXIST || error.code == ENOTEMPTY {
                // Created meanwhile: replace it below.
            }
        }
        if try Platform.exchange(staged, name, in: parent) {
            // `staged` now names the old set (or whatever had taken the name): never followed.
            Platform.removeTree(staged, in: parent)
            return
        }
        let previous = Self.siblingName(of: name, role: "previous")
        try Platform.rename(name, to: previous, in: parent)
        do {
            try Platform.rename(staged, to: name, in: parent)
        } catch {
            try? Platform.rename(previous, to: name, in: parent)
            throw error
        }
        Platform.removeTree(previous, in: parent)
    }
}
