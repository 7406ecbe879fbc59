/// The identities of the step definitions that another part of the harness names: `explore`
/// binds its typed steps to these, so that a step's sentence is written once, in its definition.
extension StepDefinition.ID {
    /// `an account {string} with the sign-in policy {string}`
    public static let account = Self("an account {string} with the sign-in policy {string}")
    /// `the credential manager holds a saved password for {string}`
    public static let savedPassword = Self("the credential manager holds a saved password for {string}")
    /// `{string} has {int} passkey(s) in the credential manager`
    public static let providerPasskeys = Self("{string} has {int} passkey(s) in the credential manager")
    /// `{string} has a revoked passkey in the credential manager`
    public static let revokedProviderPasskey = Self("{string} has a revoked passkey in the credential manager")
    /// `the credential manager holds a passkey for {string} that the server does not know`
    public static let passkeyUnknownToServer = Self("the credential manager holds a passkey for {string} that the server does not know")
    /// `the user signs in as {string} with the autofilled password`
    public static let signInAutofilled = Self("the user signs in as {string} with the autofilled password")
    /// `the user signs in as {string} typing the password by hand`
    public static let signInTyped = Self("the user signs in as {string} typing the password by hand")
    /// `the user signs in as {string} with the password saved for {string}`
    public static let signInWithAnothersPassword = Self("the user signs in as {string} with the password saved for {string}")
    /// `the user switches to {string} typing the password by hand`
    public static let switchAccountTyped = Self("the user switches to {string} typing the password by hand")
    /// `the user switches to {string} with the autofilled password`
    public static let switchAccountAutofilled = Self("the user switches to {string} with the autofilled password")
    /// `the user answers the second factor {string}`
    public static let secondFactor = Self("the user answers the second factor {string}")
    /// `the user signs in as {string} through account recovery`
    public static let recoverySignIn = Self("the user signs in as {string} through account recovery")
    /// `the user signs in as {string} through {string}`
    public static let alternativeSignIn = Self("the user signs in as {string} through {string}")
    /// `the user signs out`
    public static let signOut = Self("the user signs out")
    /// `the app is relaunched`
    public static let relaunch = Self("the app is relaunched")
    /// `the app reaches its refresh point`
    public static let refreshPoint = Self("the app reaches its refresh point")
    /// `the user revokes a passkey of {string}`
    public static let revokePasskey = Self("the user revokes a passkey of {string}")
    /// `the user signs in with a passkey of {string}`
    public static let passkeySignIn = Self("the user signs in with a passkey of {string}")
    /// `the user signs in with the passkey the server does not know`
    public static let passkeySignInUnknownToServer = Self("the user signs in with the passkey the server does not know")
    /// `the user signs in with the revoked passkey`
    public static let passkeySignInRevoked = Self("the user signs in with the revoked passkey")
    /// `the user signs in with a passkey of {string} whose signature is invalid`
    public static let passkeySignInInvalidSignature = Self("the user signs in with a passkey of {string} whose signature is invalid")
    /// `the user cancels the passkey sign-in for {string}`
    public static let cancelPasskeySignIn = Self("the user cancels the passkey sign-in for {string}")
    /// `the user changes the account's name to {string} and its display name to {string}`
    public static let rename = Self("the user changes the account's name to {string} and its display name to {string}")
    /// `the user creates a passkey from the app's settings`
    public static let createPasskeyFromSettings = Self("the user creates a passkey from the app's settings")
    /// `the credential manager holds every registration response until it is released`
    public static let holdRegistrationResponses = Self("the credential manager holds every registration response until it is released")
    /// `the first held registration response is released`
    public static let releaseFirstHeldResponse = Self("the first held registration response is released")
    /// `the credential manager fails the next conditional registration with {string}`
    public static let failNextRegistration = Self("the credential manager fails the next conditional registration with {string}")
    /// `the platform rejects the next signal with a rate limit of {int} seconds`
    public static let rateLimitNextSignal = Self("the platform rejects the next signal with a rate limit of {int} seconds")
    /// `the authenticator reports the flags {string}`
    public static let authenticatorFlags = Self("the authenticator reports the flags {string}")
    /// `the credential manager holds every signal's answer until it is released`
    public static let holdSignals = Self("the credential manager holds every signal's answer until it is released")
    /// `the platform fails every signal`
    public static let failSignals = Self("the platform fails every signal")
    /// `the server's answer to the app's next request is lost after the server committed it`
    public static let loseNextAnswer = Self("the server's answer to the app's next request is lost after the server committed it")
    /// `{int} second(s) pass`
    public static let secondsPass = Self("{int} second(s) pass")
    /// `{int} second passes`
    public static let secondPasses = Self("{int} second passes")
    /// `{int} minute(s) pass`
    public static let minutesPass = Self("{int} minute(s) pass")
    /// `{int} minute passes`
    public static let minutePasses = Self("{int} minute passes")
    /// `the app has nothing left scheduled`
    public static let quiescence = Self("the app has nothing left scheduled")
}
