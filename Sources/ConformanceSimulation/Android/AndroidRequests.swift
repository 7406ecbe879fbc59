import ConformanceModel
import Foundation
import WebAuthn

extension AndroidSimulation {
    /// The kind a signal request type stands for, or `nil` for a type the library does not know.
    public static func kind(ofType type: String) -> SignalView.Kind? {
        switch type {
        case AndroidSignalRequest.unknownCredentialType: .unknownCredential
        case AndroidSignalRequest.allAcceptedCredentialsType: .allAcceptedCredentials
        case AndroidSignalRequest.currentUserDetailsType: .currentUserDetails
        default: nil
        }
    }

    /// The platform's refusal of a malformed `requestJson`, saying what is wrong with it.
    static func illegalRequestJSON(_ message: String) -> PlatformError {
        .general(name: "IllegalArgumentException", message: "requestJson: \(message)")
    }

    /// Parses `requestJson` as WebAuthn `PublicKeyCredentialCreationOptions`; a malformed member is
    /// an `IllegalArgumentException` that names it.
    public func readRegistration(_ request: CreateCredentialRequest) -> Result<RegistrationView, PlatformError> {
        guard case .android(let request) = request else { return .failure(PlatformFamilies.wrongPlatform) }
        let illegal = Self.illegalRequestJSON
        guard !request.requestJson.isEmpty else { return .failure(illegal("is empty")) }
        let json: JSONValue
        do {
            json = try JSONValue.parse(Data(request.requestJson.utf8))
        } catch {
            return .failure(illegal("is not valid JSON: \(error)"))
        }
        guard case .object = json else { return .failure(illegal("is not a JSON object")) }
        guard let userName = json["user"]?["name"]?.stringValue, !userName.isEmpty else {
            return .failure(illegal("lacks user.name"))
        }
        guard let userIDText = json["user"]?["id"]?.stringValue else { return .failure(illegal("lacks user.id")) }
        guard let userHandle = Base64URL.decodeIfValid(userIDText) else { return .failure(illegal("user.id is not base64url")) }
        guard (1...64).contains(userHandle.count) else {
            return .failure(illegal("user.id must be 1 to 64 bytes, found \(userHandle.count)"))
        }
        guard let challengeText = json["challenge"]?.stringValue, let challenge = Base64URL.decodeIfValid(challengeText), !challenge.isEmpty else {
            return .failure(illegal("challenge is missing or not base64url"))
        }
        guard let rpID = json["rp"]?["id"]?.stringValue, !rpID.isEmpty else { return .failure(illegal("lacks rp.id")) }
        var excluded: [Data]?
        if let list = json["excludeCredentials"] {
            guard let items = list.arrayValue else { return .failure(illegal("excludeCredentials is not an array")) }
            var ids: [Data] = []
            for (index, item) in items.enumerated() {
                guard let text = item["id"]?.stringValue, let id = Base64URL.decodeIfValid(text) else {
                    return .failure(illegal("excludeCredentials[\(index)].id is missing or not base64url"))
                }
                ids.append(id)
            }
            excluded = ids
        }
        let verification = json["authenticatorSelection"]?["userVerification"]?.stringValue ?? "preferred"
        return .success(
            RegistrationView(
                rpID: rpID, userHandle: userHandle, userName: userName,
                displayName: json["user"]?["displayName"]?.stringValue, challenge: challenge,
                excludedCredentials: excluded, conditional: request.isConditional, userVerification: verification))
    }

