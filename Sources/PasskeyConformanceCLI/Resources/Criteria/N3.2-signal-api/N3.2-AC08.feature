# Criterion N3.2-AC08 of "WebAuthn Signal API" (criteria document seeds/003_2533626f682b527b.txt,
# group N3.2). Restated in the project's own words.
@criterion:N3.2-AC08 @level:core @group:N3.2 @requires:signals @needs:revocation
Feature: N3.2-AC08 An accepted signal proves nothing about the credential manager

  Statement:
    A signal the platform accepts says only that the request was well formed. The app never tells
    the user, and the server never records, that a credential manager updated, hid, removed or
    restored a passkey because of it.
  Verification:
    Let the platform accept every signal while the credential manager does nothing with it; produce
    every signal kind (unknown credential, accepted list, user details) and a revocation; once the
    app has nothing left scheduled, judge everything the app showed in the whole scenario, before
    the first signal and after each (errors, messages, confirmations and screens alike), by what it
    claims, and look at what the server holds.
  Items:
    V1: the platform accepts, the provider does nothing: no product message or server state claims a provider-side result
    V2: the same before the first signal and for every signal kind (unknown credential, accepted list, user details): no claim at any moment
  Harness choices:
    What the app shows is judged by cause, then by meaning. An event is the doing of the app's
    signals when the same scenario, replayed on the same target where the platform offers no
    signal interface (the OS version just below the signal APIs' floor), does not show it; the
    events are compared by kind and text, in order, so a notice or status line shown whatever the
    app signals is never judged, in any words. Such an event fails in any language unless the
    harness's reader of English product text, held to a corpus of sentences kept with the tests
    (at least 50 claims and 50 non-claims), reads every sentence of it as claiming nothing: one
    that hedges, negates, asks or waits ("may still appear on this device until your password
    manager updates it", "we asked your password manager"), or says that what was done was done
    to the account or on the server; a provider named in quotation marks is a label, not a place
    ("Passkey "Google Password Manager" was removed from your account" claims nothing). A sentence
    claims a provider-side result when it states, without hedging, that something was done to a
    passkey at a provider place (the device, a password or credential manager, a keychain, a named
    provider). A failure quotes the text and says it is the harness's reading.
    The server may keep a revoked passkey as an inactive record or delete it; either way it no
    longer accepts it.
    The triggers are five minutes apart, more than the Android window of 120 seconds, so that an
    app's own signal budget (which may drop what it holds back) has no reason to drop one of them.
    Anchor: "Android permits a maximum of 10 calls in any 120-second window"; the gap only keeps
    that limit out of the way and judges nothing.
  Source: N3.2-AC08, "WebAuthn Signal API", Core
  References:
    WebAuthn Level 3, signal methods resolve without saying what any authenticator did
    Apple ASCredentialDataManager: success does not mean a credential manager acted

  @verify:N3.2-AC08.V1
  Scenario: Nothing claims the credential manager acted
    Given an account "alice" with the sign-in policy "password only"
    And "alice" has 2 passkeys in the credential manager
    And the credential manager ignores signals
    And "alice" signs in with the password
    When the user revokes a passkey of "alice"
    Then at least one signal has been sent
    And the app claimed nothing about the credential manager's passkeys
    And the server holds 1 accepted passkey for "alice"
    And the server no longer accepts the passkey the user revoked for "alice"

  @verify:N3.2-AC08.V2 @needs:passkey-sign-in @needs:rename @needs:refresh-point
  Scenario: Nothing claims the credential manager acted, before the first signal or after any kind
    Given an account "alice" with the sign-in policy "password only"
    And "alice" has 2 passkeys in the credential manager
    And the credential manager holds a passkey for "alice" that the server does not know
    And the credential manager ignores signals
    When the user signs in with the passkey the server does not know
    And 5 minutes pass
    And the user signs in with a passkey of "alice"
    And 5 minutes pass
    And the user changes the account's name to "alice.new@example.com" and its display name to "Alice N."
    And 5 minutes pass
    And the app reaches its refresh point
    And 5 minutes pass
    And the user revokes a passkey of "alice"
    Then the app sent a signal of every type for "alice"
    And the app claimed nothing about the credential manager's passkeys
    And the server no longer accepts the passkey the user revoked for "alice"
