extension JSONRPCAdapter {
    /// Time-outs and limits of the harness's side of the protocol.
    ///
    /// The defaults suit an adapter on the same machine; raise `launchTimeout` for adapters with a
    /// slow start (a JVM, a large Node.js app).
    package struct Configuration: Sendable, Hashable {
        /// What the harness does with the adapter process's standard error.
        package enum StandardError: Sendable, Hashable {
            /// Keep the last 8 KiB and attach them to faults (the default).
            case capture
            /// Let it go to the harness's own standard error.
            case inherit
        }

        /// How long one call may wait for its answer before the adapter is presumed hung and stopped.
        package var callTimeout: Duration
        /// How long one test case (one session, from `session.open`) may take in all.
        package var testCaseTimeout: Duration
        /// How long the process has from its start to answer `adapter.hello`.
        package var launchTimeout: Duration
        /// How long a process gets to exit after `adapter.shutdown` or `SIGTERM`, before `SIGKILL`.
        package var terminationGrace: Duration
        /// The longest line (one message) the adapter may write, in bytes.
        package var maximumMessageBytes: Int
        /// The most adapter-initiated messages (calls and notifications) per second of wall time.
        package var maximumAdapterMessagesPerSecond: Int
        /// After this many launches in a row that fail before `adapter.hello` is answered, the harness
        /// stops launching and fails every further session at once with the last launch's fault.
        package var maximumConsecutiveLaunchFailures: Int
        /// What to do with the process's standard error.
        package var standardError: StandardError

        /// Creates a configuration; the defaults are those of `Documentation/adapter-protocol.md`.
        package init(
            callTimeout: Duration = .seconds(5), testCaseTimeout: Duration = .seconds(60), launchTimeout: Duration = .seconds(10),
            terminationGrace: Duration = .seconds(1), maximumMessageBytes: Int = 1 << 20,
            maximumAdapterMessagesPerSecond: Int = 10_000, maximumConsecutiveLaunchFailures: Int = 3,
            standardError: StandardError = .capture
        ) {
            self.callTimeout = callTimeout
            self.testCaseTimeout = testCaseTimeout
            self.launchTimeout = launchTimeout
            self.terminationGrace = terminationGrace
            self.maximumMessageBytes = maximumMessageBytes
            self.maximumAdapterMessagesPerSecond = maximumAdapterMessagesPerSecond
            self.maximumConsecutiveLaunchFailures = maximumConsecutiveLaunchFailures
            self.standardError = standardError
        }
    }
}

extension Duration {
    /// `5 s`, `250 ms`: for messages.
    var shortDescription: String {
        let millis = components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
        return millis % 1000 == 0 ? "\(millis / 1000) s" : "\(millis) ms"
    }
}
