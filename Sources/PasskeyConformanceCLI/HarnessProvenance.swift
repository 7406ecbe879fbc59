import ConformanceKit
import ConformanceEvidence
import ConformanceReports
import Foundation
import HarnessBuild

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a report records about the harness that ran: the commit it was built from (stamped at build
/// time), the SHA-256 of the running executable and the host.
enum HarnessProvenance {
    /// Fills in the harness commit, the binary's digest and the host; leaves them `nil` when
    /// `recorded` is false (`--no-build-info`: reports that are equal across builds and machines).
    static func stamp(_ metadata: inout RunMetadata, recorded: Bool) {
        guard recorded else { return }
        metadata.harnessCommit = HarnessBuild.commit
        metadata.harnessModified = HarnessBuild.modified
        metadata.harnessBinarySHA256 = binarySHA256
        metadata.host = host
    }

    /// The SHA-256 of the running executable (computed once per process), `nil` when it cannot be
    /// read.
    static let binarySHA256: String? = {
        guard let path = executablePath, let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) else { return nil }
        return ReportDigest.sha256Hex(data)
    }()

    /// The running executable: `/proc/self/exe` on Linux (the file itself, whatever the command
    /// line said), the main bundle's executable elsewhere.
    static var executablePath: String? {
        #if os(Linux)
            if FileManager.default.isReadableFile(atPath: "/proc/self/exe") { return "/proc/self/exe" }
        #endif
        return Bundle.main.executablePath ?? CommandLine.arguments.first
    }

    /// `Linux 6.12.48 x86_64, Debian GNU/Linux 13 (trixie)`: the kernel's name, release and machine
    /// (`uname`) and, where there is one, the distribution's `PRETTY_NAME` (`/etc/os-release`).
    static let host: String = {
        var name = utsname()
        uname(&name)
        func field<T>(_ value: T) -> String {
            withUnsafeBytes(of: value) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        var text = [field(name.sysname), field(name.release), field(name.machine)].filter { !$0.isEmpty }.joined(separator: " ")
        if let release = try? String(contentsOfFile: "/etc/os-release", encoding: .utf8),
            let line = release.split(separator: "\n").first(where: { $0.hasPrefix("PRETTY_NAME=") })
        {
            let value = line.dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            if !value.isEmpty { text += ", " + value }
        }
        return text
    }()
}
