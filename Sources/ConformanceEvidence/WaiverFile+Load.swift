import ConformanceModel

extension WaiverFile {
    /// Reads and validates the waiver file at `path`.
    ///
    /// - Throws: `LoadError` naming the file and, for each defect, the entry, the member and what is
    ///   wrong; an unreadable file is a `LoadError` too, with the system's reason.
    package static func load(_ path: String) throws(LoadError) -> WaiverFile {
        let bytes: [UInt8]
        do {
            bytes = try Platform.readFile(path)
        } catch {
            throw LoadError(path: path, problems: [.init(entry: nil, field: nil, message: "cannot read the waiver file: \(error.reason)")])
        }
        return try parse(bytes, path: path)
    }
}
