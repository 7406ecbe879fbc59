# Criterion N3.2-AC03 of "WebAuthn Signal API" (criteria document seeds/003_2533626f682b527b.txt,
# group N3.2). Restated in the project's own words.
@criterion:N3.2-AC03 @level:core @group:N3.2 @requires:signals
Feature: N3.2-AC03 Reconciliation follows the right triggers, once, with the latest state

  Statement:
    A successful passkey creation, a revocation and the app's documented authenticated refresh point
    each schedule a reconciliation of the account's complete accepted list. Triggers that arrive
    close together share one reconciliation, which carries the server's state at the time it is
    sent. A failed creation, and the refresh point reached while signed out, schedule nothing.
  Verification:
    Create a passkey successfully and unsuccessfully, revoke one, reach the refresh point signed in
    and signed out, and fire several triggers at once; count the accepted-list signals and compare
    the last one with the server's list.
  Items:
    V1: successful creation: one reconciliation
    V2: failed creation: none
    V3: revocation: one
    V4: the documented authenticated refresh point: one
    V5: the same path unauthenticated: none
    V6: several triggers close together: one reconciliation carrying the latest server state
  Source: N3.2-AC03, "WebAuthn Signal API", Core
  References:
    WebAuthn Level 3, signalAllAcceptedCredentials
    Android SignalAllAcceptedCredentialIdsRequest; Apple reportAllAcceptedPublicKeyCredentials

  Background:
    Given an account "alice" with the sign-in policy "password only"
    And the server holds 2 passkeys for "alice" made with other credential managers
    And the user signs in as "alice" typing the password by hand

  @verify:N3.2-AC03.V1 @needs:explicit-creation
  Scenario: A successful creation schedules one reconciliation
    When the user creates a passkey from the app's settings
    And 5 seconds pass
    Then exactly 1 accepted-credentials signal has been sent for "alice"
    And the last accepted-credentials signal for "alice" lists exactly the server's accepted passkeys

  @verify:N3.2-AC03.V2 @needs:explicit-creation
  Scenario: A failed creation schedules nothing
    When the user cancels the passkey creation from the app's settings
    And 5 seconds pass
    Then no accepted-credentials signal has been sent

  @verify:N3.2-AC03.V3 @needs:revocation
  Scenario: A revocation schedules one reconciliation
    When the user revokes a passkey of "alice"
    And 5 seconds pass
    Then exactly 1 accepted-credentials signal has been sent for "alice"
    And the last accepted-credentials signal for "alice" lists exactly the server's accepted passkeys

  @verify:N3.2-AC03.V4 @needs:refresh-point
  Scenario: The authenticated refresh point schedules one reconciliation
    When the app reaches its refresh point
    And 5 seconds pass
    Then exactly 1 accepted-credentials signal has been sent for "alice"

  @verify:N3.2-AC03.V5 @needs:refresh-point
  Scenario: The refresh point reached while signed out schedules nothing
    When the user signs out
    And the app reaches its refresh point
    And 5 seconds pass
    Then no accepted-credentials signal has been sent

  @verify:N3.2-AC03.V6 @needs:revocation @needs:refresh-point
  Scenario: Triggers close together share one reconciliation with the latest state
    Given "alice" has 2 passkeys in the credential manager
    When the user revokes a passkey of "alice"
    And the user revokes a passkey of "alice"
    And the app reaches its refresh point
    And 5 seconds pass
    Then exactly 1 accepted-credentials signal has been sent for "alice"
    And the last accepted-credentials signal for "alice" lists exactly the server's accepted passkeys
