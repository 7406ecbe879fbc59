import ConformanceModel
import ConformanceSimulation

extension ReferenceDesign {
    /// One choice the criteria documents leave to the relying party (a freedom of the criteria, named
    /// by its F-id), with the whole range a conforming RP may pick from.
    ///
    /// The fixed designs (`variants`) each pin one value; `selftest --designs random:N` draws every
    /// knob from its whole range at once, so a check that holds for one value only is found.
    package struct Knob: Sendable {
        /// The knob's name in a design specification (`knobs:name=value;…`).
        package let name: String
        /// The freedom it samples, for example `F-coalesce`.
        package let freedom: String
        /// The range, as `selftest --list-designs` prints it.
        package let range: String
        /// What the knob chooses, in one sentence.
        package let summary: String
        let draw: @Sendable (inout SplitMix64) -> String
        let set: @Sendable (inout ReferenceDesign, String) -> Bool
        let get: @Sendable (ReferenceDesign) -> String

        /// A knob over a whole number, drawn from `range` (a quarter of draws at each bound, so that
        /// the edges are sampled as often as the middle).
        static func integer(
            _ name: String, _ freedom: String, _ summary: String, _ range: ClosedRange<Int64>, unit: String = "",
            _ keyPath: WritableKeyPath<ReferenceDesign, Int64> & Sendable
        ) -> Knob {
            Knob(
                name: name, freedom: freedom, range: "\(range.lowerBound)…\(range.upperBound)\(unit)", summary: summary,
                draw: { String(drawInteger(range, &$0)) },
                set: { design, text in
                    guard let value = Int64(text), range.contains(value) else { return false }
                    design[keyPath: keyPath] = value
                    return true
                },
                get: { String($0[keyPath: keyPath]) })
        }

        /// A knob over an optional whole number: `none` (the reference's choice) or a value of `range`.
        static func optionalInteger(
            _ name: String, _ freedom: String, _ summary: String, _ range: ClosedRange<Int64>, unit: String = "",
            _ keyPath: WritableKeyPath<ReferenceDesign, Int64?> & Sendable
        ) -> Knob {
            Knob(
                name: name, freedom: freedom, range: "none, \(range.lowerBound)…\(range.upperBound)\(unit)", summary: summary,
                draw: { random in random.below(3) == 0 ? "none" : String(drawInteger(range, &random)) },
                set: { design, text in
                    if text == "none" {
                        design[keyPath: keyPath] = nil
                        return true
                    }
                    guard let value = Int64(text), range.contains(value) else { return false }
                    design[keyPath: keyPath] = value
                    return true
                },
                get: { $0[keyPath: keyPath].map(String.init) ?? "none" })
        }

        /// A knob over the cases of an enumeration.
        static func choice<Value: RawRepresentable & CaseIterable & Sendable>(
            _ name: String, _ freedom: String, _ summary: String, _ keyPath: WritableKeyPath<ReferenceDesign, Value> & Sendable
        ) -> Knob where Value.RawValue == String {
            let cases = Array(Value.allCases)
            return Knob(
                name: name, freedom: freedom, range: cases.map(\.rawValue).joined(separator: ", "), summary: summary,
                draw: { $0.pick(cases).rawValue },
                set: { design, text in
                    guard let value = Value(rawValue: text) else { return false }
                    design[keyPath: keyPath] = value
                    return true
                },
                get: { $0[keyPath: keyPath].rawValue })
        }

        /// A knob that is on or off.
        static func flag(_ name: String, _ freedom: String, _ summary: String, _ keyPath: WritableKeyPath<ReferenceDesign, Bool> & Sendable) -> Knob {
            Knob(
                name: name, freedom: freedom, range: "false, true", summary: summary, draw: { $0.below(2) == 0 ? "false" : "true" },
                set: { design, text in
                    guard let value = Bool(text) else { return false }
                    design[keyPath: keyPath] = value
                    return true
                },
                get: { String($0[keyPath: keyPath]) })
        }

        private static func drawInteger(_ range: ClosedRange<Int64>, _ random: inout SplitMix64) -> Int64 {
            switch random.below(4) {
            case 0: return range.lowerBound
            case 1: return range.upperBound
            default: return range.lowerBound + Int64(random.next() % UInt64(range.upperBound - range.lowerBound + 1))
            }
        }
    }

    /// Every knob, in the order a design specification lists them.
    package static let knobs: [Knob] = upgradeKnobs + signalKnobs + textKnobs + formatKnobs

