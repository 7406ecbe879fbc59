# Criterion N2.6-AC05 of "Passkey Creation: Automatic Upgrade (conditional create)" (criteria document
# seeds/000_48fd21300f093a6c.txt, group N2.6). Restated in the project's own words.
@criterion:N2.6-AC05 @level:core @group:N2.6 @requires:conditional-create-api
Feature: N2.6-AC05 One prompt request, a silent no-create and no retry

  Statement:
    After a qualifying password sign-in the app issues exactly one conditional registration request,
    at once, while the credential manager's autofill context still applies. When the credential
    manager answers that it creates nothing, the app shows no error, carries on with the session and
    does not retry; the next qualifying sign-in issues one new request. On success the system, not
    the app, tells the user; the app adds no confirmation screen of its own.
  Verification:
    Sign in with a matching autofilled password, a hand-typed password and a password saved for
    another account; let time pass; count the requests, their timing, the errors and screens the app
    shows, and the requests after a later qualifying sign-in.
  Items:
    V1: matching password autofill: exactly one request, promptly (before any further user action)
    V2: manual password entry: one request; the provider answers no-create; no user-facing error, the session continues, no retry
    V3: sign-in with a stored password of another account: as V2
    V4: a later qualifying sign-in issues exactly one new request
    V5: on success the app adds no confirmation screen of its own (derived)
  Source: N2.6-AC05, "Passkey Creation: Automatic Upgrade (conditional create)", Core
  References:
    androidx.credentials CreateCredentialNoCreateOptionException
    Apple RequestStyle.conditional: declines without UI

  Background:
    Given an account "alice" with the sign-in policy "password only"
    And the credential manager holds a saved password for "alice"

  @verify:N2.6-AC05.V1 @requires:conditional-create
  Scenario: A matching autofill gets exactly one request at once
    When the user signs in as "alice" with the autofilled password
    And 5 minutes pass
    Then exactly 1 conditional registration request has been issued for "alice"
    And the registration request was issued within 1 second of the sign-in
    And the credential manager created a passkey for "alice"
    And the server holds 1 passkey for "alice"

  @verify:N2.6-AC05.V2
  Scenario: A hand-typed password gets one request and a silent no-create
    When the user signs in as "alice" typing the password by hand
    And 10 minutes pass
    Then exactly 1 conditional registration request has been issued for "alice"
    And the credential manager declined the registration
    And the app showed no error
    And "alice" is signed in

  @verify:N2.6-AC05.V2 @requires:conditional-create
  Scenario Outline: A credential manager that declines for its own reasons stays silent (<reason>)
    Given <provider state>
    When the user signs in as "alice" with the autofilled password
    And 10 minutes pass
    Then exactly 1 conditional registration request has been issued for "alice"
    And the credential manager declined the registration
    And the app showed no error
    And "alice" is signed in

    Examples:
      | reason                   | provider state                                   |
      | automatic creation off   | the user switched automatic passkey creation off |
      | a passkey is already held | "alice" has 1 passkey in the credential manager  |

  @verify:N2.6-AC05.V3
  Scenario: A password saved for another account gets one request and a silent no-create
    Given the credential manager holds a saved password for "carol"
    When the user signs in as "alice" with the password saved for "carol"
    And 10 minutes pass
    Then exactly 1 conditional registration request has been issued for "alice"
    And the credential manager declined the registration
    And the app showed no error
    And "alice" is signed in

  @verify:N2.6-AC05.V4 @requires:conditional-create
  Scenario: A later qualifying sign-in asks once more
    When the user signs in as "alice" typing the password by hand
    And the user signs out
    And 1 minute passes
    And the user signs in as "alice" with the autofilled password
    Then exactly 2 conditional registration requests have been issued for "alice"
    And the server holds 1 passkey for "alice"

  @verify:N2.6-AC05.V5 @requires:conditional-create
  Scenario: A successful upgrade adds no confirmation screen
    When the user signs in as "alice" with the autofilled password
    Then the credential manager created a passkey for "alice"
    And the app showed no confirmation screen of its own

  @verify:N2.6-AC05.V2 @requires:no-conditional-create
  Scenario: A provider without conditional support fails quietly and is recorded
    When the user signs in as "alice" with the autofilled password
    And 10 minutes pass
    Then exactly 1 conditional registration request has been issued for "alice"
    And the app showed no error
    And the app recorded the failure in its telemetry
    And "alice" is signed in
