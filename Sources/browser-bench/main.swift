// Benchmark of the real browser the web family runs on (run in release: `swift run -c release
// browser-bench [iterations]`). Prints figures side by side in one run; asserts nothing.
//
// One iteration is the browser work of one web test case: a page of the relying party at its real
// origin with the instrumentation and a virtual authenticator, and a registration the page asks
// for. Measured two ways: a fresh browser context and page per iteration, and one page reused
// (its passkeys cleared and the page loaded again).
import ConformanceBrowser
import ConformanceModel
import Foundation

let iterations = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 20
guard let executable = DevToolsPipe.findBrowser() else {
    print("browser-bench: no Chromium found (apt-get install chromium, or PASSKEY_CONFORMANCE_CHROMIUM=<path>)")
    exit(2)
}
let origin = "https://login.example.com"
let html = """
    <!doctype html><title>relying party</title>
    <script>
    globalThis.register = async () => (await navigator.credentials.create({ publicKey: {
      challenge: new Uint8Array(16).fill(3), rp: { id: "login.example.com", name: "Example" },
      user: { id: new Uint8Array([1, 2, 3, 4]), name: "alice@example.com", displayName: "Alice" },
      pubKeyCredParams: [{ type: "public-key", alg: -7 }] } })).id;
    </script>
    """
let route = BrowserPage.Route(origin: origin) { _, _, _ in BrowserPage.Response(contentType: "text/html", body: Data(html.utf8)) }

/// Seconds of wall time `body` takes.
func seconds(_ body: () async throws -> Void) async rethrows -> Double {
    let start = ContinuousClock.now
    try await body()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

/// One test case's browser work on `page`: load, register, check the page got an id.
func testCase(_ page: BrowserPage) async throws {
    try await page.navigate(origin + "/")
    guard try await page.evaluate("register()").stringValue != nil else { throw DevToolsPipe.Failure(description: "no credential id") }
}

do {
    var browser: Browser?
    let start = try await seconds {
        browser = try Browser.launch(executable: executable)
        _ = try await browser?.version()
    }
    guard let browser else { exit(2) }
    let version = try await browser.version()
    let fresh = try await seconds {
        for _ in 0..<iterations {
            let page = try await browser.openPage(routes: [route])
            _ = try await PageInstrumentation.install(on: page) { _ in .proceed }
            _ = try await page.addVirtualAuthenticator()
            try await testCase(page)
            await browser.close(page)
        }
    }
    let page = try await browser.openPage(routes: [route])
    _ = try await PageInstrumentation.install(on: page) { _ in .proceed }
    let authenticator = try await page.addVirtualAuthenticator()
    let reused = try await seconds {
        for _ in 0..<iterations {
            try await page.send("WebAuthn.clearCredentials", ["authenticatorId": .string(authenticator)])
            try await testCase(page)
        }
    }
    await browser.close(page)
    await browser.close()
    print("browser-bench: \(version), \(iterations) test cases each, \(ProcessInfo.processInfo.activeProcessorCount) cores")
    print(String(format: "browser start:            %.2f s", start))
    print(String(format: "fresh context per case:   %.3f s per case, %.2f cases/s", fresh / Double(iterations), Double(iterations) / fresh))
    print(String(format: "reused page per case:     %.3f s per case, %.2f cases/s", reused / Double(iterations), Double(iterations) / reused))
    print(String(format: "reused / fresh rate:      %.1fx", fresh / reused))
} catch {
    print("browser-bench: \(error)")
    exit(2)
}
