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
        // For adapters written in Swift (`passkey-conformance init-adapter swift`): the protocol's
        // messages and the adapter side of JSON-RPC, nothing else.
        .library(name: "PasskeyConformanceAdapter", targets: ["PasskeyConformanceAdapter"]),
    ],
    // The module graph is drawn in Documentation/architecture.md; ArchitectureTests checks that this
    // manifest and every module's imports agree with it.
    targets: [
        // Gherkin: scanner, parser, AST, pickle compiler (no dependencies).
        .target(
            name: "Gherkin",
            // The keyword table's licence notice travels with the table, inside the resource bundle.
            resources: [.copy("Resources/gherkin-languages.json"), .copy("Resources/gherkin-languages.LICENSE")]
        ),
        // Base64url without padding (RFC 4648 section 5): the protocol's and WebAuthn's byte strings.
        .target(name: "Base64URLCoding"),
        // SplitMix64, the seeded generator behind every reproducible random choice (no dependencies).
        .target(name: "SeededRandom"),
        // The system's libcrypto (OpenSSL) on Linux; CryptoKit is used on Apple platforms.
        .systemLibrary(
            name: "CLibCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // SHA-256, secure random bytes, P-256 keys and the detached signatures of evidence bundles.
        .target(
            name: "ConformanceCrypto",
            dependencies: [.target(name: "CLibCrypto", condition: .when(platforms: [.linux]))]
        ),
        // WebAuthn bytes: CBOR, COSE keys, authenticator data, client data, a virtual authenticator.
        .target(name: "WebAuthn", dependencies: ["Base64URLCoding", "ConformanceCrypto"]),
        // The adapter protocol's messages, the targets an adapter declares, strict JSON.
        .target(name: "PasskeyConformanceProtocol", dependencies: ["Base64URLCoding"]),
        // The JSON-RPC 2.0 wire both ends share and the adapter side of the protocol over stdio: what
        // an adapter written in Swift depends on, alone.
        .target(name: "PasskeyConformanceAdapter", dependencies: ["PasskeyConformanceProtocol"]),
        // The model every stage shares: the protocol (re-exported), criteria, verdicts, results,
        // diagnostics.
        .target(name: "ConformanceModel", dependencies: ["PasskeyConformanceProtocol", "SeededRandom"]),
        // The simulated platforms: Apple's and Android's credential managers, the provider, the
        // virtual authenticator's use, the virtual clock, and the host the relying party calls.
        .target(name: "ConformanceSimulation", dependencies: ["ConformanceModel", "WebAuthn"]),
        // Criterion files into criteria (through the Gherkin parser), and criteria into test plans;
        // steps are checked through the StepMatcher protocol, not the step library itself.
        .target(name: "ConformanceCriteria", dependencies: ["ConformanceModel", "Gherkin", "ConformanceCrypto"]),
        // The harness's version and the commit it is built from, stamped before every build by the
        // HarnessBuildStamp plugin (Scripts/build-stamp.sh; `unknown` outside a git checkout).
        .plugin(name: "HarnessBuildStamp", capability: .buildTool()),
        .target(name: "HarnessBuild", plugins: ["HarnessBuildStamp"]),
        // Steps, runner and the invariants' monitors: test plans run against a relying party.
        .target(
            name: "ConformanceKit",
            dependencies: ["ConformanceModel", "ConformanceCriteria", "ConformanceSimulation", "Gherkin", "WebAuthn", "HarnessBuild"]),
        // explore: random histories against the invariants, shrunk to a scenario; above the kit, which
        // runs the invariants' monitors in every test case.
        .target(name: "ConformanceExplore", dependencies: ["ConformanceKit"]),
        // The conforming reference relying party, its design variants and its mutants.
        .target(name: "ReferenceRP", dependencies: ["ConformanceModel", "ConformanceSimulation", "WebAuthn"]),
        // A real platform: Chromium over its DevTools pipe (WebAuthn, the signal methods, a virtual
        // authenticator), the web family's backend behind the platform seam.
        .target(name: "ConformanceBrowser", dependencies: ["ConformanceModel", "ConformanceSimulation", "WebAuthn"]),
        // The self-test: the reference RP's designs and mutants run through the kit.
        .target(name: "ConformanceSelfTest", dependencies: ["ReferenceRP", "ConformanceKit"]),
        // The report formats' renderers (JSON, Markdown, JUnit, HTML) and the model they render: they
        // only render. Digests of reports through ConformanceCrypto.
        .target(name: "ConformanceReports", dependencies: ["ConformanceModel", "ConformanceCrypto"]),
        // Report files: the atomic report directory, the writer, reading a report back, its audit,
        // and evidence bundles (SHA-256 manifests, detached signatures through ConformanceCrypto).
        .target(name: "ConformanceEvidence", dependencies: ["ConformanceReports", "ConformanceModel", "ConformanceCrypto"]),
        // prctl(2) and pidfd_open(2), which Swift cannot call (variadic C): no process outlives a run.
        .target(name: "CProcessControl"),
        // The harness side of the adapter protocol over JSON-RPC: child processes, sessions, faults.
        .target(name: "ConformanceJSONRPC", dependencies: ["ConformanceModel", "PasskeyConformanceAdapter", "CProcessControl"]),
        // Command-line logic; the executables are thin wrappers.
        // The criteria ship inside it as a resource bundle (Resources/Criteria: a copy of the package's
        // Criteria/, kept identical by Scripts/sync-criteria.sh and checked by a test), so that a
        // release binary copied with its bundles runs from any directory.
        .target(
            name: "PasskeyConformanceCLI",
            dependencies: [
                "ConformanceKit", "ConformanceExplore", "ReferenceRP", "ConformanceSelfTest", "ConformanceReports", "ConformanceEvidence", "ConformanceJSONRPC",
                "ConformanceBrowser",
                "Gherkin",
                "WebAuthn", "HarnessBuild", "PasskeyConformanceAdapter",
            ],
            resources: [.copy("Resources/Criteria"), .copy("Resources/Skeletons")]
        ),
        .executableTarget(name: "passkey-conformance", dependencies: ["PasskeyConformanceCLI"]),
        .executableTarget(name: "reference-rp-adapter", dependencies: ["ReferenceRP", "PasskeyConformanceAdapter", "ConformanceModel"]),
        .executableTarget(name: "conformance-bench", dependencies: ["ConformanceKit", "ReferenceRP", "ConformanceJSONRPC", "PasskeyConformanceAdapter"]),
        .executableTarget(name: "gherkin-bench", dependencies: ["Gherkin"]),
        .executableTarget(name: "browser-bench", dependencies: ["ConformanceBrowser", "ConformanceModel"]),
        // Helpers shared by the test targets (not products): a leaf for the tests of the leaf modules,
        // and the kit's fakes and fixtures for the others.
        .target(name: "TestSupportCore", dependencies: ["SeededRandom"]),
        .target(name: "ConformanceTestSupport", dependencies: ["TestSupportCore", "ConformanceKit", "Gherkin"]),

        .testTarget(name: "GherkinTests", dependencies: ["Gherkin", "TestSupportCore"]),
        .testTarget(name: "WebAuthnTests", dependencies: ["WebAuthn", "TestSupportCore"], exclude: ["Python"]),
        // Each module's tests depend on the module and on the leaf helpers; only the tests of the kit and
        // above use the kit's fakes (ConformanceTestSupport).
        .testTarget(name: "ConformanceModelTests", dependencies: ["ConformanceModel", "TestSupportCore"]),
        .testTarget(name: "ConformanceCriteriaTests", dependencies: ["ConformanceCriteria", "ConformanceModel", "TestSupportCore"], exclude: ["Fixtures"]),
        .testTarget(name: "ConformanceSimulationTests", dependencies: ["ConformanceSimulation", "ConformanceModel", "WebAuthn", "TestSupportCore"]),
        .testTarget(
            name: "ConformanceBrowserTests", dependencies: ["ConformanceBrowser", "ConformanceModel", "ConformanceSimulation", "WebAuthn", "TestSupportCore"]),
        .testTarget(name: "ConformanceKitTests", dependencies: ["ConformanceKit", "ConformanceTestSupport", "WebAuthn"]),
        .testTarget(name: "ConformanceExploreTests", dependencies: ["ConformanceExplore", "ConformanceKit", "ConformanceTestSupport"]),
        .testTarget(name: "ReferenceRPTests", dependencies: ["ReferenceRP", "ConformanceKit", "ConformanceExplore", "ConformanceTestSupport"]),
        .testTarget(
            name: "ConformanceSelfTestTests",
            dependencies: ["ConformanceSelfTest", "ReferenceRP", "ConformanceKit", "ConformanceExplore", "ConformanceTestSupport"]),
        .testTarget(
            name: "ConformanceReportsTests", dependencies: ["ConformanceReports", "ConformanceKit", "ConformanceTestSupport", "WebAuthn"],
            exclude: ["Python", "Golden"]),
        .testTarget(
            name: "ConformanceEvidenceTests",
            dependencies: ["ConformanceEvidence", "ConformanceReports", "ConformanceKit", "ConformanceTestSupport", "WebAuthn"]),
        .testTarget(
            name: "ConformanceJSONRPCTests",
            dependencies: ["ConformanceJSONRPC", "PasskeyConformanceAdapter", "ConformanceKit", "ReferenceRP", "ConformanceTestSupport"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "PasskeyConformanceCLI", "ConformanceKit", "ConformanceReports", "ConformanceEvidence", "ReferenceRP", "ConformanceTestSupport", "WebAuthn",
                "PasskeyConformanceAdapter",
            ]),
        .testTarget(name: "SeededRandomTests", dependencies: ["SeededRandom"]),
        .testTarget(name: "PasskeyConformanceProtocolTests", dependencies: ["PasskeyConformanceProtocol"]),
        // The module graph of Documentation/architecture.md against Package.swift and every import.
        .testTarget(name: "ArchitectureTests", dependencies: ["TestSupportCore"]),
    ],
    swiftLanguageModes: [.v6]
)
