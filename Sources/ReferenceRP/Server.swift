import ConformanceModel
import ConformanceSimulation
import Foundation
import WebAuthn

/// The reference relying party's server: accounts, sessions, ceremonies and credential records.
///
/// Every registration is bound to the session that asked for its options: the ceremony records the
/// session token, and a response is accepted only from that same, still valid session.
struct Server: Sendable {
    struct Account: Sendable {
        var username: String
        var accountID: String
        var userHandle: Data
        var rpID: String
        /// The account name passkeys show (`user.name`); starts as the username.
        var name: String
        var displayName: String
        var password: String
        var policy: SignInPolicy
        var restricted: Bool
        var credentials: [StoredCredential]
    }

    struct StoredCredential: Sendable, Hashable {
        var id: Data
        var publicKey: Data
        var signCount: UInt32
        var state: CredentialState
        var rpID: String
        var backupEligible: Bool
    }

    enum Assurance: Sendable, Hashable {
        /// The password was accepted; a second factor is still due.
        case passwordOnly
        /// The account's complete sign-in policy succeeded.
        case full
        /// A lower-assurance sign-in (recovery).
        case limited
    }

    struct Session: Sendable {
        var token: String
        var username: String
        var assurance: Assurance
    }

    struct Ceremony: Sendable {
        enum Kind: Sendable { case registration, authentication }
        var kind: Kind
        var challenge: Data
        var token: String?
        var username: String?
        var rpID: String
        var conditional: Bool
        var issuedAt: Int64
    }

    /// The options of a registration ceremony.
    struct RegistrationOptions: Sendable {
        var challenge: Data
        var rpID: String
        var userHandle: Data
        var userName: String
        var displayName: String
        var excluded: [Data]
    }

