import ConformanceModel

/// A platform operation the relying party started, with the platform's answer.
public struct PlatformOperation: Sendable, Hashable {
    /// Which platform call started the operation: `create`, `get` or `signal`.
    public enum Kind: String, Sendable, Hashable { case create, get, signal }

    /// The call that started the operation, with its request and what the platform read from it.
    /// Each request is itself written for one platform family (its `android` or `apple` case).
    public enum Call: Sendable, Hashable {
        /// A registration request, with the registration as the platform read it (`nil` if it could not be read).
        case create(CreateCredentialRequest, registration: RegistrationView?)
        /// A passkey sign-in request.
        case get(GetCredentialRequest)
        /// A signal, with the signal as the platform read it (`nil` if it could not be read).
        case signal(SignalRequest, signal: SignalView?)

        /// Which platform call it is.
        public var kind: Kind {
            switch self {
            case .create: .create
            case .get: .get
            case .signal: .signal
            }
        }
        /// The platform family the request is written for.
        public var platform: PlatformFamily {
            switch self {
            case .create(let request, _): request.platform
            case .get(let request): request.platform
            case .signal(let request, _): request.platform
            }
        }
    }

    /// Where the operation's outcome is on its way to the relying party.
    public enum Status: String, Sendable, Hashable {
        /// Waiting for the runner to deliver the outcome.
        case pending
        /// Held back by the scenario until released.
        case held
        /// Delivered to the relying party.
        case delivered
    }
    /// The operation id the platform call returned (`op-1`, `op-2`, …).
    public var id: OperationID
    /// The call that started it, with its request.
    public var call: Call
    /// The virtual time of the call, in milliseconds since the test case started.
    public var issuedAtMillis: Int64
    /// The transcript sequence of the call.
    public var sequence: Int
    /// The platform's answer, decided when the call was made.
    public var outcome: PlatformOutcome
    /// Whether the outcome is pending, held or delivered.
    public var status: Status
    /// What the simulator noticed about the call.
    public var notes: [PlatformSimulator.Note]

    /// Which platform call started it.
    public var kind: Kind { call.kind }
    /// The registration request of a `create` operation, `nil` otherwise (a read helper).
    public var createRequest: CreateCredentialRequest? {
        if case .create(let request, _) = call { request } else { nil }
    }
    /// The sign-in request of a `get` operation, `nil` otherwise (a read helper).
    public var getRequest: GetCredentialRequest? {
        if case .get(let request) = call { request } else { nil }
    }
    /// The signal request of a `signal` operation, `nil` otherwise (a read helper).
    public var signalRequest: SignalRequest? {
        if case .signal(let request, _) = call { request } else { nil }
    }
    /// The registration as the platform read it; `nil` for other calls or an unreadable request (a read helper).
    public var registration: RegistrationView? {
        if case .create(_, let view) = call { view } else { nil }
    }
    /// The signal as the platform read it; `nil` for other calls or an unreadable signal (a read helper).
    public var signal: SignalView? {
        if case .signal(_, let view) = call { view } else { nil }
    }
}
