# Criterion N3.2-AC02 of "WebAuthn Signal API" (criteria document seeds/003_2533626f682b527b.txt,
# group N3.2). Restated in the project's own words.
@criterion:N3.2-AC02 @level:core @group:N3.2 @requires:signals @needs:passkey-sign-in
Feature: N3.2-AC02 Unknown-credential signals only for ids the server has never had

  Statement:
    The app reports a credential as unknown only when the server confirms it holds no record of the
    presented credential id. A credential the server knows but has revoked is refused and handled by
    reconciling the complete accepted list while the user is signed in, never by sending the
    account's list to a client that has not signed in. A restricted account, an invalid signature,
    a response naming an origin or an RP ID the server does not accept, a response that cannot be
    read, an expired challenge, a network failure (also an answer lost on its way back after the
    server committed, and the refusal of the app's retry that follows it), a cancelled sheet or a
    credential lookup that failed say nothing about the credential and never lead to an
    unknown-credential signal.
  Verification:
    Present an absent credential id, a revoked one, a passkey of a restricted account, an invalid
    signature, a response naming another origin, authenticator data naming another RP ID or cut
    short, and an expired challenge; break the network while the assertion is verified, and lose
    the server's answer after it committed a sign-in or a registration (so that a retry is refused);
    cancel the sheet; fail the server's credential lookup; present another account's passkey the
    server knows. Each negative case first proves its path: the
    platform returned the intended assertion (or the cancellation) and the app refused the sign-in,
    for the item's reason. Then, once the app has nothing left scheduled, count the signals the
    sign-in added: those sent after it minus those the same scenario sends without it over the
    same span of time.
  Items:
    V1: absent credential id: one unknown-credential signal
    V2: known but revoked credential: no unknown-credential signal, the sign-in refused, and no accepted list sent to the client that is not signed in
    V3: restricted account: no signal
    V4: invalid signature, a response naming an origin or an RP ID the server does not accept (the source's "RP or origin mismatch"), or a malformed response (its "other transport and verification errors"): no signal
    V5: expired challenge: no signal
    V6: network error while the assertion is verified, on the way to the server or back after it committed (a sign-in or a registration whose answer was lost), and the refusal of the app's retry: no signal
    V7: cancellation: no signal
    V8: a failed or timed-out credential lookup is not "conclusively absent": no signal
  Harness choices:
    The network and lookup faults persist until the session ends, so that the failure path is
    reached whatever the app's retry policy (an app may retry any number of times, then take the
    path the answer calls for). An answer lost after the server committed strikes once: the
    server has signed the user in (or stored the passkey), and the app's retry, if it makes one,
    gets the server's real answer to a replay, typically a refusal ("no such challenge", "already
    registered") that says nothing about the credential either. That fault is armed in the When
    steps, so that the same scenario without them (where no answer is lost) shows that the server
    accepts the sign-in it committed.
    An expired challenge is produced by holding the response for 60 minutes, longer than any
    challenge lifetime WebAuthn suggests (its default timeouts are a few minutes). A server with a
    clock of its own does not see those minutes pass and may accept the response. Anchor: "Do not
    send it for ... expired challenges" needs a challenge past its lifetime, which the source
    leaves to the RP; a server whose challenge is still valid after 60 minutes signs the user in,
    and V5 is then not verified, never failed, so the number is no stricter than the source.
    The protocol carries no reason with a refused passkey sign-in, so a negative item proves its
    reason by construction: the platform delivered the assertion the step chose, with its request's
    challenge and its platform's origin for the request's RP ID (another origin only where the step
    builds one: https://relay.<RP ID>.invalid; authenticator data naming another RP ID only where
    the step builds it: other.<RP ID>.invalid; authenticator data cut to 20 bytes only where the
    step builds it); exactly one cause of refusal is built into the
    scenario (a network or lookup fault hides the causes the server would judge after it); and
    where the cause is one the server judges, the same scenario without its When steps signs a
    valid passkey in. Otherwise the refusal may have another reason (an origin the app does not
    accept refuses every sign-in) and the item is not verified, with what was seen.
    The negative items V3 to V8 forbid a signal, not the sign-in: when the app signs in anyway
    (an expired challenge a server's own clock never reached, a restricted account the server
    admits), the path was not reached and the item is not verified, never failed. V1 and V2 keep
    the refusal as a demand: an absent credential cannot sign in, and a revoked one must be refused.
  Source: N3.2-AC02, "WebAuthn Signal API", Core
  References:
    WebAuthn Level 3, signalUnknownCredential; §7.2, verifying an authentication assertion (origin)
    Android SignalUnknownCredentialRequest; Apple reportUnknownPublicKeyCredential

  Background:
    Given an account "alice" with the sign-in policy "password only"
    And "alice" has 2 passkeys in the credential manager

  @verify:N3.2-AC02.V1
  Scenario: A credential id the server never had is reported once
    Given the credential manager holds a passkey for "alice" that the server does not know
    When the user signs in with the passkey the server does not know
    Then the platform returned the assertion and the app refused the sign-in
    And exactly 1 unknown-credential signal has been sent for the passkey the server does not know

  @verify:N3.2-AC02.V2
  Scenario: A revoked credential is refused without an unknown-credential signal or a list for a signed-out client
    Given "alice" has a revoked passkey in the credential manager
    When the user signs in with the revoked passkey
    Then the platform returned the assertion and the app refused the sign-in
    And no unknown-credential signal has been sent
    And no accepted-credentials signal has been sent

  @verify:N3.2-AC02.V3
  Scenario: A restricted account is no reason to signal
    Given a restricted account "bob"
    And "bob" has 1 passkey in the credential manager
    When the user signs in with a passkey of "bob"
    Then the sign-in took the path: the platform returned the assertion and the app refused it
    And no signal has been sent

  @verify:N3.2-AC02.V4
  Scenario: An invalid signature is no reason to signal
    When the user signs in with a passkey of "alice" whose signature is invalid
    Then the sign-in took the path: the platform returned the assertion and the app refused it
    And no signal has been sent

  @verify:N3.2-AC02.V4
  Scenario: A response naming another origin is no reason to signal
    When the user signs in with a passkey of "alice" whose response names another origin
    Then the sign-in took the path: the platform returned the assertion and the app refused it
    And no signal has been sent

  @verify:N3.2-AC02.V4
  Scenario: Authenticator data naming another RP ID is no reason to signal
    When the user signs in with a passkey of "alice" whose authenticator data names another RP ID
    Then the sign-in took the path: the platform returned the assertion and the app refused it
    And no signal has been sent

  @verify:N3.2-AC02.V4
  Scenario: A malformed response is no reason to signal
    When the user signs in with a passkey of "alice" whose authenticator data is malformed
    Then the sign-in took the path: the platform returned the assertion and the app refused it
    And no signal has been sent

  @verify:N3.2-AC02.V5
  Scenario: An expired challenge is no reason to signal
    Given the credential manager holds every sign-in response until it is released
    When the user signs in with a passkey of "alice"
    And 60 minutes pass
    And the held sign-in response is released
    Then the sign-in took the path: the platform returned the assertion and the app refused it
    And no signal has been sent

  @verify:N3.2-AC02.V6 @needs:fault-injection
  Scenario: A network error while the assertion is verified is no reason to signal
    Given the server cannot be reached whenever the app submits a passkey response
    When the user signs in with a passkey of "alice"
    Then the sign-in took the path: the platform returned the assertion and the app refused it
    And no signal has been sent

  # The server signed the user in, but its answer was lost on the way back: to the app that is a
  # network error, and the refusal of its retry (the challenge is spent) is no verdict on the
  # credential either.
  @verify:N3.2-AC02.V6 @needs:fault-injection
  Scenario: A sign-in whose answer was lost after the server accepted it is no reason to signal, nor is the retry's refusal
    When the server's answer to the app's next request is lost after the server committed it
    And the user signs in with a passkey of "alice"
    Then the sign-in took the path: the platform returned the assertion and the server's answer to it was lost
    And no unknown-credential signal has been sent

  # The server stored the passkey, but its answer was lost: the retry's refusal ("already
  # registered", "no such ceremony") never makes the new passkey an unknown credential.
  @verify:N3.2-AC02.V6 @needs:fault-injection @needs:explicit-creation
  Scenario: A registration whose answer was lost after the server stored it is no reason to signal, nor is the retry's refusal
    Given an account "carol" with the sign-in policy "password only"
    And "carol" signs in with the password
    And the app has nothing left scheduled
    When the server's answer to the app's next request is lost after the server committed it
    And the user creates a passkey from the app's settings
    Then the creation took the path: the server stored the passkey the platform made for "carol"
    And no unknown-credential signal has been sent

  @verify:N3.2-AC02.V7
  Scenario: A cancelled sheet is no reason to signal
    When the user cancels the passkey sign-in for "alice"
    Then the platform reported the cancellation and the app is not signed in
    And no signal has been sent

  @verify:N3.2-AC02.V8 @needs:fault-injection
  Scenario: A credential lookup that failed is no reason to signal
    Given the credential manager holds a passkey for "alice" that the server does not know
    And every lookup of the presented credential fails on the server
    When the user signs in with the passkey the server does not know
    Then the sign-in took the path: the platform returned the assertion and the app refused it
    And no signal has been sent

  @verify:N3.2-AC02.V1
  Scenario: Another account's passkey the server knows is not reported as unknown
    Given an account "bob" with the sign-in policy "password only"
    And "bob" has 1 passkey in the credential manager
    When the user signs in with a passkey of "bob" while the app expects "alice"
    Then no unknown-credential signal has been sent
