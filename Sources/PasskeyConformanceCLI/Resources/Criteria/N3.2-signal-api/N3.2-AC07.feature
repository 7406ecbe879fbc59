# Criterion N3.2-AC07 of "WebAuthn Signal API" (criteria document seeds/003_2533626f682b527b.txt,
# group N3.2). Restated in the project's own words.
@criterion:N3.2-AC07 @level:core @group:N3.2 @requires:signals @needs:passkey-sign-in @needs:refresh-point @needs:rename
Feature: N3.2-AC07 Every signal names the credential's own RP ID

  Statement:
    Each signal carries the RP ID configured for the credential it concerns, for every RP the app
    serves. An origin, a host alias or another RP's ID in its place points the credential manager at
    the wrong credentials.
  Verification:
    For an account on each configured RP, and for two accounts on two RPs in one session, each with
    a credential of its own, produce every signal type (unknown credential, accepted list, user
    details); once the app has nothing left scheduled, check that each type was sent for each
    account and compare the RP ID of every signal with the credential record's.
  Items:
    V1: each signal type, for each configured RP: the RP ID of the credential record; never an origin or host alias
  Harness choices:
    The triggers are five minutes apart, more than the Android window of 120 seconds, so that an
    app's own signal budget (which may drop what it holds back) has no reason to drop one of them.
    Anchor: "Android permits a maximum of 10 calls in any 120-second window"; the gap only keeps
    that limit out of the way and judges nothing.
  Source: N3.2-AC07, "WebAuthn Signal API", Core
  References:
    WebAuthn Level 3, signal methods: rpId and RP ID validation

  @verify:N3.2-AC07.V1
  Scenario Outline: Every signal type for an account on the <rp> RP carries its RP ID
    Given an account "alice" on the <rp> RP with the sign-in policy "password only"
    And "alice" has 2 passkeys in the credential manager
    And the credential manager holds a passkey for "alice" that the server does not know
    When the user signs in with the passkey the server does not know
    And 5 minutes pass
    And the user signs in with a passkey of "alice"
    And 5 minutes pass
    And the app reaches its refresh point
    And 5 minutes pass
    And the user changes the account's name to "alice.renamed@example.com" and its display name to "Alice R."
    Then the app sent a signal of every type for "alice"
    And every signal names the RP ID of its account

    Examples:
      | rp      |
      | primary |
      | second  |

  @verify:N3.2-AC07.V1
  Scenario: Two configured RPs in one session, a credential of each
    Given an account "alice" on the primary RP with the sign-in policy "password only"
    And an account "bob" on the second RP with the sign-in policy "password only"
    And "alice" has 1 passkey in the credential manager
    And "bob" has 1 passkey in the credential manager
    And the credential manager holds a passkey for "alice" that the server does not know
    When the user signs in with the passkey the server does not know
    And 5 minutes pass
    And the user signs in with a passkey of "alice"
    And 5 minutes pass
    And the app reaches its refresh point
    And 5 minutes pass
    And the user changes the account's name to "alice.renamed@example.com" and its display name to "Alice R."
    # Alice's signals are hers to send while she is signed in: the app finishes her pending work
    # (a reconciliation batched to later, say) before Bob signs in.
    And the app has nothing left scheduled
    And 5 minutes pass
    And the credential manager holds a passkey for "bob" that the server does not know
    And 5 minutes pass
    And the user signs in with the passkey the server does not know
    And 5 minutes pass
    And the user signs in with a passkey of "bob"
    And 5 minutes pass
    And the app reaches its refresh point
    And 5 minutes pass
    And the user changes the account's name to "bob.renamed@example.org" and its display name to "Bob R."
    Then the app sent a signal of every type for "alice"
    And the app sent a signal of every type for "bob"
    And every signal names the RP ID of its account
