# Criterion N3.2-AC01 of "WebAuthn Signal API" (criteria document seeds/003_2533626f682b527b.txt,
# group N3.2). Restated in the project's own words.
@criterion:N3.2-AC01 @level:core @group:N3.2 @needs:passkey-sign-in @needs:rename @needs:revocation @needs:refresh-point
Feature: N3.2-AC01 Signals are an optional extra, checked at run time

  Statement:
    The app finds out at run time whether the device's OS and credential library offer a signal
    interface, and uses it only as an enhancement. Where none is offered, signing in, changing the
    profile and managing passkeys work exactly as they do with signals, without a crash and without
    calling an API the device does not have.
  Verification:
    Present a passkey the server does not know, sign in with a passkey, rename the account, revoke a
    passkey, reach the refresh point and open passkey management on targets with and without a
    signal interface; once the app has nothing left scheduled, judge each operation by its outcome
    (who is signed in, the server's name, which passkeys the server still accepts, the app's
    answer to each action) and look for calls the platform does not support. A revoked passkey may
    be kept inactive or deleted; either way the server no longer accepts it. With a signal
    interface, do the same while the platform holds back its answer to every signal, and while it
    fails every signal: a signal is fire-and-forget, so the revocation, the profile change and
    every flow give their result without its answer, and a failed signal undoes none of them.
  Items:
    V1: login, profile update and passkey management with the API available: expected results
    V2: the same with the API unavailable (OS or library): the same results, no unsupported call, no crash
  Harness choices:
    No count and no number: each operation is judged by its outcome once the app has nothing left
    scheduled (a recurring schedule of the app's own is not waited out), never by the calls the app
    made to reach it. The same operations run with and without a signal interface.
    A flow waits for a signal when the app answers its action `pending` (waiting for the platform)
    after starting only signals in it; one that also started something else, such as a passkey
    sign-in to confirm the user, may wait for that. Anchor: "Revocation never waits for the
    signal", "Do not block the profile change", "Treat it as fire-and-forget hygiene, and never
    block a UI flow on the result".
  Source: N3.2-AC01, "WebAuthn Signal API", Core
  References:
    Android Developers, Signal API for relying parties: availability by Android version and library
    Apple ASCredentialDataManager (26.2) and ASCredentialUpdater (26.0)

  Background:
    Given an account "alice" with the sign-in policy "password only"
    And "alice" has 2 passkeys in the credential manager
    And the credential manager holds a passkey for "alice" that the server does not know

  @verify:N3.2-AC01.V1 @requires:signals
  Scenario: With a signal interface every operation gives its result
    When the user signs in with the passkey the server does not know
    And the user signs in with a passkey of "alice"
    And the user changes the account's name to "alice.new@example.com" and its display name to "-"
    And the user revokes a passkey of "alice"
    And the app reaches its refresh point
    And the user opens passkey management
    And the app has nothing left scheduled
    Then "alice" is signed in
    And the account name of "alice" is "alice.new@example.com"
    And the server holds 1 accepted passkey for "alice"
    And the server no longer accepts the passkey the user revoked for "alice"
    And the app opened passkey management
    And the app made no call the platform does not support

  @verify:N3.2-AC01.V2 @requires:no-signals
  Scenario: Without a signal interface every operation gives the same result
    When the user signs in with the passkey the server does not know
    And the user signs in with a passkey of "alice"
    And the user changes the account's name to "alice.new@example.com" and its display name to "-"
    And the user revokes a passkey of "alice"
    And the app reaches its refresh point
    And the user opens passkey management
    And the app has nothing left scheduled
    Then "alice" is signed in
    And the account name of "alice" is "alice.new@example.com"
    And the server holds 1 accepted passkey for "alice"
    And the server no longer accepts the passkey the user revoked for "alice"
    And the app opened passkey management
    And the app made no call the platform does not support

  @verify:N3.2-AC01.V1 @requires:signals
  Scenario: No operation waits for the platform's answer to a signal
    Given the credential manager holds every signal's answer until it is released
    And "alice" signs in with the password
    When the user changes the account's name to "alice.new@example.com" and its display name to "-"
    And the user revokes a passkey of "alice"
    And the app reaches its refresh point
    And the user opens passkey management
    And the app has nothing left scheduled
    Then "alice" is signed in
    And the account name of "alice" is "alice.new@example.com"
    And the server no longer accepts the passkey the user revoked for "alice"
    And the app opened passkey management
    And the app answered every user action without waiting for a signal

  @verify:N3.2-AC01.V1 @requires:signals
  Scenario: A failed signal undoes no operation
    Given the platform fails every signal
    And "alice" signs in with the password
    When the user changes the account's name to "alice.new@example.com" and its display name to "-"
    And the user revokes a passkey of "alice"
    And the app reaches its refresh point
    And the user opens passkey management
    And the app has nothing left scheduled
    Then "alice" is signed in
    And the account name of "alice" is "alice.new@example.com"
    And the server no longer accepts the passkey the user revoked for "alice"
    And the app opened passkey management
    And the app answered every user action without waiting for a signal
