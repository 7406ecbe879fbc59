// swift-tools-version:6.0
// passkey-conformance: a conformance harness for passkey relying parties.
import PackageDescription

let package = Package(
    name: "passkey-conformance",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "passkey-conformance", targets: ["passkey-conformance"]),
        .executable(name: "reference-rp-adapter", targets: ["reference-rp-adapter"]),
        .library(name: "Gherkin", targets: ["Gherkin"]),
        .library(name: "ConformanceKit", targets: ["ConformanceKit"]),
        // For adapters written in Swift (`passkey-conformance init-adapter swift`).
        .library(name: "ConformanceJSONRPC", targets: ["ConformanceJSONRPC"]),
    ],
    targets: [
        // Gherkin: scanner, parser, AST, pickle compiler (no dependencies).
        .target(
            name: "Gherkin",
            // The keyword table's licence notice travels with the table, inside the resource bundle.
            resources: [.copy("Resources/gherkin-languages.json"), .copy("Resources/gherkin-languages.LICENSE")]
        ),
        // The system's libcrypto (OpenSSL) on Linux; CryptoKit is used on Apple platforms.
        .systemLibrary(
            name: "CLibCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // WebAuthn bytes: CBOR, COSE keys, authenticator data, client data, a virtual authenticator.
        .target(
            name: "WebAuthn",
            dependencies: [.target(name: "CLibCrypto", condition: .when(platforms: [.linux]))]
        ),
        // The model every stage shares: adapter protocol messages, targets, criteria, verdicts,
        // results, diagnostics, JSON.
        .target(name: "ConformanceModel", dependencies: ["Gherkin", "WebAuthn"]),
        // The simulated platforms: Apple's and Android's credential managers, the provider, the
        // virtual authenticator's use, the virtual clock, and the host the relying party calls.
        .target(name: "ConformanceSimulation", dependencies: ["ConformanceModel", "WebAuthn"]),
        // Criterion files into criteria (through the Gherkin parser), and criteria into test plans;
        // steps are checked through the StepMatcher protocol, not the step library itself.
        .target(name: "ConformanceCriteria", dependencies: ["ConformanceModel", "Gherkin"]),
        // The harness's version and the commit it is built from, stamped before every build by the
        // HarnessBuildStamp plugin (Scripts/build-stamp.sh; `unknown` outside a git checkout).
        .plugin(name: "HarnessBuildStamp", capability: .buildTool()),
        .target(name: "HarnessBuild", plugins: ["HarnessBuildStamp"]),
        // Steps, runner, explore: test plans run against a relying party.
        .target(
            name: "ConformanceKit",
            dependencies: ["ConformanceModel", "ConformanceCriteria", "ConformanceSimulation", "Gherkin", "WebAuthn", "HarnessBuild"]),
        // The conforming reference relying party and its mutants.
        .target(name: "ReferenceRP", dependencies: ["ConformanceKit", "WebAuthn"]),
        // JSON, Markdown and JUnit reporters; waivers; evidence bundles (SHA-256 and signatures
        // through the WebAuthn module's libcrypto / CryptoKit wrappers).
        .target(name: "ConformanceReports", dependencies: ["ConformanceModel", "WebAuthn"]),
        // The adapter protocol as JSON-RPC 2.0 over stdio.
        .target(name: "ConformanceJSONRPC", dependencies: ["ConformanceModel"]),
        // Command-line logic; the executables are thin wrappers.
        // The criteria ship inside it as a resource bundle (Resources/Criteria: a copy of the package's
        // Criteria/, kept identical by Scripts/sync-criteria.sh and checked by a test), so that a
        // release binary copied with its bundles runs from any directory.
        .target(
            name: "PasskeyConformanceCLI",
            dependencies: ["ConformanceKit", "ReferenceRP", "ConformanceReports", "ConformanceJSONRPC", "Gherkin", "WebAuthn", "HarnessBuild"],
            resources: [.copy("Resources/Criteria")]
        ),
        .executableTarget(name: "passkey-conformance", dependencies: ["PasskeyConformanceCLI"]),
        .executableTarget(name: "reference-rp-adapter", dependencies: ["ReferenceRP", "ConformanceJSONRPC", "ConformanceKit"]),
        .executableTarget(name: "conformance-bench", dependencies: ["PasskeyConformanceCLI", "ConformanceJSONRPC"]),
        .executableTarget(name: "gherkin-bench", dependencies: ["Gherkin"]),
        // Helpers shared by the test targets (not a product).
        .target(name: "ConformanceTestSupport", dependencies: ["ConformanceKit", "Gherkin"]),

        .testTarget(name: "GherkinTests", dependencies: ["Gherkin", "ConformanceKit", "ConformanceTestSupport"]),
        .testTarget(name: "WebAuthnTests", dependencies: ["WebAuthn", "ConformanceKit", "ConformanceTestSupport"], exclude: ["Python"]),
        .testTarget(name: "ConformanceKitTests", dependencies: ["ConformanceKit", "ReferenceRP", "ConformanceTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "ReferenceRPTests", dependencies: ["ReferenceRP", "ConformanceKit", "ConformanceTestSupport"]),
        .testTarget(
            name: "ConformanceReportsTests", dependencies: ["ConformanceReports", "ConformanceKit", "ConformanceTestSupport", "WebAuthn"],
            exclude: ["Python", "Golden"]),
        .testTarget(
            name: "ConformanceJSONRPCTests", dependencies: ["ConformanceJSONRPC", "ConformanceKit", "ReferenceRP", "ConformanceTestSupport"],
            exclude: ["Fixtures"]),
        .testTarget(name: "EndToEndTests", dependencies: ["PasskeyConformanceCLI", "ConformanceTestSupport", "WebAuthn"]),
    ],
    swiftLanguageModes: [.v6]
)
