import Foundation
import WebAuthn

/// N3.2-AC09 over every signal: user handles and credential ids are the server's exact values, in
/// the representation each platform asks for (raw bytes in Apple's report arguments, unpadded
/// base64url strings, ids as a JSON array, in Android's request JSON).
///
/// The invariant reads the request as the app made it, whether the platform accepted it or not,
/// so a value the platform refuses to read is caught as well as one it reads wrongly. It asks no
/// more than the criterion: a value is exact when its bytes are a value the world holds (a user
/// handle of an account; a credential id the server holds for that account, active or revoked, for
/// the accepted list; any id of the server or the credential manager for an unknown-credential
/// signal, whose id the server by definition does not hold); which ids a list ought to contain is
/// N3.2-AC04's invariant, not this one.
extension InvariantMonitor {
    /// The values a signal may carry: the accounts (before and after the step) and every credential
    /// id the server or the credential manager holds.
    struct ExactValues {
        /// Accounts by WebAuthn user handle, with every credential id the server held for each.
        var credentialsByHandle: [Data: (username: String, ids: Set<Data>)] = [:]
        /// Product account ids, as the bytes of their UTF-8 text.
        var accountIDs: [Data: String] = [:]
        /// Every credential id the server or the credential manager holds.
        var knownIDs: Set<Data> = []

        init(accounts: [AccountSnapshot], providerIDs: [Data]) {
            for account in accounts {
                let ids = Set(account.credentials.map(\.credentialID))
                credentialsByHandle[account.userHandle, default: (account.username, [])].ids.formUnion(ids)
                accountIDs[Data(account.accountID.utf8)] = account.username
                knownIDs.formUnion(ids)
            }
            knownIDs.formUnion(providerIDs)
        }
    }

    /// What is wrong with one signal's representation, with the verify item it breaks; `nil` when
    /// every id and user handle in it is exact.
    static func representationProblem(_ request: SignalRequest, exact: ExactValues) -> (item: VerifyItemID, message: String)? {
        switch request {
        case .android(let android): androidProblem(android, exact: exact)
        case .apple(let apple): appleProblem(apple, exact: exact)
        // The options of a page's signal are the members of Android's request JSON.
        case .web: WebSimulation.androidEquivalent(request).flatMap { androidProblem($0, exact: exact) }
        }
    }

    /// A user handle that is a product account id, whatever its encoding: item V4.
    static func accountIDProblem(_ candidates: [Data], exact: ExactValues, field: String) -> (item: VerifyItemID, message: String)? {
        for candidate in candidates {
            if let username = exact.accountIDs[candidate] {
                return ("N3.2-AC09.V4", "\(field) is the product account id of \(username), not its WebAuthn user handle")
            }
        }
        return nil
    }

