# Criterion N3.2-AC08 of "WebAuthn Signal API" (criteria document seeds/003_2533626f682b527b.txt,
# group N3.2). Restated in the project's own words.
@criterion:N3.2-AC08 @level:core @group:N3.2 @requires:signals @needs:revocation
Feature: N3.2-AC08 An accepted signal proves nothing about the credential manager

  Statement:
    A signal the platform accepts says only that the request was well formed. The app never tells
    the user, and the server never records, that a credential manager updated, hid, removed or
    restored a passkey because of it.
  Verification:
    Let the platform accept every signal while the credential manager does nothing with it; once the
    app has nothing left scheduled, judge everything the app showed after the first signal (errors,
    messages, confirmations and screens alike) by what it claims, and look at what the server holds.
  Items:
    V1: the platform accepts, the provider does nothing: no product message or server state claims a provider-side result
  Harness choices:
    A text claims a provider-side result when it names the device or a credential manager (device,
    phone, keychain, iCloud, Google, password or credential manager, provider) together with
    something done to a passkey there (removed, deleted, hidden, updated, restored, synced, cleared,
    renamed).
  Source: N3.2-AC08, "WebAuthn Signal API", Core
  References:
    WebAuthn Level 3, signal methods resolve without saying what any authenticator did
    Apple ASCredentialDataManager: success does not mean a credential manager acted

  @verify:N3.2-AC08.V1
  Scenario: Nothing claims the credential manager acted
    Given an account "alice" with the sign-in policy "password only"
    And "alice" has 2 passkeys in the credential manager
    And the credential manager ignores signals
    And the user signs in as "alice" typing the password by hand
    When the user revokes a passkey of "alice"
    Then at least one signal has been sent
    And the app claimed nothing about the credential manager's passkeys
    And the server holds 1 passkey for "alice"
    And the server holds 1 revoked passkey for "alice"
