# Criterion N2.6-AC06 of "Passkey Creation: Automatic Upgrade (conditional create)" (criteria document
# seeds/000_48fd21300f093a6c.txt, group N2.6). Restated in the project's own words.
@criterion:N2.6-AC06 @level:core @group:N2.6 @requires:conditional-create
Feature: N2.6-AC06 A late registration response is not attached to a changed context

  Statement:
    A registration response that arrives after the sign-in context that asked for it has changed
    (the user signed out, switched to another account, or signed in again) is discarded: neither the
    account that asked for it nor the account now active gains a credential from it.
  Verification:
    Hold the credential manager's response back, change the context, then release the response and,
    once the app has nothing left scheduled (so a stale response queued for a later upload is seen),
    compare every account's server-side credential list with the list before the release; then go
    on with every later event that could release a response the app held back (a relaunch, a
    refresh point, a sign-in of each account) and compare again after each. As a control, release
    the same response without a context change, as soon as the app has issued the request: it is
    stored.
  Items:
    V1: response held back past a sign-out: no account's credential list changes, until the app has nothing left scheduled and through every later event that could release it
    V2: past an account switch: neither account's list changes
    V3: past a superseding sign-in of the same account: no list changes
    V4: the same response released without a context change is stored (control: proves the release is live)
  Harness choices:
    After the check the scenario goes on: a refresh point (where the adapter declares one), a
    sign-out and a hand-typed sign-in of every account, each followed by a refresh point, then a
    relaunch (where declared; last, since an app loses what it kept in memory) and a sign-out; the
    lists are compared after each. The responses these sign-ins ask for stay held, so only a
    response from before can change a list.
    "Until the app has nothing left scheduled" has no horizon of the harness's own: every timer the
    app scheduled fires, however far out (an upload queued for 48 hours later is seen), and only a
    recurring schedule of the app's own is not waited out. Anchor: "No stale response changes any
    account's credential list" holds whenever the response is sent. A runaway is stopped by the
    test case's budget of 30 days of virtual time or 10,000 timers in one wait.
    The control releases the held response 1 second after the app issued the request (if the app
    asks a while after the sign-in, the user of the simulation waits for that first, as N2.6-AC05's
    "promptly" allows). Anchor: the source says only that a response made stale by "logout, account
    switching or a superseding login" is rejected and gives no challenge lifetime; WebAuthn Level 3
    recommends ceremony timeouts of 30 seconds to 10 minutes, so a release 1 second later falls
    inside every lifetime a conforming RP chooses (a 30-second challenge passes). A response stored
    then proves the release reaches the server; one dropped or refused a second after its request
    fails the control, while N2.6-X01's own case (answered at once) tells whether the refusal is
    X01's.
    Controls guard, they do not blame: when the released response is not stored and the same
    scenario without its When steps refuses N2.6-X01's own case too (an autofilled sign-in whose
    UP=0 registration is answered at once), the server refuses the upgrade's UP=0 registration,
    which N2.6-X01 judges; V4 is then not verified, pointing at N2.6-X01, never failed. A response
    the app drops or the server refuses for its age, while X01's own case is stored, fails V4.
  Source: N2.6-AC06, "Passkey Creation: Automatic Upgrade (conditional create)", Core
  References:
    WebAuthn Level 3, registration ceremony: the challenge binds the response to its options

  Background:
    Given an account "alice" with the sign-in policy "password only"
    And an account "bob" with the sign-in policy "password only"
    And the credential manager holds a saved password for "alice"
    And the credential manager holds a saved password for "bob"
    And the credential manager holds every registration response until it is released

  @verify:N2.6-AC06.V1
  Scenario: A response released after sign-out changes nothing
    When the user signs in as "alice" with the autofilled password
    And the user signs out
    And the first held registration response is released
    Then releasing the response changed no account's server credentials

  @verify:N2.6-AC06.V2 @needs:account-switch
  Scenario: A response released after an account switch changes nothing
    When the user signs in as "alice" with the autofilled password
    And the user switches to "bob" with the autofilled password
    And the first held registration response is released
    Then releasing the response changed no account's server credentials

  @verify:N2.6-AC06.V3
  Scenario: A response released after a superseding sign-in changes nothing
    When the user signs in as "alice" with the autofilled password
    And the user signs out
    And the user signs in as "alice" with the autofilled password
    And the first held registration response is released
    Then releasing the response changed no account's server credentials

  @verify:N2.6-AC06.V4
  Scenario: The same response released a second later without a context change is stored
    When the user signs in as "alice" with the autofilled password
    And 1 second passes
    And the first held registration response is released
    Then releasing the response stored a passkey for "alice"
