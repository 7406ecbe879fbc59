/// The rest of a scenario's life after a negative check of N2.6-AC06: a stale response may be held
/// and sent later, at the next event that gives the app a chance (a sign-in, a relaunch, a refresh
/// point), so "no stale response changed any list" is checked again after each such event.
extension World {
    /// One event of the continuation and what every account's server credentials were after it.
    public struct ContinuationStep: Sendable {
        /// What the harness did, in words.
        public var event: String
        /// Every account's server credentials once the app had nothing left scheduled, by alias.
        public var credentials: [String: [CredentialSnapshot]]
    }

    /// Continues the scenario with the events that could release a held registration response:
    /// a refresh point where the adapter has one, a sign-out and a hand-typed sign-in of every
    /// account in turn (each with a refresh point after it), a relaunch where the adapter has one,
    /// and a final sign-out; after each, the app settles and every account's credentials are read.
    ///
    /// Registration responses the platform still holds stay held, so a request these sign-ins make
    /// adds nothing: a list that changes can only change through an earlier response.
    func continueThroughReleasingEvents() async throws -> [ContinuationStep] {
        host.record(
            .step, "check.continuation",
            "the check continues through the events that could release a held response: a relaunch, a refresh point, a sign-in of every account")
        var steps: [ContinuationStep] = []
        func note(_ event: String) async throws {
            try await quiesce()
            steps.append(ContinuationStep(event: event, credentials: try await allCredentials()))
        }
        let refresh = adapter.capabilities.contains(.refreshPoint)
        if refresh {
            try await perform(.refresh)
            try await note("a refresh point")
        }
        for alias in accounts.keys.sorted() {
            let account = try account(alias)
            try await perform(.signOut)
            try await typePassword(UserAction.passwordSignIn(username:password:), of: account)
            try await note("a sign-in of \(account.username)")
            if refresh {
                try await perform(.refresh)
                try await note("a refresh point while \(account.username) is signed in")
            }
        }
        // The relaunch comes last: what an app keeps only in memory is gone after it, so the
        // sign-ins come first to give such a response its chance.
        if adapter.capabilities.contains(.relaunch) {
            try await perform(.relaunch)
            try await note("a relaunch")
        }
        try await perform(.signOut)
        try await note("a sign-out")
        return steps
    }
}
