# Criterion N3.2-AC03 of "WebAuthn Signal API" (criteria document seeds/003_2533626f682b527b.txt,
# group N3.2). Restated in the project's own words.
@criterion:N3.2-AC03 @level:core @group:N3.2 @requires:signals
Feature: N3.2-AC03 Reconciliation follows the right triggers, once, with the latest state

  Statement:
    A successful passkey creation, a revocation and the app's documented authenticated refresh point
    each schedule a reconciliation of the account's complete accepted list. Triggers that arrive
    close together share one reconciliation, which carries the server's state at the time it is
    sent. A failed creation (cancelled, refused by the platform or rejected by the server), the
    refresh point reached while signed out and a failed passkey sign-in schedule nothing. A list the
    app sends on its own schedule anyway never stands in for a trigger's reconciliation.
  Verification:
    After a signed-in start that has settled, create a passkey successfully and unsuccessfully
    (cancelled, refused by the platform, rejected by the server), revoke one, reach the refresh
    point signed in and signed out, fail a passkey sign-in while signed out, and fire several
    triggers at once. Each scenario first proves its path (the creation succeeded or failed for its
    reason, the revocation took effect, the refresh point was reached signed in or signed out).
    Once the app has nothing left scheduled, count the accepted-list signals the trigger added and compare the last one with the server's list. Every count is a difference:
    the signals sent after the trigger minus those the same scenario, run in a fresh session
    without its When steps, sends over the same span of virtual time.
  Items:
    V1: successful creation: one reconciliation
    V2: failed creation (cancelled, refused by the platform or rejected by the server): adds no work; the signals equal those of the same scenario without it
    V3: revocation: one
    V4: the documented authenticated refresh point: one
    V5: the same path unauthenticated (a signed-out refresh, a failed passkey sign-in): adds no work
    V6: several triggers close together: pending work is coalesced, and what is sent carries the latest server state
  Harness choices:
    The RP may also reconcile at other documented authenticated points (every sign-in, every
    foreground, a recurring timer), at once or after any coalescing window: counts are differences
    with the run without the trigger, so that schedule cancels out, and wait for quiescence.
    Work still pending once the triggers are over is coalesced per account: at most one
    accepted-list signal follows the last trigger (an app that sends at once, with no coalescing
    window, has nothing pending). "At most 3" for three triggers is the count an app without any
    coalescing window sends; it is no stricter than the source.
    A trigger causes its reconciliation by difference: "exactly 1" counts the lists the run with
    the trigger has beyond the same run without it, once the app has nothing left scheduled (the
    wait follows the RP's own scheduled work, up to 24 hours), so any coalescing window passes. A
    list that the RP's own schedule sends (a recurring timer) is sent without the trigger too and
    never stands in for a trigger the RP ignored.
    Each path proves itself first: the creation succeeded and the server stored the passkey, the
    revocation took effect, the refresh point was reached signed in (or signed out); the failed
    creations failed for their reason (the platform reported the cancellation, refused for an
    excluded passkey, the server refused the response). A proof that fails leaves the item not
    verified, saying what was seen and pointing at the criterion that explains it (a server that
    refuses the passkey's flags: N2.6-X01; a revocation the app refuses: N3.2-AC01), never failed.
    The creation the server rejects answers a challenge the server never issued, which every server
    refuses (WebAuthn Level 3, §7.1); it does not rest on N2.6-X02's UP check, a recommendation.
    The trigger comes 3 minutes after the signed-in start settles, past the Android window of 120
    seconds, so that an app's own signal budget has room for it. Anchor: "Android permits a
    maximum of 10 calls in any 120-second window"; the gap only keeps that limit out of the way.
    Pending work is forced on Android with one rate-limited signal (retryMillis 60 s). Anchor:
    "SignalCredentialRateLimitExceededException carries a retryMillis value, so back off by that
    amount"; any value would do.
    Waiting for quiescence has no horizon of the harness's own: every timer the app scheduled
    fires, however long its coalescing window or batch (work 48 hours out is seen). Anchor:
    "Equivalent pending work is coalesced" names no window.
  Source: N3.2-AC03, "WebAuthn Signal API", Core
  References:
    WebAuthn Level 3, signalAllAcceptedCredentials
    Android SignalAllAcceptedCredentialIdsRequest; Apple reportAllAcceptedPublicKeyCredentials

  Background:
    Given an account "alice" with the sign-in policy "password only"
    And the server holds 2 passkeys for "alice" made with other credential managers
    And "alice" signs in with the password
    And the app has nothing left scheduled
    And 3 minutes pass

  @verify:N3.2-AC03.V1 @needs:explicit-creation
  Scenario: A successful creation schedules one reconciliation
    When the user creates a passkey from the app's settings
    Then the creation took the path: the server stored the passkey the platform made for "alice"
    And exactly 1 accepted-credentials signal has been sent for "alice"
    And the last accepted-credentials signal for "alice" lists exactly the server's accepted passkeys

  @verify:N3.2-AC03.V2 @needs:explicit-creation
  Scenario: A cancelled creation adds no work
    When the user cancels the passkey creation from the app's settings
    Then the creation took the path: the platform reported the cancellation
    And the app sent the same signals as it does without the When steps

  @verify:N3.2-AC03.V2 @needs:explicit-creation @requires:exclusion-list
  Scenario: A creation the platform refuses adds no work
    Given "alice" has 1 passkey in the credential manager
    And the app has nothing left scheduled
    When the platform refuses the passkey creation from the app's settings
    Then the creation took the path: the platform refused it for a passkey the credential manager already holds
    And the app sent the same signals as it does without the When steps

  @verify:N3.2-AC03.V2 @needs:explicit-creation
  Scenario: A creation the server rejects adds no work
    When the passkey created from the app's settings answers a challenge the server never issued
    Then the creation took the path: the platform made the passkey and the server refused it
    And the server holds 2 accepted passkeys for "alice"
    And the app sent the same signals as it does without the When steps

  @verify:N3.2-AC03.V3 @needs:revocation
  Scenario: A revocation schedules one reconciliation
    When the user revokes a passkey of "alice"
    Then the revocation took the path: the server no longer accepts the passkeys the user revoked for "alice"
    And exactly 1 accepted-credentials signal has been sent for "alice"
    And the last accepted-credentials signal for "alice" lists exactly the server's accepted passkeys

  @verify:N3.2-AC03.V4 @needs:refresh-point
  Scenario: The authenticated refresh point schedules one reconciliation
    When the app reaches its refresh point
    Then the refresh point took the path: the app reached it signed in as "alice"
    And exactly 1 accepted-credentials signal has been sent for "alice"
    And the last accepted-credentials signal for "alice" lists exactly the server's accepted passkeys

  @verify:N3.2-AC03.V5 @needs:refresh-point
  Scenario: The refresh point reached while signed out adds no work
    Given the user signs out
    And the app has nothing left scheduled
    When the app reaches its refresh point
    Then the refresh point took the path: the app reached it signed out
    And the app sent the same signals as it does without the When steps

  @verify:N3.2-AC03.V5 @needs:passkey-sign-in
  Scenario: A failed passkey sign-in while signed out adds no work
    Given "alice" has 1 passkey in the credential manager
    And the user signs out
    And the app has nothing left scheduled
    When the user signs in with a passkey of "alice" whose signature is invalid
    Then the sign-in took the path: the platform returned the assertion and the app refused it
    And the app sent the same signals as it does without the When steps

  # A sign-in that does not authenticate is the unauthenticated path too: a refused password, or a
  # password accepted whose second factor then fails.
  @verify:N3.2-AC03.V5 @needs:signals
  Scenario: A refused password adds no work
    Given the user signs out
    And the app has nothing left scheduled
    When "alice" enters a wrong password
    Then the app sent the same signals as it does without the When steps
    And no signal left for an account that was not signed in

  @verify:N3.2-AC03.V5 @needs:signals
  Scenario: A failed second factor adds no work
    Given an account "carol" with the sign-in policy "password and second factor"
    And the server holds 2 passkeys for "carol" made with other credential managers
    And the user signs out
    And the app has nothing left scheduled
    When "carol" enters the password and the app asks for the second factor
    And the user answers the second factor "wrong"
    Then the app sent the same signals as it does without the When steps
    And no signal left for an account that was not signed in

  # Work a trigger left pending belongs to the account that was signed in: once that account signs
  # out or the user switches away, nothing of it may leave (the monitor signals-only-while-signed-in
  # watches every test case; these two drive its path).
  @verify:N3.2-AC03.V5 @needs:explicit-creation
  Scenario: Work pending at a sign-out is never sent once the account is signed out
    When the user creates a passkey from the app's settings
    And the user signs out
    Then no signal left for an account that was not signed in

  @verify:N3.2-AC03.V5 @needs:explicit-creation
  Scenario: Work pending at an account switch is never sent for the account switched away from
    Given an account "bob" with the sign-in policy "password only"
    When the user creates a passkey from the app's settings
    And the user switches to "bob" typing the password by hand
    Then no signal left for an account that was not signed in

  @verify:N3.2-AC03.V6 @needs:revocation @needs:refresh-point
  Scenario: Triggers close together end with the latest state
    Given "alice" has 2 passkeys in the credential manager
    When the user revokes a passkey of "alice"
    And the user revokes a passkey of "alice"
    And the app reaches its refresh point
    Then the revocation took the path: the server no longer accepts the passkeys the user revoked for "alice"
    And the refresh point took the path: the app reached it signed in as "alice"
    And the platform took at most 3 accepted-credentials signals for "alice"
    And the app sent at most 1 accepted-credentials signal for "alice" after the last trigger
    And the last accepted-credentials signal for "alice" lists exactly the server's accepted passkeys

  @verify:N3.2-AC03.V6 @needs:revocation @needs:refresh-point @platform:android
  Scenario: Triggers held by a rate limit share one reconciliation with the latest state
    Given "alice" has 2 passkeys in the credential manager
    And the platform rejects the next signal with a rate limit of 60 seconds
    And the app reaches its refresh point
    And the platform has rate-limited one of the app's signals
    When the user revokes a passkey of "alice"
    And the user revokes a passkey of "alice"
    And the app reaches its refresh point
    Then the revocation took the path: the server no longer accepts the passkeys the user revoked for "alice"
    And the refresh point took the path: the app reached it signed in as "alice"
    And the platform took at most 1 accepted-credentials signal for "alice"
    And every accepted-credentials signal for "alice" lists exactly the server's accepted passkeys
