# Criterion N2.6-AC01 of "Passkey Creation: Automatic Upgrade (conditional create)" (criteria document
# seeds/000_48fd21300f093a6c.txt, group N2.6). Restated in the project's own words.
@criterion:N2.6-AC01 @level:core @group:N2.6 @requires:conditional-create-api
Feature: N2.6-AC01 No automatic upgrade before the whole sign-in policy has passed

  Statement:
    The app may ask the credential manager for a conditional passkey registration only once the
    account's complete sign-in policy has succeeded. An accepted password on an account that also
    needs a second factor is not enough, and neither is a weaker recovery sign-in. A sign-in that
    used no stored password at all (a magic link, a one-time code, a federated sign-in) never
    qualifies: the stored password is the hard precondition.
  Verification:
    Drive each sign-in path the source names (password alone on a two-factor account, a wrong and an
    expired second factor, a completed second factor, a recovery sign-in, a password-only policy and
    the sign-ins without a password), assert where the sign-in ended, and, once the app has nothing
    left scheduled, count the registration requests it handed to the platform after the sign-in.
  Items:
    V1: password accepted on an account that requires a second factor, second factor not yet given: no request
    V2: second factor wrong: no request
    V3: second factor expired: no request
    V4: second factor completed: the request may proceed (control)
    V5: lower-assurance recovery sign-in: no request
    V6: password-only policy completed: the request may proceed (control)
    V7: a sign-in that used no stored password (magic link, one-time code, federated): no request (derived: the seed's hard precondition)
  Harness choices:
    The app's moment after a qualifying sign-in is the credential manager's recent-autofill
    window, not a number of the harness's: the user of the simulation does not act again before
    the app has had that window (5 minutes unless a scenario sets another; its timers due in it
    run until it asks), and every step that reads registration requests gives it the same window
    first. Anchor: the source has the request issued "promptly after the complete configured
    sign-in succeeds ... while the credential provider's recent autofill context can still apply"
    (see N2.6-AC05). A request that never comes is reported as absent, one after a further user
    action or past the window as late.
  Source: N2.6-AC01, "Passkey Creation: Automatic Upgrade (conditional create)", Core
  References:
    WebAuthn Level 3, create() with mediation "conditional" (the prior sign-in may be a password)

  Background:
    Given an account "alice" with the sign-in policy "password and second factor"
    And the credential manager holds a saved password for "alice"

  @verify:N2.6-AC01.V1
  Scenario: A password alone does not complete a two-factor policy
    When the user signs in as "alice" with the autofilled password
    Then the app asks for a second factor
    And no passkey registration request has been issued

  Scenario Outline: A second factor that fails does not complete the policy (<outcome>)
    When the user signs in as "alice" with the autofilled password
    And the user answers the second factor "<outcome>"
    Then "alice" is not fully signed in
    And no passkey registration request has been issued

    @verify:N2.6-AC01.V2
    Examples: A wrong code
      | outcome |
      | wrong   |

    @verify:N2.6-AC01.V3
    Examples: An expired code
      | outcome |
      | expired |

  @verify:N2.6-AC01.V4
  Scenario: A completed second factor lets the upgrade proceed
    When the user signs in as "alice" with the autofilled password
    And the user answers the second factor "correct"
    Then "alice" is signed in
    And exactly 1 conditional registration request has been issued for "alice"

  @verify:N2.6-AC01.V5 @needs:recovery-sign-in
  Scenario: A lower-assurance recovery sign-in does not qualify
    When the user signs in as "alice" through account recovery
    Then "alice" is signed in with limited assurance
    And no passkey registration request has been issued

  @verify:N2.6-AC01.V7 @needs:alternative-sign-in
  Scenario Outline: A sign-in without the stored password does not qualify (<method>)
    Given an account "bob" with the sign-in policy "password only"
    And the credential manager holds a saved password for "bob"
    When the user signs in as "bob" through "<method>"
    Then "bob" is signed in
    And no passkey registration request has been issued

    Examples:
      | method            |
      | a magic link      |
      | a one-time code   |
      | federated sign-in |

  @verify:N2.6-AC01.V6
  Scenario: A completed password-only policy lets the upgrade proceed
    Given an account "bob" with the sign-in policy "password only"
    And the credential manager holds a saved password for "bob"
    When the user signs in as "bob" with the autofilled password
    Then "bob" is signed in
    And exactly 1 conditional registration request has been issued for "bob"
