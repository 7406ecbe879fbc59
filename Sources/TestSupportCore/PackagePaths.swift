import Foundation

/// Where things are in this source checkout, found from this file's own path so that tests work
/// from any working directory.
package enum PackagePaths {
    /// The package root (the directory holding `Package.swift`).
    package static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        // Sources/TestSupportCore/PackagePaths.swift → the package root.
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    /// The package's criterion files.
    package static var criteria: URL { root.appendingPathComponent("Criteria") }

    /// The directory of a test target's fixtures: `Tests/<target>/Fixtures`.
    package static func fixtures(_ testTarget: String) -> URL {
        root.appendingPathComponent("Tests").appendingPathComponent(testTarget).appendingPathComponent("Fixtures")
    }

    /// A fresh, empty temporary directory; the caller removes it.
    package static func temporaryDirectory(_ label: String = "test") throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("passkey-conformance-\(label)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