    /// Parses the request JSON the way the library's structural validation does; the error names
    /// the missing or mistyped member.
    public func readSignal(_ request: SignalRequest) -> Result<SignalView, PlatformError> {
        guard case .android(let request) = request else { return .failure(PlatformFamilies.wrongPlatform) }
        func illegal(_ message: String) -> PlatformError {
            .general(name: "IllegalArgumentException", message: "Structural/type validation failed for JSON: \(message)")
        }
        let json: JSONValue
        do {
            json = try JSONValue.parse(Data(request.requestJson.utf8))
        } catch {
            return .failure(illegal("requestJson is not a JSON object (not valid JSON: \(error))"))
        }
        guard case .object = json else { return .failure(illegal("requestJson is not a JSON object")) }
        func string(_ key: String) -> Result<String, PlatformError> {
            guard let value = json[key] else { return .failure(illegal("missing key \"\(key)\"")) }
            guard let text = value.stringValue else { return .failure(illegal("\"\(key)\" is not a string")) }
            return .success(text)
        }
        func base64url(_ key: String) -> Result<Data, PlatformError> {
            string(key).flatMap { text in
                Base64URL.decodeIfValid(text).map { .success($0) } ?? .failure(illegal("\"\(key)\" is not base64url: \(text.prefix(40))"))
            }
        }
        let rpID: String
        switch string("rpId") {
        case .failure(let error): return .failure(error)
        case .success(let value): rpID = value
        }
        switch Self.kind(ofType: request.type) {
        case .unknownCredential:
            return base64url("credentialId").map {
                SignalView(kind: .unknownCredential, interface: "signalCredentialState", rpID: rpID, credentialID: $0)
            }
        case .allAcceptedCredentials:
            return base64url("userId").flatMap { userID in
                guard let list = json["allAcceptedCredentialIds"] else { return .failure(illegal("missing key \"allAcceptedCredentialIds\"")) }
                guard let items = list.arrayValue else { return .failure(illegal("\"allAcceptedCredentialIds\" is not an array")) }
                var ids: [Data] = []
                for (index, item) in items.enumerated() {
                    guard let text = item.stringValue, let id = Base64URL.decodeIfValid(text) else {
                        return .failure(illegal("allAcceptedCredentialIds[\(index)] is not a base64url string"))
                    }
                    ids.append(id)
                }
                return .success(
                    SignalView(kind: .allAcceptedCredentials, interface: "signalCredentialState", rpID: rpID, userHandle: userID, acceptedCredentialIDs: ids))
            }
        case .currentUserDetails:
            return base64url("userId").flatMap { userID in
                string("name").flatMap { name in
                    string("displayName").map { displayName in
                        SignalView(
                            kind: .currentUserDetails, interface: "signalCredentialState", rpID: rpID, userHandle: userID, name: name, displayName: displayName)
                    }
                }
            }
        case .unusedPassword, nil:
            return .failure(illegal("unknown signal request type \"\(request.type)\""))
        }
    }

    /// The request JSON, when it parses.
    static func json(of request: SignalRequest) -> JSONValue? {
        guard case .android(let android) = request else { return nil }
        return try? JSONValue.parse(Data(android.requestJson.utf8))
    }

    /// The request type's kind, `signalCredentialState`, and the JSON's `rpId`, `name` and `displayName` as written.
    public func signalSummary(_ request: SignalRequest) -> SignalSummary {
        guard case .android(let android) = request else { return SignalSummary(kind: nil, interface: "?") }
        let json = Self.json(of: request)
        return SignalSummary(
            kind: Self.kind(ofType: android.type), interface: "signalCredentialState", rpID: json?["rpId"]?.stringValue, name: json?["name"]?.stringValue,
            displayName: json?["displayName"]?.stringValue)
    }

    /// `userId` and `allAcceptedCredentialIds` compared with the server's as base64url text.
    public func identityProblems(of request: SignalRequest, kind: SignalView.Kind?, userHandle: Data, acceptedCredentialIDs: [Data]) -> [String] {
        guard let json = Self.json(of: request) else { return [] }
        var problems: [String] = []
        if json["userId"]?.stringValue != Base64URL.encode(userHandle) {
            problems.append("userId is \"\(json["userId"]?.stringValue ?? "missing")\", expected \"\(Base64URL.encode(userHandle))\"")
        }
        if kind == .allAcceptedCredentials {
            if let ids = json["allAcceptedCredentialIds"]?.arrayValue {
                let texts = ids.compactMap(\.stringValue)
                let expected = Set(acceptedCredentialIDs.map(Base64URL.encode))
                if Set(texts) != expected || texts.count != ids.count {
                    problems.append("allAcceptedCredentialIds \(texts.sorted()) are not \(expected.sorted())")
                }
            } else {
                problems.append("allAcceptedCredentialIds is not a JSON array of strings")
            }
        }
        return problems
    }

    /// `userId` read every way an app may have written it: base64url, standard base64, or the
    /// account id's own text, unencoded.
    public func userHandleCandidates(of request: SignalRequest) -> [Data] {
        guard let text = Self.json(of: request)?["userId"]?.stringValue else { return [] }
        return [Base64URL.decodeIfValid(text) ?? Data(), Data(base64Encoded: text) ?? Data(), Data(text.utf8)]
    }
}
