# Criterion N3.2-AC02 of "WebAuthn Signal API" (criteria document seeds/003_2533626f682b527b.txt,
# group N3.2). Restated in the project's own words.
@criterion:N3.2-AC02 @level:core @group:N3.2 @requires:signals @needs:passkey-sign-in
Feature: N3.2-AC02 Unknown-credential signals only for ids the server has never had

  Statement:
    The app reports a credential as unknown only when the server confirms it holds no record of the
    presented credential id. A credential the server knows but has revoked is handled by reconciling
    the complete accepted list instead. A restricted account, an invalid signature, an expired
    challenge, a network failure or a cancelled sheet say nothing about the credential and never
    lead to an unknown-credential signal.
  Verification:
    Present an absent credential id, a revoked one, a passkey of a restricted account, an invalid
    signature and an expired challenge; fail the network; cancel the sheet. Count the unknown-credential
    and accepted-list signals after each.
  Items:
    V1: absent credential id: one unknown-credential signal
    V2: known but revoked credential: no unknown-credential signal; full-list reconciliation instead
    V3: restricted account: no signal
    V4: invalid signature: no signal
    V5: expired challenge: no signal
    V6: network error: no signal
    V7: cancellation: no signal
  Source: N3.2-AC02, "WebAuthn Signal API", Core
  References:
    WebAuthn Level 3, signalUnknownCredential
    Android SignalUnknownCredentialRequest; Apple reportUnknownPublicKeyCredential

  Background:
    Given an account "alice" with the sign-in policy "password only"
    And "alice" has 2 passkeys in the credential manager

  @verify:N3.2-AC02.V1
  Scenario: A credential id the server never had is reported once
    Given the credential manager holds a passkey for "alice" that the server does not know
    When the user signs in with the passkey the server does not know
    And 5 seconds pass
    Then exactly 1 unknown-credential signal has been sent for the passkey the server does not know

  @verify:N3.2-AC02.V2
  Scenario: A revoked credential leads to reconciliation, not an unknown-credential signal
    Given "alice" has a revoked passkey in the credential manager
    When the user signs in with the revoked passkey
    And 5 seconds pass
    Then no unknown-credential signal has been sent
    And exactly 1 accepted-credentials signal has been sent for "alice"
    And the last accepted-credentials signal for "alice" lists exactly the server's accepted passkeys

  @verify:N3.2-AC02.V3
  Scenario: A restricted account is no reason to signal
    Given a restricted account "bob"
    And "bob" has 1 passkey in the credential manager
    When the user signs in with a passkey of "bob"
    And 5 seconds pass
    Then no signal has been sent

  @verify:N3.2-AC02.V4
  Scenario: An invalid signature is no reason to signal
    When the user signs in with a passkey of "alice" whose signature is invalid
    And 5 seconds pass
    Then no signal has been sent

  @verify:N3.2-AC02.V5
  Scenario: An expired challenge is no reason to signal
    Given the credential manager holds every sign-in response until it is released
    When the user signs in with a passkey of "alice"
    And 10 minutes pass
    And the held sign-in response is released
    And 5 seconds pass
    Then no signal has been sent

  @verify:N3.2-AC02.V6 @needs:fault-injection
  Scenario: A network error is no reason to signal
    Given the next request to the server fails with a network error
    When the user signs in with a passkey of "alice"
    And 5 seconds pass
    Then no signal has been sent

  @verify:N3.2-AC02.V7
  Scenario: A cancelled sheet is no reason to signal
    When the user cancels the passkey sign-in for "alice"
    And 5 seconds pass
    Then no signal has been sent
