# Criterion N3.2-AC01 of "WebAuthn Signal API" (criteria document seeds/003_2533626f682b527b.txt,
# group N3.2). Restated in the project's own words.
@criterion:N3.2-AC01 @level:core @group:N3.2 @needs:passkey-sign-in @needs:rename @needs:revocation
Feature: N3.2-AC01 Signals are an optional extra, checked at run time

  Statement:
    The app finds out at run time whether the device's OS and credential library offer a signal
    interface, and uses it only as an enhancement. Where none is offered, signing in, changing the
    profile and managing passkeys work exactly as they do with signals, without a crash and without
    calling an API the device does not have.
  Verification:
    Sign in with a passkey, rename the account and revoke a passkey on targets with and without a
    signal interface; compare the outcomes and look for calls the platform does not support.
  Items:
    V1: login, profile update and passkey management with the API available: expected results
    V2: the same with the API unavailable (OS or library): the same results, no unsupported call, no crash
  Source: N3.2-AC01, "WebAuthn Signal API", Core
  References:
    Android Developers, Signal API for relying parties: availability by Android version and library
    Apple ASCredentialDataManager (26.2) and ASCredentialUpdater (26.0)

  Background:
    Given an account "alice" with the sign-in policy "password only"
    And "alice" has 2 passkeys in the credential manager

  @verify:N3.2-AC01.V1 @requires:signals
  Scenario: With a signal interface every operation gives its result
    When the user signs in with a passkey of "alice"
    And the user changes the account's name to "alice.new@example.com" and its display name to "-"
    And the user revokes a passkey of "alice"
    And 5 seconds pass
    Then "alice" is signed in
    And the account name of "alice" is "alice.new@example.com"
    And the server holds 1 revoked passkey for "alice"
    And the app made no call the platform does not support

  @verify:N3.2-AC01.V2 @requires:no-signals
  Scenario: Without a signal interface every operation gives the same result
    When the user signs in with a passkey of "alice"
    And the user changes the account's name to "alice.new@example.com" and its display name to "-"
    And the user revokes a passkey of "alice"
    And the user opens passkey management
    And 5 seconds pass
    Then "alice" is signed in
    And the account name of "alice" is "alice.new@example.com"
    And the server holds 1 revoked passkey for "alice"
    And the app made no call the platform does not support
    And the app showed no error
