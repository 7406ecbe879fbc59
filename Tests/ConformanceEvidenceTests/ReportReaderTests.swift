import ConformanceEvidence
import ConformanceKit
import ConformanceReports
import ConformanceTestSupport
import Foundation
import Testing

/// A report read back is the run it was written from, as far as the report keeps it.
@Suite("Report reader")
struct ReportReaderTests {
    @Test("the adapter's declarations and its socket address are read back as written")
    func adapterMembers() throws {
        var run = ReportFixtures.run
        run.metadata.adapter.declarations = ["passkey-second-factor"]
        run.metadata.runSubject = .adapterConnection("unix:/run/rp.sock")
        let read = try ReportReader.run(from: Data(try JSONReporter.render(run, waivers: ReportFixtures.waivers)))
        #expect(read.metadata.adapter.declarations == ["passkey-second-factor"])
        #expect(read.metadata.runSubject == .adapterConnection("unix:/run/rp.sock"))
        #expect(read.testCases.map(\.id) == run.testCases.map(\.id))
    }
}