    /// The knobs of how the app writes its requests to the platform.
    static let formatKnobs: [Knob] = [
        .choice("list-order", "F-format", "the order of every list of credential ids the app gives the platform", \.wireFormat.listOrder),
        .choice("json-format", "F-format", "how the app writes Android request JSON: member order, spacing, members the platform ignores", \.wireFormat.json),
        .flag("allow-list", "F-allow", "a passkey sign-in for a named account lists that account's passkeys in allowCredentials", \.allowList),
    ]

    /// How far the longest upgrade delay a design draws stays inside the credential manager's
    /// default autofill window: 1 minute. The window counts from the autofill, which a second factor
    /// typed afterwards may precede by some seconds; a delay at the very edge would leave the
    /// provider's decision to chance in such a scenario, while "promptly" itself allows the whole window.
    static let upgradeDelayMarginMillis: Int64 = 60_000

    /// The knobs of the automatic upgrade (N2.6).
    static let upgradeKnobs: [Knob] = [
        .optionalInteger(
            "upgrade-delay-ms", "F-prompt",
            "asks for the automatic upgrade this long after the qualifying sign-in (none: at once); within the credential manager's autofill window, the bound of \"promptly\"",
            0...(ProviderState.defaultAutofillWindowMillis - upgradeDelayMarginMillis), unit: " ms", \.upgradeDelayMillis),
        .integer(
            "challenge-lifetime-ms", "F-time", "how long a sign-in or registration challenge stays valid", 30_000...30 * 60_000, unit: " ms",
            \.challengeLifetimeMillis),
        .optionalInteger(
            "housekeeping-ms", "F-time", "a no-op housekeeping timer of the app this long after every sign-in", 0...6 * 3_600_000, unit: " ms",
            \.housekeepingMillis),
        .choice("android-failure-spelling", "F-telemetry", "how telemetry names an Android conditional-create failure", \.androidFailureSpelling),
        .choice("apple-failure-spelling", "F-telemetry", "how telemetry names an Apple conditional-create failure", \.appleFailureSpelling),
        .choice("user-handle", "F-handle", "the server's opaque WebAuthn user handles", \.userHandleForm),
        .choice("account-ids", "F-handle", "the product's own account ids", \.accountIDForm),
        .choice("after-sign-in", "F-words", "what the app shows once a sign-in completes", \.afterSignIn),
        .choice("nudge", "F-nudge", "the manual creation nudge the app offers after a no-create", \.nudge),
        .choice("stale-response", "F-stale", "where a registration response made stale by a context change is refused", \.staleResponse),
    ]

    /// The knobs of the Signal API (N3.2).
    static let signalKnobs: [Knob] = [
        .flag("reconcile-at-every-sign-in", "F-schedule", "also reconciles the accepted list after every successful sign-in", \.reconcileAtEverySignIn),
        .integer(
            "coalesce-ms", "F-coalesce", "triggers of one account within this window share one reconciliation", 0...120_000, unit: " ms", \.coalesceMillis),
        .flag("debounce", "F-coalesce", "each new trigger restarts the coalescing wait", \.debounce),
        .optionalInteger(
            "batch-to-refresh-ms", "F-schedule", "holds reconciliations for the next refresh point or a scheduled refresh this long after the first trigger",
            60_000...6 * 3_600_000, unit: " ms", \.batchToRefreshMillis),
        .choice("rate-limited", "F-drop", "what happens to a rate-limited signal", \.rateLimited),
        .integer("retry-backoff", "F-drop", "a retried signal waits this many times retryMillis", 1...5, unit: "x", \.retryBackoffFactor),
        .choice("unusable-list", "F-drop", "what happens when the store answers a stale or partial list (N3.2-AC04.V4)", \.unusableList),
        .choice("apple-display-name-only", "N3.2-AC10.V1", "what an Apple app sends for a display-name change alone", \.appleDisplayNameOnly),
        .optionalInteger(
            "reconcile-every-ms", "F-schedule", "also reconciles on a recurring timer of this period while signed in", 3_600_000...12 * 3_600_000,
            unit: " ms", \.reconcileEveryMillis),
        .flag("reconcile-at-foreground", "F-schedule", "also reconciles whenever the app comes to the foreground signed in", \.reconcileAtForeground),
        .flag("details-with-list", "F-batch", "sends the user details together with the accepted list at the refresh point", \.detailsWithListAtRefresh),
        .optionalInteger(
            "own-signal-budget", "F-drop", "allows itself this many Android signal calls per 120 s and drops the excess", 3...10, unit: " calls",
            \.ownSignalBudget),
        .integer("lookup-retries", "F-retry", "retries a failed credential lookup this many times", 0...3, \.lookupRetries),
        .integer(
            "submission-retries", "F-retry", "resubmits an assertion whose submission failed, or a response whose answer was lost, this many times", 0...3,
            \.submissionRetries),
        .choice("revocation", "F-store", "keeps a revoked passkey as an inactive record or deletes it", \.revocation),
        .choice("revoke-notice", "F-words", "what the app shows once a passkey is revoked", \.revokeNotice),
        .flag("report-unused-password", "F-unused-password", "on Apple, reports the password as unused after a passkey sign-in", \.reportsUnusedPassword),
        .flag("empty-list-at-sign-in", "F-empty", "sends an empty accepted list at every sign-in of an account with no passkey", \.emptyListAtSignIn),
        .optionalInteger(
            "idle-timer-ms", "F-time", "runs a recurring timer of this period that does nothing", 10_000...600_000, unit: " ms", \.idleTimerMillis),
        .choice(
            "replay-answer", "F-retry", "what the server answers to a response submitted again after its answer was lost: a refusal or the same success",
            \.replayAnswer),
    ]

