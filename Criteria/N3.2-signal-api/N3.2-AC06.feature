# Criterion N3.2-AC06 of "WebAuthn Signal API" (criteria document seeds/003_2533626f682b527b.txt,
# group N3.2). Restated in the project's own words.
@criterion:N3.2-AC06 @level:core @group:N3.2 @requires:signals @needs:refresh-point
Feature: N3.2-AC06 The supported signal interface for each platform version

  Statement:
    The app signals through the interface the platform version supports: ASCredentialDataManager on
    Apple 26.2 and later, the deprecated ASCredentialUpdater only on Apple 26.0 and 26.1, and
    CredentialManager.signalCredentialState with a compatible androidx.credentials on Android.
  Verification:
    On every signal-capable target (Apple 26.0, 26.1 and 26.2, Android 15 with androidx.credentials
    1.6.0) produce every signal type (an unknown credential, a rename, a reconciliation) and, once
    the app has nothing left scheduled, inspect which interface carried each signal.
  Items:
    V1: Apple 26.2+: ASCredentialDataManager
    V2: Apple 26.0–26.1: ASCredentialUpdater
    V3: Android: signalCredentialState with a compatible androidx.credentials
    V4: every signal type (unknown credential, accepted list, user details) goes through the version's interface
  Harness choices:
    The triggers are five minutes apart, more than the Android window of 120 seconds, so that an
    app's own signal budget (which may drop what it holds back) has no reason to drop one of them.
    Anchor: "Android permits a maximum of 10 calls in any 120-second window"; the gap only keeps
    that limit out of the way and judges nothing.
  Source: N3.2-AC06, "WebAuthn Signal API", Core
  References:
    Apple ASCredentialDataManager (26.2) and ASCredentialUpdater (26.0, deprecated in 26.2)
    androidx.credentials 1.6.0 CredentialManager.signalCredentialState

  Background:
    Given an account "alice" with the sign-in policy "password only"
    And "alice" has 2 passkeys in the credential manager
    And "alice" signs in with the password
    And the app has nothing left scheduled

  @verify:N3.2-AC06.V1 @requires:credential-data-manager
  Scenario: Apple 26.2 and later use ASCredentialDataManager
    When the app reaches its refresh point
    Then every signal goes through ASCredentialDataManager
    And the platform accepted every signal

  @verify:N3.2-AC06.V2 @requires:credential-updater
  Scenario: Apple 26.0 and 26.1 use ASCredentialUpdater
    When the app reaches its refresh point
    Then every signal goes through ASCredentialUpdater
    And the platform accepted every signal

  @verify:N3.2-AC06.V3 @requires:signal-credential-state
  Scenario: Android uses signalCredentialState
    When the app reaches its refresh point
    Then every signal goes through signalCredentialState
    And the platform accepted every signal
    And the app made no call the platform does not support

  @verify:N3.2-AC06.V4 @needs:passkey-sign-in @needs:rename
  Scenario Outline: Every signal type goes through <interface>
    Given the credential manager holds a passkey for "alice" that the server does not know
    When the user signs in with the passkey the server does not know
    And 5 minutes pass
    And the user changes the account's name to "alice.new@example.com" and its display name to "-"
    And 5 minutes pass
    And the app reaches its refresh point
    Then the app sent a signal of every type for "alice"
    And every signal goes through <interface>
    And the platform accepted every signal

    @requires:credential-data-manager
    Examples: Apple 26.2 and later
      | interface               |
      | ASCredentialDataManager |

    @requires:credential-updater
    Examples: Apple 26.0 and 26.1
      | interface           |
      | ASCredentialUpdater |

    @requires:signal-credential-state
    Examples: Android
      | interface             |
      | signalCredentialState |