    /// Why the server refused a request; the message is what the app logs.
    struct Refusal: Error, Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
        var message: String
        init(_ message: String) { self.message = message }
        init(stringLiteral value: String) { message = value }
        var description: String { message }
    }

    var accounts: [String: Account] = [:]
    var accountOrder: [String] = []
    var sessions: [String: Session] = [:]
    var ceremonies: [Data: Ceremony] = [:]
    /// The sign-ins and registrations the server committed, by challenge: what a design that answers
    /// a replay with the same success answers (`ReferenceDesign.replayAnswer`).
    var committed: [Data: (credentialID: Data, username: String)] = [:]
    var nextAccount = 1
    var nextSession = 1
    /// The credential store's view for full-list assembly: pages, versions, cache and injected faults.
    var store = CredentialStore()
    /// The choice at each named decision point: the conforming one, or a mutant's.
    let decisions: Decisions
    let design: ReferenceDesign
    let device: DeviceInfo

    /// How long an issued challenge stays valid.
    var challengeLifetimeMillis: Int64 { design.challengeLifetimeMillis }

    init(decisions: Decisions, design: ReferenceDesign, device: DeviceInfo) {
        self.decisions = decisions
        self.design = design
        self.device = device
    }

    // MARK: Accounts and sessions

    mutating func create(_ fixture: AccountFixture, rng: inout SeededGenerator) {
        let accountID = newAccountID(rng: &rng)
        nextAccount += 1
        accounts[fixture.username] = Account(
            username: fixture.username, accountID: accountID, userHandle: newUserHandle(rng: &rng),
            rpID: fixture.rpID, name: fixture.username, displayName: fixture.displayName, password: fixture.password,
            policy: fixture.policy, restricted: fixture.restricted, credentials: [])
        accountOrder.append(fixture.username)
    }

    /// A product account id in the design's form (F-handle).
    func newAccountID(rng: inout SeededGenerator) -> String {
        switch design.accountIDForm {
        case .prefixed: return Self.prefixedAccountID(nextAccount)
        case .shortNumeric:
            var number = 100 + Int(rng.next() % 900)
            while accounts.values.contains(where: { $0.accountID == String(number) }) { number = number == 999 ? 100 : number + 1 }
            return String(number)
        case .uuid: return UUID(uuid: Self.uuidBytes(&rng)).uuidString.lowercased()
        }
    }

    /// `acct-` and the number in at least six digits, zero-padded (`acct-000001`): what
    /// `String(format: "acct-%06d", number)` writes, without its formatter on every new account.
    static func prefixedAccountID(_ number: Int) -> String {
        guard number >= 0 else { return String(format: "acct-%06d", number) }
        let digits = String(number)
        return "acct-" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }

    /// An opaque WebAuthn user handle in the design's form (F-handle).
    func newUserHandle(rng: inout SeededGenerator) -> Data {
        switch design.userHandleForm {
        case .random16: return Data(rng.bytes(16))
        case .random32: return Data(rng.bytes(32))
        case .random64: return Data(rng.bytes(64))
        case .uuid:
            let uuid = Self.uuidBytes(&rng)
            return withUnsafeBytes(of: uuid) { Data($0) }
        case .randomText: return Data(Base64URL.encode(Data(rng.bytes(24))).utf8)
        }
    }

    /// A random version 4 UUID.
    static func uuidBytes(_ rng: inout SeededGenerator) -> uuid_t {
        var bytes = rng.bytes(16)
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13],
            bytes[14], bytes[15]
        )
    }

    mutating func openSession(_ username: String, _ assurance: Assurance) -> String {
        let token = "session-\(nextSession)"
        nextSession += 1
        sessions[token] = Session(token: token, username: username, assurance: assurance)
        return token
    }

    enum SignInResult: Sendable {
        case signedIn(token: String, assurance: Assurance)
        case refused(String)
    }

    mutating func passwordSignIn(username: String, password: String) -> SignInResult {
        guard let account = accounts[username], account.password == password else { return .refused("wrong username or password") }
        guard !account.restricted else { return .refused("this account is restricted") }
        let assurance: Assurance = account.policy == .passwordOnly ? .full : .passwordOnly
        return .signedIn(token: openSession(username, assurance), assurance: assurance)
    }

    mutating func secondFactor(token: String, outcome: SecondFactorOutcome) -> Result<Void, Refusal> {
        guard var session = sessions[token], session.assurance == .passwordOnly else { return .failure("no second factor is due") }
        switch outcome {
        case .correct:
            session.assurance = .full
            sessions[token] = session
            return .success(())
        case .wrong: return .failure("the code is wrong")
        case .expired: return .failure("the code has expired")
        }
    }

    mutating func signOut(token: String) {
        sessions[token] = nil
        // The session's pending ceremonies end with it.
        if !decisions.response.ceremoniesOutliveSession {
            ceremonies = ceremonies.filter { $0.value.token != token }
        }
    }

    // MARK: Registration

    /// Options for a registration by the session's account (or, for a mutant, another account).
    mutating func registrationOptions(
        token: String, conditional: Bool, now: Int64, rng: inout SeededGenerator,
        forUsername override: String? = nil
    ) -> RegistrationOptions? {
        guard let session = sessions[token] else { return nil }
        guard let account = accounts[override ?? session.username] else { return nil }
        let challenge = Data(rng.bytes(32))
        ceremonies[challenge] = Ceremony(
            kind: .registration, challenge: challenge, token: token, username: account.username,
            rpID: account.rpID, conditional: conditional, issuedAt: now)
        return RegistrationOptions(
            challenge: challenge, rpID: account.rpID, userHandle: account.userHandle, userName: account.name,
            displayName: account.displayName, excluded: account.credentials.map(\.id))
    }

    func allowedOrigins(rpID: String) -> Set<String> {
        var origins: Set<String> = ["https://\(rpID)"]
        if let appOrigin = device.appOrigin { origins.insert(appOrigin) }
        return origins
    }

    /// Verifies a registration response and stores the credential for the account that asked for it.
    mutating func finishRegistration(token: String, clientDataJSON: Data, attestationObject: Data, now: Int64) -> Result<Data, Refusal> {
        guard let clientData = try? CollectedClientData(jsonBytes: clientDataJSON) else {
            return .failure("clientDataJSON cannot be parsed")
        }
        guard let ceremony = ceremonies[clientData.challenge], ceremony.kind == .registration else {
            if design.replayAnswer == .sameSuccess, let done = committed[clientData.challenge] { return .success(done.credentialID) }
            return .failure("no registration ceremony for this challenge")
        }
        if decisions.response.stale == .discard {
            guard ceremony.token == token, let session = sessions[token], session.username == ceremony.username, session.assurance == .full else {
                return .failure("the response does not belong to the current sign-in")
            }
        }
        guard now - ceremony.issuedAt <= (decisions.response.registrationLifetimeMillis ?? challengeLifetimeMillis) else {
            return .failure("the challenge has expired")
        }
        let owner = decisions.response.stale == .attachToCurrentAccount ? (sessions[token]?.username ?? ceremony.username) : ceremony.username
        guard let username = owner, var account = accounts[username] else { return .failure("the account no longer exists") }
        let verifier = WebAuthnVerifier(policy: .init(rpId: ceremony.rpID, allowedOrigins: allowedOrigins(rpID: ceremony.rpID)))
        let conditional =
            switch decisions.response.userPresence {
            case .byMediation: ceremony.conditional
            case .always: false
            case .never: true
            case .bySession: ceremony.conditional || ceremonies.values.contains { $0.token == ceremony.token && $0.conditional }
            }
        let expectation = WebAuthnVerifier.RegistrationExpectation(
            challenge: ceremony.challenge, userVerification: decisions.response.userVerification, conditionalMediation: conditional)
        switch verifier.verifyRegistration(clientDataJSON: clientDataJSON, attestationObject: attestationObject, expecting: expectation) {
        case .rejected(let reason):
            return .failure(Refusal(reason.message))
        case .verified(let registration):
            let record = registration.credential
            if !decisions.response.acceptsBackupEligible, record.backupEligible { return .failure("backup-eligible credentials are not accepted") }
            // Credential ids stay unique across every account (N2.6: "retain server-side credential uniqueness").
            if let holder = accountOrder.first(where: { accounts[$0]?.credentials.contains { $0.id == record.id } == true }) {
                switch decisions.seedPaths.duplicateCredentialID {
                case nil: return .failure("this credential id is already registered")
                case .storeAgain: break
                case .takeOver:
                    if holder == username {
                        account.credentials.removeAll { $0.id == record.id }
                    } else {
                        accounts[holder]?.credentials.removeAll { $0.id == record.id }
                        store.changed(holder)
                    }
                }
            }
            ceremonies[ceremony.challenge] = nil
            committed[ceremony.challenge] = (record.id, username)
            store.changed(username)
            account.credentials.append(
                StoredCredential(
                    id: record.id, publicKey: record.publicKey.bytes, signCount: record.signCount,
                    state: .active, rpID: ceremony.rpID, backupEligible: record.backupEligible))
            accounts[username] = account
            return .success(record.id)
        }
    }

    func snapshot(_ username: String) -> AccountSnapshot? {
        guard let account = accounts[username] else { return nil }
        return AccountSnapshot(
            username: account.username, accountID: account.accountID, userHandle: account.userHandle, rpID: account.rpID,
            name: account.name, displayName: account.displayName,
            credentials: account.credentials.map { CredentialSnapshot(credentialID: $0.id, rpID: $0.rpID, state: $0.state) })
    }
}
