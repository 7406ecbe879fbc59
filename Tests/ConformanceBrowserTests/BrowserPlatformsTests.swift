import ConformanceBrowser
import ConformanceModel
import ConformanceSimulation
import Testing

/// The web family's factory, without starting a browser.
@Suite("The web family's platform factory")
struct BrowserPlatformsTests {
    @Test("it serves the web targets only; without Chromium it says why, naming where it looked")
    func servesWebTargets() {
        let none = BrowserPlatforms(executable: nil)
        #expect(TargetCatalog.web.allSatisfy(none.serves) && !TargetCatalog.all.contains(where: none.serves))
        let reason = none.unavailability(of: TargetCatalog.web[0]) ?? ""
        #expect(reason.contains("no Chromium") && reason.contains("PASSKEY_CONFORMANCE_CHROMIUM"), "\(reason)")
        #expect(BrowserPlatforms(executable: "/usr/bin/chromium").unavailability(of: TargetCatalog.web[0]) == nil)
    }
}
