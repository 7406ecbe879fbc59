extension TargetCatalog {
    /// The web targets: a relying party's page in Chromium, whose WebAuthn and signal methods are
    /// the browser's own and whose conditional creation the harness's credential-manager model
    /// decides (Chromium in automation reaches no credential manager that fulfils it). Each stands
    /// for a browser as a user may have it: all of the API; a credential manager that declines
    /// every conditional creation; a browser without the signal methods; one without conditional
    /// creation. They join a plan when the adapter declares them.
    public static let web: [Target] = [
        Target(
            id: "web-chromium", title: "Chromium: conditional create and the signal methods",
            platform: .web, osVersion: "156", provider: .browserModel,
            features: [.conditionalCreateAPI, .conditionalCreate, .exclusionList, .signals]),
        Target(
            id: "web-chromium-declining", title: "Chromium whose credential manager declines every conditional create",
            platform: .web, osVersion: "156", provider: .browserModel,
            features: [.conditionalCreateAPI, .exclusionList, .signals]),
        Target(
            id: "web-chromium-no-signals", title: "Chromium without the signal methods of PublicKeyCredential",
            platform: .web, osVersion: "156", provider: .browserModel,
            features: [.conditionalCreateAPI, .conditionalCreate, .exclusionList]),
        Target(
            id: "web-chromium-no-conditional-create", title: "Chromium without conditional create",
            platform: .web, osVersion: "156", provider: .browserModel,
            features: [.exclusionList, .signals]),
    ]
}
