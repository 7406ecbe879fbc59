# Criterion N3.2-AC05 of "WebAuthn Signal API" (criteria document seeds/003_2533626f682b527b.txt,
# group N3.2). Restated in the project's own words.
@criterion:N3.2-AC05 @level:core @group:N3.2 @platform:android @requires:signal-credential-state @needs:refresh-point
Feature: N3.2-AC05 Android signals keep within ten calls per 120 seconds

  Statement:
    On Android the app makes at most ten signalCredentialState calls in any 120-second window. When
    the platform still answers with SignalCredentialRateLimitExceededException, the app either drops
    the signal or retries it no earlier than the exception's retryMillis, and a retry is built from
    the server's state at that time rather than replaying the payload that was refused.
  Verification:
    Fire more than ten eligible triggers within 120 seconds, of one signal type, of several types
    together and for two configured RPs together, and count the calls in every window once the app
    has nothing left scheduled;
    force a rate-limit exception, change the server's state after the refusal, and check the time
    and the content of any retry.
  Items:
    V1: more than ten eligible triggers within 120 s: never more than ten calls in any window
    V2: forced rate-limit exception: dropping is allowed; a retry comes no earlier than retryMillis
    V3: a retry, if there is one, carries the current server state, never the stale payload
    V4: the window counts every signal type together (unknown credential, accepted list, user details)
  Harness choices:
    Renames and unknown-credential sign-ins are the eligible triggers because each calls for its
    own signal; triggers of one account's list may be coalesced and would not reach the limit.
    Fourteen renames 5 seconds apart (and eight renames with four unknown-credential sign-ins) put
    more than ten eligible triggers inside one 120-second window (anchor: "Generate more than ten
    eligible triggers in 120 seconds"). The window is the app's, whatever RP a signal names: seven
    renames of an account on the primary RP with five unknown-credential sign-ins on the second RP
    put twelve triggers of two RPs in one window (anchor: "Android permits a maximum of 10 calls in
    any 120-second window"); the second RP stands for any further one, since a budget kept per RP
    is broken by any two. An adapter that declares one RP ID leaves that scenario not verified. The forced rate limit asks for a retryMillis of 60
    seconds; any value would do (anchor: "back off by that amount rather than retrying blind"). An app may drop what its own budget or a rate
    limit holds back, so the renames are not required to reach the platform; what does reach it is
    never older than what reached it before. A call made in the same breath as a refused one (a
    batch) could not know of the refusal: only calls made after the refusal reached the app are
    held to its retryMillis.
  Source: N3.2-AC05, "WebAuthn Signal API", Core
  References:
    androidx.credentials SignalCredentialRateLimitExceededException.retryMillis
    Android Developers, Signal API for relying parties: ten calls in any 120-second window

  Background:
    Given an account "alice" with the sign-in policy "password only"
    And "alice" has 3 passkeys in the credential manager
    And "alice" signs in with the password
    And the app has nothing left scheduled

  @verify:N3.2-AC05.V1 @needs:rename
  Scenario: Fourteen renames in 65 seconds stay within the budget
    When the user changes the account's name 14 times, 5 seconds apart
    Then the app never made more than 10 signal calls in any 120-second window
    And no user-details signal for "alice" carries an older name than one sent before it

  @verify:N3.2-AC05.V2
  Scenario: A rate-limited signal is not retried early
    Given the platform rejects the next signal with a rate limit of 60 seconds
    When the app reaches its refresh point
    Then every rate-limited signal was retried no earlier than the platform asked

  @verify:N3.2-AC05.V3
  Scenario: A retry carries the server's current state
    Given the platform rejects the next signal with a rate limit of 60 seconds
    When the app reaches its refresh point
    And the platform has rate-limited one of the app's signals
    And the server holds 1 passkey for "alice" made with other credential managers
    Then every rate-limited signal was retried no earlier than the platform asked
    And every accepted-credentials signal for "alice" made after the rate limit reached the app lists exactly the server's accepted passkeys

  @verify:N3.2-AC05.V4 @needs:rename @needs:passkey-sign-in
  Scenario: Signals of every type share one budget
    When the user changes the account's name 8 times, 5 seconds apart
    And the user signs in with 4 passkeys of "alice" the server does not know, 5 seconds apart
    Then the app never made more than 10 signal calls in any 120-second window

  # The budget is the app's, across every RP it serves: signals for the second RP count with the
  # primary RP's in the same window.
  @verify:N3.2-AC05.V1 @needs:rename @needs:passkey-sign-in
  Scenario: Signals for every configured RP share one budget
    Given an account "bob" on the second RP with the sign-in policy "password only"
    When the user changes the account's name 7 times, 5 seconds apart
    And the user signs in with 5 passkeys of "bob" the server does not know, 5 seconds apart
    Then the app never made more than 10 signal calls in any 120-second window
