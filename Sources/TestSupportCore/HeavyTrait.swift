import Testing

/// Runs a test (or every test of a suite) on `DedicatedExecutor.heavy`, off the cooperative pool.
///
/// Tests that keep a CPU busy for seconds without suspending (fuzzing, whole suites in-process)
/// would otherwise hold one of the pool's few threads (two on a 2-core machine) the whole time; two
/// of them at once leave no thread for the tests that wait on I/O with time-outs (JSON-RPC
/// adapters, child processes). Under this trait they queue on one thread of their own instead.
package struct HeavyTrait: TestTrait, SuiteTrait, TestScoping {
    /// Applies to every test of a suite it is attached to.
    package var isRecursive: Bool { true }

    /// Scopes each test case, never the suite as a whole (that would scope its tests twice).
    package func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    /// Runs `function` with the heavy executor as its task executor preference.
    package func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        try await withTaskExecutorPreference(DedicatedExecutor.heavy) { try await function() }
    }
}

extension Trait where Self == HeavyTrait {
    /// Runs the test on the heavy-test thread (see `HeavyTrait`).
    package static var heavy: Self { HeavyTrait() }
}