    /// The knobs of what the app shows of its own, whatever criterion judges it.
    static let textKnobs: [Knob] = [
        .choice("ui-language", "F-words", "the language of the app's own texts (the nudge's offer stays English)", \.language),
        .flag("status-line", "F-extra-ui", "shows a status line after every user action, whatever happened", \.statusLine),
        .flag("passkey-count-screen", "F-extra-ui", "shows the home screen's \"Passkeys saved: N\" at every sign-in", \.passkeyCountScreen),
        .flag("provider-labels", "F-words", "names a passkey by its provider, as a label, when the user signs in with it", \.providerLabels),
    ]

    /// The design with every knob set as `specification` says: `knobs:name=value;…`, every knob not
    /// named keeping the reference's value. Throws a message naming the knob or value at fault.
    package static func parse(_ specification: String) throws(DesignSpecificationError) -> ReferenceDesign {
        guard specification.hasPrefix("knobs:") else { throw DesignSpecificationError("a design specification starts with 'knobs:', found '\(specification)'") }
        var design = ReferenceDesign.reference
        let body = specification.dropFirst("knobs:".count)
        guard !body.isEmpty else {
            throw DesignSpecificationError(
                "'knobs:' names no knob; give name=value pairs separated by ';' (the knobs are: \(knobs.map(\.name).joined(separator: ", ")))")
        }
        var given: Set<String> = []
        for pair in body.split(separator: ";", omittingEmptySubsequences: false) {
            guard !pair.isEmpty else { throw DesignSpecificationError("an empty knob in '\(specification)': remove the extra ';'") }
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2, let knob = knobs.first(where: { $0.name == parts[0] }) else {
                throw DesignSpecificationError("unknown knob '\(pair)'; the knobs are: \(knobs.map(\.name).joined(separator: ", "))")
            }
            guard given.insert(knob.name).inserted else { throw DesignSpecificationError("knob '\(knob.name)' is given twice") }
            guard knob.set(&design, parts[1]) else { throw DesignSpecificationError("knob '\(knob.name)' takes \(knob.range), found '\(parts[1])'") }
        }
        return design.named("given")
    }

    /// `count` designs with every knob drawn from its whole range, reproducible from `seed`.
    package static func random(count: Int, seed: UInt64) -> [ReferenceDesign] {
        var random = SplitMix64(seed: seed ^ 0x6B6E_6F62_7321)
        return (0..<count).map { index in
            var design = ReferenceDesign.reference
            for knob in knobs { _ = knob.set(&design, knob.draw(&random)) }
            return design.named("random-\(seed)-\(index + 1)")
        }
    }

    /// This design's knob values as a specification that `parse` reads back.
    package var specification: String { "knobs:" + Self.knobs.map { "\($0.name)=\($0.get(self))" }.joined(separator: ";") }

    /// The same choices under another name, summarised by their specification, which
    /// `selftest --design <specification>` runs again.
    func named(_ id: DesignID) -> ReferenceDesign {
        var copy = self
        copy.id = id
        copy.summary = specification
        return copy
    }

    /// Whether the design was made from knob values (a random draw or a given specification)
    /// rather than being one of the fixed designs.
    package var isCombination: Bool { summary == specification }

    /// The freedoms whose knobs this design sets to something other than the reference's value.
    package var freedoms: [String] {
        var seen: [String] = []
        for knob in Self.knobs where knob.get(self) != knob.get(.reference) && !seen.contains(knob.freedom) { seen.append(knob.freedom) }
        return seen
    }
}

/// A design specification that names an unknown knob or a value outside its range.
package struct DesignSpecificationError: Error, CustomStringConvertible, Sendable {
    /// What is wrong, naming the knob or value.
    package let description: String
    init(_ description: String) { self.description = description }
}
