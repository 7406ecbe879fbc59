import ConformanceModel
import ConformanceSimulation

/// What the app shows of its own, and in which language: choices the criteria leave to the relying
/// party (F-words, F-extra-ui), each a range `selftest --designs random:N` samples.
extension ReferenceDesign {
    /// The language of every text the app shows of its own (F-words), but the manual creation
    /// nudge's offer, which stays in English: shown only because the credential manager created
    /// nothing, it is judged by the harness's reader of English text (Documentation/criterion-files.md,
    /// "Text by cause, then by meaning").
    package enum Language: String, Sendable, Hashable, CaseIterable {
        case english = "en"
        case german = "de"
        case japanese = "ja"
    }
}

/// A text the reference app shows of its own, in every language of `ReferenceDesign.Language`.
enum AppText: Sendable, Hashable {
    case welcome(name: String)
    case signedIn
    case home
    /// The revocation notice that names the passkey by its provider, as a label.
    case revokedWithLabel(provider: String)
    /// The revocation notice with a disclaimer that mentions the device.
    case revokedWithDisclaimer
    case revokedAccountSide
    case profileNotSaved
    case passkeyList(count: Int)
    case noConnection
    case signInFailed
    case passkeyNotValid
    case passkeyRevoked
    case accountRestricted
    case passkeyNotCreated
    case passkeyNotSaved
    /// A status line the app shows after every user action, whatever happened (F-extra-ui).
    case statusLine
    /// The home screen's count of the account's passkeys, at every sign-in (F-extra-ui).
    case passkeysSaved(count: Int)
    /// A passkey sign-in, naming the passkey by its provider as a label (F-words).
    case signedInWithPasskey(label: String)

    /// The text in `language`.
    func text(in language: ReferenceDesign.Language) -> String {
        switch language {
        case .english: english
        case .german: german
        case .japanese: japanese
        }
    }

    private var english: String {
        switch self {
        case .welcome(let name): "Welcome back, \(name)."
        case .signedIn: "You are signed in."
        case .home: "Home"
        case .revokedWithLabel(let provider): "Passkey \"\(provider)\" was removed from your account."
        case .revokedWithDisclaimer:
            "The passkey was removed from your account. It may still appear on this device until your password manager updates it."
        case .revokedAccountSide: "Your account no longer accepts this passkey."
        case .profileNotSaved: "Your profile could not be saved."
        case .passkeyList(let count): "Passkeys: \(count)"
        case .noConnection: "No connection. Try again."
        case .signInFailed: "Sign-in failed. Try again."
        case .passkeyNotValid: "This passkey is not valid for your account."
        case .passkeyRevoked: "This passkey has been removed from your account."
        case .accountRestricted: "Your account is restricted."
        case .passkeyNotCreated: "The passkey could not be created."
        case .passkeyNotSaved: "The passkey could not be saved."
        case .statusLine: "Your passkeys are up to date."
        case .passkeysSaved(let count): "Passkeys saved: \(count)"
        case .signedInWithPasskey(let label): "Signed in with your passkey \"\(label)\"."
        }
    }

    private var german: String {
        switch self {
        case .welcome(let name): "Willkommen zurück, \(name)."
        case .signedIn: "Sie sind angemeldet."
        case .home: "Startseite"
        case .revokedWithLabel(let provider): "Passkey „\(provider)“ wurde aus Ihrem Konto entfernt."
        case .revokedWithDisclaimer:
            "Der Passkey wurde aus Ihrem Konto entfernt. Er kann auf diesem Gerät noch erscheinen, bis Ihr Passwortmanager ihn aktualisiert."
        case .revokedAccountSide: "Ihr Konto akzeptiert diesen Passkey nicht mehr."
        case .profileNotSaved: "Ihr Profil konnte nicht gespeichert werden."
        case .passkeyList(let count): "Passkeys: \(count)"
        case .noConnection: "Keine Verbindung. Versuchen Sie es erneut."
        case .signInFailed: "Anmeldung fehlgeschlagen. Versuchen Sie es erneut."
        case .passkeyNotValid: "Dieser Passkey gilt nicht für Ihr Konto."
        case .passkeyRevoked: "Dieser Passkey wurde aus Ihrem Konto entfernt."
        case .accountRestricted: "Ihr Konto ist eingeschränkt."
        case .passkeyNotCreated: "Der Passkey konnte nicht erstellt werden."
        case .passkeyNotSaved: "Der Passkey konnte nicht gespeichert werden."
        case .statusLine: "Ihre Passkeys sind auf dem neuesten Stand."
        case .passkeysSaved(let count): "Gespeicherte Passkeys: \(count)"
        case .signedInWithPasskey(let label): "Angemeldet mit Ihrem Passkey „\(label)“."
        }
    }

    private var japanese: String {
        switch self {
        case .welcome(let name): "おかえりなさい、\(name)さん。"
        case .signedIn: "サインインしました。"
        case .home: "ホーム"
        case .revokedWithLabel(let provider): "パスキー「\(provider)」をアカウントから削除しました。"
        case .revokedWithDisclaimer: "パスキーをアカウントから削除しました。パスワードマネージャが更新するまで、このデバイスに表示されることがあります。"
        case .revokedAccountSide: "このパスキーはお使いのアカウントで使用できなくなりました。"
        case .profileNotSaved: "プロフィールを保存できませんでした。"
        case .passkeyList(let count): "パスキー: \(count)"
        case .noConnection: "接続できません。もう一度お試しください。"
        case .signInFailed: "サインインできませんでした。もう一度お試しください。"
        case .passkeyNotValid: "このパスキーはお使いのアカウントでは無効です。"
        case .passkeyRevoked: "このパスキーはアカウントから削除されています。"
        case .accountRestricted: "お使いのアカウントは制限されています。"
        case .passkeyNotCreated: "パスキーを作成できませんでした。"
        case .passkeyNotSaved: "パスキーを保存できませんでした。"
        case .statusLine: "パスキーは最新の状態です。"
        case .passkeysSaved(let count): "保存済みのパスキー: \(count)"
        case .signedInWithPasskey(let label): "パスキー「\(label)」でサインインしました。"
        }
    }
}

extension ReferenceSession {
    /// Shows one of the app's own texts, in the design's language.
    func show(_ kind: UIEvent.Kind, _ text: AppText) async {
        await host.show(UIEvent(kind, text.text(in: design.language)))
    }

    /// How the app names a passkey by its provider (F-words: a provider as a label, never a place).
    var providerLabel: String { device.platform == .apple ? "iCloud Keychain" : "Google Password Manager" }

    /// The design's extra UI after a user action, whatever happened (F-extra-ui): a status line.
    func afterAction() async {
        if design.statusLine { await show(.message, .statusLine) }
    }

    /// The design's extra UI at a full sign-in (F-extra-ui, F-words): the home screen's count of the
    /// account's passkeys as the server holds them now, and the passkey's provider label.
    func extraUIAtSignIn(_ username: String, byPasskey: Bool) async {
        if design.passkeyCountScreen {
            let count = state.server.accounts[username]?.credentials.filter { $0.state == .active }.count ?? 0
            await show(.screen, .passkeysSaved(count: count))
        }
        if byPasskey, design.providerLabels { await show(.message, .signedInWithPasskey(label: providerLabel)) }
    }
}
