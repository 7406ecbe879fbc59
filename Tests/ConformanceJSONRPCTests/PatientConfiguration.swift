import ConformanceJSONRPC
import ConformanceTestSupport

extension JSONRPCAdapter.Configuration {
    /// For tests that do not test a time-out: launch, call and test-case time-outs that only a hang
    /// reaches, so that an adapter slowed by a busy machine is never taken for a fault. Tests of a
    /// time-out set their own.
    static func patient(terminationGrace: Duration = .milliseconds(500)) -> Self {
        .init(callTimeout: Waiting.hangGuard, testCaseTimeout: Waiting.hangGuard, launchTimeout: Waiting.hangGuard, terminationGrace: terminationGrace)
    }
}