    /// What is wrong with one member of a request.
    struct Problem: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }

    static func androidProblem(_ request: AndroidSignalRequest, exact: ExactValues) -> (item: VerifyItemID, message: String)? {
        let item: VerifyItemID = "N3.2-AC09.V2"
        guard let kind = AndroidSimulation.kind(ofType: request.type) else { return nil }  // N3.2-AC06's concern
        guard let json = try? JSONValue.parse(Data(request.requestJson.utf8)), case .object = json else {
            return (item, "the request JSON is not a JSON object")
        }
        /// The bytes of an unpadded base64url member, or the problem with it.
        func bytes(_ key: String, _ value: JSONValue?) -> Result<Data, Problem> {
            guard let value else { return .failure(Problem("\(key) is missing")) }
            guard let text = value.stringValue else { return .failure(Problem("\(key) is not a JSON string")) }
            guard let data = Base64URL.decodeIfValid(text) else {
                return .failure(
                    Problem(
                        "\(key) \"\(text.prefix(48))\" is not unpadded base64url"
                            + (text.contains("=") || text.contains("+") || text.contains("/") ? " (standard base64 or padding)" : "")))
            }
            return .success(data)
        }
        if kind == .unknownCredential {
            switch bytes("credentialId", json["credentialId"]) {
            case .failure(let problem): return (item, problem.message)
            case .success(let id):
                return exact.knownIDs.contains(id)
                    ? nil : (item, "credentialId \(Base64URL.encode(id)) is no credential id the server or the credential manager holds")
            }
        }
        let handleText = json["userId"]?.stringValue ?? ""
        let decodings = [Base64URL.decodeIfValid(handleText), Data(base64Encoded: handleText), Data(handleText.utf8)].compactMap { $0 }
        if let problem = accountIDProblem(decodings, exact: exact, field: "userId") { return problem }
        let handle: Data
        switch bytes("userId", json["userId"]) {
        case .failure(let problem): return (item, problem.message)
        case .success(let value): handle = value
        }
        guard let account = exact.credentialsByHandle[handle] else {
            return (item, "userId \(handleText.prefix(48)) is no account's WebAuthn user handle")
        }
        guard kind == .allAcceptedCredentials else { return nil }
        guard let list = json["allAcceptedCredentialIds"] else { return (item, "allAcceptedCredentialIds is missing") }
        guard let items = list.arrayValue else {
            return (
                item,
                "allAcceptedCredentialIds is \(list.stringValue.map { "the string \"\($0.prefix(48))\"" } ?? "not a JSON array"), not an array of base64url strings"
            )
        }
        for (index, element) in items.enumerated() {
            switch bytes("allAcceptedCredentialIds[\(index)]", element) {
            case .failure(let problem): return (item, problem.message)
            case .success(let id) where !account.ids.contains(id):
                return (item, "allAcceptedCredentialIds[\(index)] \(Base64URL.encode(id)) is no credential id the server holds for \(account.username)")
            case .success: continue
            }
        }
        return nil
    }

    static func appleProblem(_ report: AppleSignalReport, exact: ExactValues) -> (item: VerifyItemID, message: String)? {
        let item: VerifyItemID = "N3.2-AC09.V1"
        func describe(_ data: Data) -> String {
            let text = String(decoding: data, as: UTF8.self)
            return Base64URL.decodeIfValid(text) != nil && data.allSatisfy({ $0 >= 0x20 && $0 < 0x7F })
                ? "the bytes of the text \"\(text.prefix(48))\"" : "\(data.count) bytes"
        }
        switch report.method {
        case .reportUnknownPublicKeyCredential:
            guard let id = report.credentialID else { return nil }  // the platform's own validation
            return exact.knownIDs.contains(id)
                ? nil : (item, "credentialID is \(describe(id)), not the raw bytes of a credential id the server or the credential manager holds")
        case .reportAllAcceptedPublicKeyCredentials, .reportPublicKeyCredentialUpdate:
            guard let handle = report.userHandle else { return nil }
            if let problem = accountIDProblem([handle], exact: exact, field: "userHandle") { return problem }
            guard let account = exact.credentialsByHandle[handle] else {
                return (item, "userHandle is \(describe(handle)), not the raw bytes of an account's WebAuthn user handle")
            }
            for (index, id) in (report.acceptedCredentialIDs ?? []).enumerated() where !account.ids.contains(id) {
                return (
                    item, "acceptedCredentialIDs[\(index)] is \(describe(id)), not the raw bytes of a credential id the server holds for \(account.username)"
                )
            }
            return nil
        case .reportUnusedPasswordCredential:
            return nil
        }
    }
}

extension StepLibrary {
    /// The `Then` step that states `signal-ids-exact` for a whole test case, so that a history
    /// explore shrank can end in a check: after quiescence, every signal call of the test case
    /// carries exact user handles and credential ids in its platform's representation.
    static let exactRepresentationStep = StepDefinition("every signal carries exact user handles and credential ids in its platform's representation") {
        world, _ in
        try await world.quiesce()
        var accounts: [AccountSnapshot] = []
        for alias in world.accounts.keys.sorted() { accounts.append(try await world.inspect(alias)) }
        let exact = InvariantMonitor.ExactValues(accounts: accounts, providerIDs: world.host.snapshot.provider.passkeys.map(\.credentialID))
        let calls = world.signalCalls
        let problems = calls.compactMap { call in
            call.operation.signalRequest.flatMap { InvariantMonitor.representationProblem($0, exact: exact) }.map { "\(call.cite): \($0.message)" }
        }
        return StepSupport.expect(!calls.isEmpty && problems.isEmpty, calls.isEmpty ? "the app sent no signal" : problems.joined(separator: "; "))
    }
}
